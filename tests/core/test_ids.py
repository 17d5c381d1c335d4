"""Round ids: version-7 UUIDs, ordered by the time they were made (qipai/core/ids.py)."""

from __future__ import annotations

import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qipai.core.ids import is_whole_round_id, new_round_id


@given(st.integers(0, (1 << 48) - 1), st.integers(0, (1 << 48) - 1))
def test_ids_sort_by_their_millisecond(a: int, b: int) -> None:
    first, second = new_round_id(a), new_round_id(b)
    assert len(first) == 32 and int(first, 16) >> 80 == a
    if a < b:
        assert first < second


def test_an_id_is_a_version_7_uuid_with_74_random_bits() -> None:
    ids = {new_round_id(1_800_000_000_000) for _ in range(2_000)}
    assert len(ids) == 2_000  # the same millisecond, still all different
    for rid in ids:
        parsed = uuid.UUID(hex=rid)
        assert parsed.version == 7 and parsed.variant == uuid.RFC_4122
        assert parsed.hex == rid
    # every random bit varies: 12 after the version, 62 after the variant
    values = [int(rid, 16) for rid in ids]
    varying = 0
    for bit in range(80):
        seen = {(v >> bit) & 1 for v in values}
        varying += len(seen) == 2
    assert varying == 74


def test_time_beyond_48_bits_is_refused() -> None:
    with pytest.raises(ValueError, match="48 bits"):
        new_round_id(1 << 48)
    with pytest.raises(ValueError, match="48 bits"):
        new_round_id(-1)


def test_ids_made_one_after_another_sort_in_order() -> None:
    made = []
    while len({rid[:12] for rid in made}) < 5:  # at least 5 different milliseconds
        made.append(new_round_id())
    stamps = [rid[:12] for rid in made]
    assert stamps == sorted(stamps)


def test_a_whole_id_is_told_from_a_part_of_one() -> None:
    rid = new_round_id()
    assert is_whole_round_id(rid)
    assert not is_whole_round_id(rid[-12:])
    assert not is_whole_round_id(rid[:-1] + "g")  # not hexadecimal
    assert not is_whole_round_id(rid.upper())  # ids are lowercase
    assert not is_whole_round_id(rid + "0")
