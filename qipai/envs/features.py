"""Small encoders shared by the games' observation vectors: cards, tiles, seats, one-hots."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from qipai.core.cards import parse_card
from qipai.core.tiles import TILE_KINDS, parse_tile

CARDS = 52
TILE_TYPES = len(TILE_KINDS)  # 21: the civil and military tile kinds, highest single first
_KIND_INDEX = {tile: i for i, tile in enumerate(TILE_KINDS)}

Floats = npt.NDArray[np.float32]


def one_hot(index: int | None, size: int) -> Floats:
    """A vector of `size` zeros with a 1 at `index` (all zeros for None)."""
    out = np.zeros(size, np.float32)
    if index is not None:
        out[index] = 1.0
    return out


def cards_one_hot(cards: Iterable[str] | None) -> Floats:
    """52 flags, card id order (rank-major: 2c 2d 2h 2s 3c … As); None = no cards."""
    out = np.zeros(CARDS, np.float32)
    for text in cards or ():
        out[parse_card(text).id] = 1.0
    return out


@cache
def tile_index(pips: str) -> int:
    """The kind index (0..20, 天 first) of a tile given as pips ("6-6") or a name."""
    return _KIND_INDEX[parse_tile(pips)]


def tile_counts(tiles: Iterable[str] | None) -> Floats:
    """21 counts (0, 1 or 2) of tile kinds; tiles given as pips ("6-6")."""
    out = np.zeros(TILE_TYPES, np.float32)
    for pips in tiles or ():
        out[tile_index(pips)] += 1.0
    return out


def relative(seats: Sequence[str], me: str) -> list[str]:
    """The seats starting with `me`, then in the given (table) order."""
    i = list(seats).index(me)
    return [*seats[i:], *seats[:i]]


def ratio(value: float | None, scale: float) -> float:
    """value / scale, 0 for None or a zero scale."""
    if value is None or not scale:
        return 0.0
    return float(value) / float(scale)
