"""Shared helpers for the Tien Gow tests: rounds with chosen hands, scripted play."""

from __future__ import annotations

from collections import Counter

from qipai.core.protocol import Seat
from qipai.core.tiles import Tile, full_set, parse_tiles
from qipai.games.tiengow.config import TienGowConfig
from qipai.games.tiengow.round import TienGowRound

# Stacks that no game can exhaust: the cap (docs/rules/tiengow.md) changes nothing.
RICH = 10**9

SEATS = ["E", "S", "W", "N"]


def deck_for(hands: dict[str, str], banker: str = "E") -> list[Tile]:
    """A dealt-order deck giving each seat these 8 tiles (4 at a time from the banker, ccw)."""
    start = SEATS.index(banker)
    order = SEATS[start:] + SEATS[:start]
    parsed = {s: parse_tiles(h) for s, h in hands.items()}
    assert all(len(h) == 8 for h in parsed.values())
    assert Counter(t for h in parsed.values() for t in h) == Counter(full_set())
    deck: list[Tile] = []
    for batch in range(8):
        seat = order[batch % 4]
        half = batch // 4
        deck += parsed[seat][4 * half : 4 * half + 4]
    return deck


def make_round(
    hands: dict[str, str],
    banker: str = "E",
    streak: int = 1,
    config: TienGowConfig | None = None,
) -> TienGowRound:
    deck = deck_for(hands, banker)
    return TienGowRound(
        config or TienGowConfig(), [Seat(s, RICH) for s in SEATS], deck, banker, streak
    )


def ids(round_: TienGowRound, seat: str, tiles: str) -> list[int]:
    """Ids in `seat`'s hand of these tiles (pips or names), lowest id first for repeats."""
    out: list[int] = []
    for tile in parse_tiles(tiles):
        out.append(min(i for i in round_.hands[seat] if round_.deck[i] == tile and i not in out))
    return out


def play(round_: TienGowRound, seat: str, tiles: str) -> None:
    round_.act(seat, {"type": "play", "tiles": ids(round_, seat, tiles)})


def discard(round_: TienGowRound, seat: str, tiles: str) -> None:
    round_.act(seat, {"type": "discard", "tiles": ids(round_, seat, tiles)})
