"""Tien Gow's tile-by-tile commitment: what a seat saw opens, discards never do."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.fairness import (
    seat_openings,
    seen_positions,
    tiles_commitment,
    unit_key,
    verify_openings,
)
from qipai.fairness.tiles import (
    dealt_positions,
    face_up_positions,
    leaf_hash,
    root_hash,
    tile_salts,
)
from qipai.games.tiengow import TienGowConfig, TienGowRound
from tests.fairness.helpers import play_out

SEATS = [Seat(s, 100_000) for s in ("E", "S", "W", "N")]


def _game(n: int) -> tuple[bytes, TienGowRound, dict[str, dict[int, str]]]:
    """A finished game; for each seat the tiles it was dealt (from its first view)."""
    key = unit_key(hashlib.sha256(b"tiengow %d" % n).digest(), {"E": f"client{n}"})
    game = TienGowRound.start(TienGowConfig(), SEATS, Rng(key))
    hands = {s.id: {t["id"]: t["tile"] for t in game.view(s.id)["me"]["hand"]} for s in SEATS}
    play_out(game, Rng(key, "test-actions"))
    return key, game, hands


def _shown(game: TienGowRound, seat: str, hand: dict[int, str]) -> dict[int, str]:
    """Everything the seat's views showed: its hand and every tile in the tricks it saw."""
    shown = dict(hand)
    for trick in game.view(seat)["tricks"]:
        for entry in trick["entries"]:
            for t in entry.get("tiles", []):
                shown[t["id"]] = t["tile"]
    return shown


def test_the_construction_is_the_documented_one() -> None:
    key = bytes(range(32))
    salts = tile_salts(key)
    assert salts[5] == hmac.new(key, b"salts\x00" + (5).to_bytes(8, "big"), hashlib.sha256).digest()
    assert (
        leaf_hash(3, "6-6", salts[3])
        == hashlib.sha256(b"tiengow-tile\x00\x03" + b"6-6" + salts[3]).digest()
    )
    leaves = [bytes([i]) * 32 for i in range(32)]
    assert root_hash(leaves) == hashlib.sha256(b"tiengow-root\x00" + b"".join(leaves)).digest()


@pytest.mark.parametrize("n", range(6))
def test_every_seat_verifies_its_own_tiles_and_every_face_up_tile(n: int) -> None:
    key, game, hands = _game(n)
    commitment = tiles_commitment(key, game.deck)
    assert commitment.tiles == tuple(str(t) for t in game.deck)
    for seat, hand in hands.items():
        package = json.loads(json.dumps(seat_openings(game, commitment, seat)))
        assert package["root"] == commitment.root
        shown = _shown(game, seat, hand)
        assert verify_openings(package["root"], package["leaves"], package["openings"], shown) == []
        # everything opened was shown: its hand and the face-up plays, nothing else
        opened = {o["position"] for o in package["openings"]}
        face_up = set(face_up_positions(game))
        assert opened == set(hand) | face_up
        assert set(seen_positions(game, seat)) == opened


@pytest.mark.parametrize("n", range(6))
def test_no_seat_receives_anything_that_opens_another_seats_discard(n: int) -> None:
    key, game, hands = _game(n)
    commitment = tiles_commitment(key, game.deck)
    discards = {
        (e.seat, i) for t in game.tricks for e in t.entries if e.play is None for i in e.tiles
    }
    assert discards, "a random game has discards"
    for seat in hands:
        text = json.dumps(seat_openings(game, commitment, seat))
        for owner, position in discards:
            if owner == seat:
                continue
            salt = commitment.salts[position]
            assert salt.hex() not in text and salt.hex().upper() not in text
            opened = [o for o in json.loads(text)["openings"] if o["position"] == position]
            assert opened == []
        # and the seat's view at the end shows no other seat's discarded tile either
        for trick in game.view(seat)["tricks"]:
            for entry in trick["entries"]:
                if entry["action"] == "discard" and entry["seat"] != seat:
                    assert "tiles" not in entry


def test_dealt_positions_follow_the_deal() -> None:
    _, game, hands = _game(0)
    dealt = dealt_positions(game.seat_ids(), game.banker)
    assert {s: sorted(h) for s, h in hands.items()} == dealt
    assert dealt_positions(["E", "S", "W", "N"], "W")["W"] == [0, 1, 2, 3, 16, 17, 18, 19]
    assert dealt_positions(["E", "S", "W", "N"], "W")["N"] == [4, 5, 6, 7, 20, 21, 22, 23]


def test_tampering_is_caught() -> None:
    key, game, hands = _game(1)
    commitment = tiles_commitment(key, game.deck)
    package = seat_openings(game, commitment, "E")
    root, leaves, openings = package["root"], package["leaves"], package["openings"]
    shown = _shown(game, "E", hands["E"])
    first = openings[0]
    other = "6-6" if first["tile"] != "6-6" else "1-1"
    lied = [{**first, "tile": other}, *openings[1:]]
    assert any("does not match" in p for p in verify_openings(root, leaves, lied))
    assert any(
        "was shown as" in p
        for p in verify_openings(root, leaves, openings, {**shown, first["position"]: other})
    )
    assert any("not opened" in p for p in verify_openings(root, leaves, openings[1:], shown))
    assert any("twice" in p for p in verify_openings(root, leaves, [*openings, first]))
    bad_leaves = [leaves[1], leaves[0], *leaves[2:]]
    assert any("root" in p for p in verify_openings(root, bad_leaves, openings))
    wrong_salt = [{**first, "salt": "00" * 32}, *openings[1:]]
    assert any("does not match" in p for p in verify_openings(root, leaves, wrong_salt))
    assert verify_openings(root, leaves, [{"position": 40, "tile": "6-6", "salt": "00"}]) != []
    assert verify_openings(root, leaves[:5], openings) != []


def test_the_commitment_binds_the_deal_and_the_key() -> None:
    key, game, _ = _game(2)
    a = tiles_commitment(key, game.deck)
    swapped = list(game.deck)
    i = next(k for k in range(1, 32) if swapped[k] != swapped[0])
    swapped[0], swapped[i] = swapped[i], swapped[0]
    assert tiles_commitment(key, swapped).root != a.root
    assert tiles_commitment(unit_key(key, {"E": "x"}), game.deck).root != a.root
    assert tiles_commitment(key, game.deck) == a
