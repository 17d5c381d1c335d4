"""`Rng.shuffle` reads the stream inline for speed; it must equal the per-draw reference exactly."""

from __future__ import annotations

from collections.abc import MutableSequence

from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.rng import Rng


def reference_shuffle(rng: Rng, items: MutableSequence[int]) -> None:
    """The textbook Fisher–Yates through `randbelow`, as `shuffle` was first written."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.randbelow(i + 1)
        items[i], items[j] = items[j], items[i]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    n=st.sampled_from([0, 1, 2, 3, 52, 255, 256, 257, 416, 700]),
    before=st.integers(0, 40),
)
def test_shuffle_matches_reference_and_leaves_the_same_stream_state(
    seed: bytes, n: int, before: int
) -> None:
    fast, slow = Rng(seed, "x"), Rng(seed, "x")
    # Start part-way through a block so that straddling draws are exercised.
    assert fast.next_bytes(before) == slow.next_bytes(before)
    a, b = list(range(n)), list(range(n))
    fast.shuffle(a)
    reference_shuffle(slow, b)
    assert a == b
    # Later draws continue from the same point of the stream.
    assert [fast.randbelow(1000) for _ in range(20)] == [slow.randbelow(1000) for _ in range(20)]
    assert fast.next_bytes(37) == slow.next_bytes(37)


def test_stream_blocks_are_hmac_sha256_of_label_and_counter() -> None:
    import hashlib
    import hmac

    seed = bytes(range(32))
    rng = Rng(seed, "shoe")
    expected = b"".join(
        hmac.new(seed, b"shoe\x00" + k.to_bytes(8, "big"), hashlib.sha256).digest()
        for k in range(3)
    )
    assert rng.next_bytes(96) == expected


def test_label_names_the_stream() -> None:
    rng = Rng(bytes(32))
    assert rng.label == ""
    assert rng.fork("shoe").label == "shoe"
    assert rng.fork("a").fork("b").label == "a/b"
    # Same seed and label: the same stream.
    assert Rng(bytes(32), "a/b").next_bytes(8) == rng.fork("a").fork("b").next_bytes(8)


@settings(max_examples=40, deadline=None)
@given(seed=st.binary(min_size=16, max_size=200), label=st.text(max_size=20))
def test_blocks_equal_hmac_for_any_seed_length(seed: bytes, label: str) -> None:
    import hashlib
    import hmac

    rng = Rng(seed, label)
    raw = label.encode("utf-8")
    expected = b"".join(
        hmac.new(seed, raw + b"\x00" + k.to_bytes(8, "big"), hashlib.sha256).digest()
        for k in range(2)
    )
    assert rng.next_bytes(64) == expected


def test_wide_draws_match_the_reference() -> None:
    """More than 65,536 items: draws of three bytes (the generic path)."""
    n = 70_000
    fast, slow = Rng(bytes(32), "wide"), Rng(bytes(32), "wide")
    a, b = list(range(n)), list(range(n))
    fast.shuffle(a)
    reference_shuffle(slow, b)
    assert a == b and fast.next_bytes(40) == slow.next_bytes(40)
