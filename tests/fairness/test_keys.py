"""deal-spec/1 keys: the server seed alone when client seeds are off, else HMAC over them."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qipai.core.errors import InvalidInput
from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.fairness import (
    DEAL_SPEC,
    check_client_seed,
    deal_meta,
    meta_client_seeds,
    new_client_seed,
    round_key,
    unit_key,
)
from qipai.games.niuniu import NiuniuConfig, NiuniuRound

SEED = bytes(range(32))


def _by_hand(seed: bytes, seeds: dict[str, str]) -> bytes:
    """The specification's construction written out independently of the module."""
    msg = b"deal-spec/1\x00"
    for seat in sorted(seeds):
        msg += bytes([len(seat)]) + seat.encode() + bytes([len(seeds[seat])]) + seeds[seat].encode()
    return hmac.new(seed, msg, hashlib.sha256).digest()


def test_without_client_seeds_the_key_is_the_server_seed() -> None:
    assert unit_key(SEED) == SEED
    assert unit_key(SEED, {}) == SEED
    assert unit_key(SEED, None) == SEED
    # so every existing deal stays as it was: the same stream bytes as before client seeds
    assert Rng(unit_key(SEED, {})).fork("deck").next_bytes(64) == Rng(SEED).fork("deck").next_bytes(
        64
    )


def test_with_client_seeds_the_key_is_hmac_of_the_sorted_seats() -> None:
    seeds = {"S3": "zebra", "S1": "lucky-7", "S10": "x"}
    key = unit_key(SEED, seeds)
    assert key == _by_hand(SEED, seeds)
    assert len(key) == 32 and key != SEED
    # the order of the mapping does not matter, only the seats and their seeds
    assert unit_key(SEED, dict(reversed(list(seeds.items())))) == key


def test_the_key_changes_with_any_seats_client_seed() -> None:
    base = {"A": "aaaa", "B": "bbbb", "C": "cccc"}
    key = unit_key(SEED, base)
    for seat in base:
        assert unit_key(SEED, {**base, seat: base[seat] + "!"}) != key
    assert unit_key(SEED, {"A": "bbbb", "B": "aaaa", "C": "cccc"}) != key  # seeds swapped
    assert unit_key(SEED, {"A": "aaaa", "B": "bbbb"}) != key  # a seat without one
    # the length prefixes keep seat/seed boundaries apart ("AB"+"c" vs "A"+"Bc")
    assert unit_key(SEED, {"AB": "c"}) != unit_key(SEED, {"A": "Bc"})
    assert unit_key(bytes(32), base) != key


@given(
    st.dictionaries(
        st.sampled_from(["E", "S", "W", "N"]), st.text("abc123-_", min_size=1, max_size=64)
    )
)
def test_the_key_matches_the_written_construction(seeds: dict[str, str]) -> None:
    assert unit_key(SEED, seeds) == (_by_hand(SEED, seeds) if seeds else SEED)


def test_the_deal_changes_with_a_seated_players_client_seed() -> None:
    seats = [Seat("A", 10_000), Seat("B", 10_000)]
    config = NiuniuConfig()

    def cards(seeds: dict[str, str]) -> dict[str, list[str]]:
        r = NiuniuRound.start(config, seats, Rng(unit_key(SEED, seeds)))
        return {s: [str(c) for c in cs] for s, cs in r.cards.items()}

    off = cards({})
    assert off == {
        s: [str(c) for c in cs]
        for s, cs in NiuniuRound.start(config, seats, Rng(SEED)).cards.items()
    }
    with_a = cards({"A": "one"})
    assert with_a != off
    assert cards({"A": "one", "B": "two"}) not in (off, with_a)
    assert cards({"A": "one"}) == with_a  # reproducible


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("", "1–64 characters"),
        ("x" * 65, "1–64 characters"),
        ("has space", "' ' is not allowed"),
        ("naïve", "'ï' is not allowed"),
        (12, "is text"),
    ],
)
def test_bad_client_seeds_are_refused_by_name(value: object, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        check_client_seed(value)
    with pytest.raises(InvalidInput, match="seat 'E'"):
        unit_key(SEED, {"E": value})  # type: ignore[dict-item]


def test_bad_seats_and_server_seeds_are_refused() -> None:
    with pytest.raises(InvalidInput, match="seat id"):
        unit_key(SEED, {"": "x"})
    with pytest.raises(InvalidInput, match="seat id"):
        unit_key(SEED, {"a b": "x"})
    with pytest.raises(InvalidInput, match="16 bytes"):
        unit_key(b"short", {"E": "x"})


def test_new_client_seeds_are_valid_and_fresh() -> None:
    made = {new_client_seed() for _ in range(50)}
    assert len(made) == 50
    assert all(check_client_seed(s) == s and len(s) == 32 for s in made)


def test_meta_records_the_spec_and_seeds_and_rebuilds_the_key() -> None:
    meta = deal_meta({"S2": "b", "S1": "a"})
    assert meta == {"deal_spec": DEAL_SPEC, "client_seeds": {"S1": "a", "S2": "b"}}
    assert list(meta["client_seeds"]) == ["S1", "S2"]
    assert deal_meta(None) == {"deal_spec": "deal-spec/1", "client_seeds": {}}
    record = {"seed": SEED.hex(), "meta": meta}
    assert round_key(record) == unit_key(SEED, {"S1": "a", "S2": "b"})
    # rounds recorded before meta existed, or with client seeds off: the bare seed
    assert round_key({"seed": SEED.hex()}) == SEED
    assert round_key({"seed": SEED.hex(), "meta": deal_meta({})}) == SEED
    assert meta_client_seeds(None) == {}
    with pytest.raises(InvalidInput, match="not revealed"):
        round_key({"seed": None, "meta": meta})
    with pytest.raises(InvalidInput, match="deal-spec/9"):
        meta_client_seeds({"deal_spec": "deal-spec/9"})
