from __future__ import annotations

import ast
import hashlib
import hmac
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from qipai.core.errors import InvalidInput
from qipai.core.rng import Rng, commitment, new_seed, seed_from_hex, verify

SEED = bytes(range(32))


def test_new_seed_is_256_bits_and_fresh() -> None:
    seeds = {new_seed() for _ in range(100)}
    assert len(seeds) == 100
    assert all(len(s) == 32 for s in seeds)


def test_commit_reveal() -> None:
    seed = new_seed()
    c = commitment(seed)
    assert c == hashlib.sha256(seed).hexdigest()
    assert verify(seed, c)
    assert verify(seed.hex(), c.upper())
    assert not verify(new_seed(), c)
    assert not verify(seed, commitment(seed[:-1] + bytes([seed[-1] ^ 1])))


def test_seed_hex_errors() -> None:
    assert seed_from_hex(SEED.hex()) == SEED
    with pytest.raises(InvalidInput, match="not hexadecimal"):
        seed_from_hex("zz")
    with pytest.raises(InvalidInput, match="32 bytes"):
        seed_from_hex("00ff")


def test_stream_is_hmac_sha256_in_counter_mode() -> None:
    rng = Rng(SEED, "deal")
    expected = b"".join(
        hmac.new(SEED, b"deal\x00" + i.to_bytes(8, "big"), hashlib.sha256).digest()
        for i in range(3)
    )
    assert rng.next_bytes(40) + rng.next_bytes(56) == expected


def test_forks_are_independent_and_reproducible() -> None:
    a = Rng(SEED).fork("shoe")
    b = Rng(SEED).fork("cut")
    assert a.next_bytes(32) != b.next_bytes(32)
    assert Rng(SEED).fork("x").fork("y").next_bytes(16) == Rng(SEED, "x/y").next_bytes(16)
    assert Rng(SEED).randbelow(10**9) == Rng(SEED).randbelow(10**9)


@given(st.integers(min_value=1, max_value=2**70), st.binary(min_size=16, max_size=32))
def test_randbelow_stays_in_range(n: int, seed: bytes) -> None:
    rng = Rng(seed)
    for _ in range(5):
        assert 0 <= rng.randbelow(n) < n


def test_randbelow_rejects_instead_of_folding() -> None:
    # n = 3 needs 2 bits; the value 3 must be rejected, never folded onto 0 (modulo bias).
    class Scripted(Rng):
        def __init__(self, values: list[int]) -> None:
            super().__init__(SEED)
            self.values = values

        def next_bytes(self, n: int) -> bytes:
            return bytes([self.values.pop(0)])

    rng = Scripted([3, 3, 2])
    assert rng.randbelow(3) == 2
    assert rng.values == []


def test_randbelow_is_uniform_for_an_awkward_bound() -> None:
    # 5 is just above a power of two: a modulo shortcut would be visibly biased.
    rng = Rng(SEED, "uniform")
    counts = np.bincount([rng.randbelow(5) for _ in range(50_000)], minlength=5)
    assert stats.chisquare(counts).pvalue > 0.01


def test_weighted_choice_and_errors() -> None:
    rng = Rng(SEED, "weighted")
    picks = [rng.weighted_choice(["a", "b", "c"], [1, 0, 3]) for _ in range(4000)]
    assert "b" not in picks
    counts = [picks.count("a"), picks.count("c")]
    assert stats.chisquare(counts, [1000, 3000]).pvalue > 0.01
    assert rng.weighted_choice(["x", "y"], [0, 0]) in {"x", "y"}
    with pytest.raises(InvalidInput):
        rng.weighted_choice(["x"], [1, 2])
    with pytest.raises(InvalidInput):
        rng.weighted_choice(["x"], [-1])
    with pytest.raises(InvalidInput):
        rng.randbelow(0)
    with pytest.raises(InvalidInput):
        rng.choice([])


def test_shuffle_is_a_permutation_and_reproducible() -> None:
    deck = list(range(52))
    a, b = deck[:], deck[:]
    Rng(SEED).shuffle(a)
    Rng(SEED).shuffle(b)
    assert a == b and sorted(a) == deck and a != deck


def test_the_last_card_can_stay_in_the_last_position() -> None:
    # A common bug (Sattolo's variant, or j drawn from [0, i)) never leaves an item in place.
    for seed_byte in range(256):
        rng = Rng(bytes([seed_byte]) * 32, "last")
        deck = list(range(52))
        rng.shuffle(deck)
        if deck[-1] == 51:
            return
    pytest.fail("in 256 shuffles the last card never stayed last (expected about 5 times)")


def _position_counts(shuffle: Callable[[list[int]], None], n: int, trials: int) -> np.ndarray:
    counts = np.zeros((n, n), dtype=np.int64)
    cards = np.arange(n)
    for _ in range(trials):
        deck = list(range(n))
        shuffle(deck)
        counts[np.asarray(deck), cards] += 1
    return counts


def _card_position_pvalue(counts: np.ndarray) -> float:
    """Chi-square of the card × position table against the uniform expectation."""
    trials = counts.sum(axis=1)[0]
    n = counts.shape[0]
    expected = trials / n
    statistic = float(((counts - expected) ** 2 / expected).sum())
    dof = (n - 1) ** 2
    return float(stats.chi2.sf(statistic, dof))


@pytest.mark.slow
def test_chi_square_small_deck_million_shuffles() -> None:
    rng = Rng(SEED, "chi-small")
    counts = _position_counts(rng.shuffle, 5, 1_000_000)
    assert _card_position_pvalue(counts) > 0.01


@pytest.mark.slow
def test_chi_square_52_cards_100k_shuffles() -> None:
    rng = Rng(SEED, "chi-52")
    counts = _position_counts(rng.shuffle, 52, 100_000)
    assert _card_position_pvalue(counts) > 0.01


@pytest.mark.slow
def test_chi_square_detects_a_biased_shuffle() -> None:
    # Negative control: the naive "swap with any position" shuffle is biased; the same test
    # must reject it, or the two tests above prove nothing.
    rng = Rng(SEED, "naive")

    def naive(items: list[int]) -> None:
        for i in range(len(items)):
            j = rng.randbelow(len(items))
            items[i], items[j] = items[j], items[i]

    counts = _position_counts(naive, 5, 200_000)
    assert _card_position_pvalue(counts) < 1e-6


def test_no_module_in_qipai_imports_random() -> None:
    root = Path(__file__).resolve().parents[2] / "qipai"
    offenders = []
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(n == "random" or n.startswith("random.") for n in names):
                offenders.append(str(path.relative_to(root)))
    assert offenders == [], f"these modules import `random`: {offenders}"
