"""The poker hand evaluator's Python API: 5, 6 or 7 cards to one strength (higher is better).

A strength is `category << 12 | index` (see `categories.py`): `strength >> 12` is the
`Category`, and two hands tie exactly when their strengths are equal.

`evaluate(cards)` for one hand (plain Python over the lookup tables: no numba is imported, so a
game that only settles hands starts fast); `evaluate_batch(hands)` for an (N, 5|6|7) integer
array (one compiled loop); `category_counts(n)` enumerates every n-card hand; `best_five(cards)`
picks the five shown. The compiled core for other numba code is in `kernels.py`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from qipai.core.cards import Card
from qipai.core.errors import InvalidInput
from qipai.poker.categories import Category
from qipai.poker.tables import (
    BASE5,
    BASE6,
    BASE7,
    FLUSH_BITS,
    RANK_MASK,
    SUIT_SHIFT,
    Tables,
    card_keys,
    tables,
)

_CARD_KEYS: tuple[int, ...] = tuple(int(k) for k in card_keys())

__all__ = [
    "best_five",
    "category_counts",
    "evaluate",
    "evaluate_batch",
    "hand_classes",
    "tables",
]


@cache
def hand_classes() -> npt.NDArray[np.uint16]:
    """All 7,462 distinct strengths, weakest first (a strength's position here is its ordinal)."""
    t = tables()
    # Every class is some hand's best five: the flush table's and the compact table's entries
    # (whose unused slots hold 0, itself the weakest class, 7-5-4-3-2) are all of them.
    found = np.union1d(t.flush[t.flush > 0], t.compact).astype(np.uint16)
    found.setflags(write=False)
    return found


def category_counts(n: int) -> dict[Category, int]:
    """How many of all the n-card hands (n = 5, 6 or 7) fall in each category (exhaustive)."""
    from qipai.poker.kernels import _counts5, _counts6, _counts7

    t = tables()
    kernels = {5: _counts5, 6: _counts6, 7: _counts7}
    if n not in kernels:
        raise InvalidInput(f"hands have 5, 6 or 7 cards, not {n}")
    counts = kernels[n](t.compact, t.offsets, t.flush, t.card_keys)
    return {cat: int(counts[cat]) for cat in Category}


def _card_id(card: object) -> int:
    if isinstance(card, Card):
        return card.id
    raise InvalidInput(f"not a card: {card!r}")


def _card_ids(cards: Iterable[Card | int]) -> list[int]:
    ids = [c if type(c) is int else _card_id(c) for c in cards]
    if not 5 <= len(ids) <= 7:
        raise InvalidInput(f"a poker hand has 5, 6 or 7 cards, not {len(ids)}")
    if min(ids) < 0 or max(ids) > 51:
        raise InvalidInput(f"card ids lie in 0..51: {ids}")
    if len(set(ids)) != len(ids):
        raise InvalidInput("a poker hand cannot hold the same card twice")
    return ids


def evaluate(cards: Iterable[Card | int]) -> int:
    """Strength of one hand of 5, 6 or 7 distinct cards (`Card`s or ids 0..51)."""
    ids = _card_ids(cards)
    t = tables()
    return _strength_py(ids, t)


def _strength_py(ids: Sequence[int], t: Tables) -> int:
    """The same lookup as the kernels, in plain Python (cheaper than a numba call for one hand)."""
    keys = _CARD_KEYS
    key = 0
    for c in ids:
        key += keys[c]
    suits = ((key >> SUIT_SHIFT) + 0x3333) & FLUSH_BITS
    if suits:
        suit = (suits.bit_length() - 4) // 4
        mask = 0
        for c in ids:
            if c & 3 == suit:
                mask |= 1 << (c >> 2)
        return int(t.flush.item(mask))
    n = len(ids)
    base = BASE7 if n == 7 else (BASE6 if n == 6 else BASE5)
    return int(t.noflush.item(base + (key & RANK_MASK)))


def evaluate_batch(hands: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Strengths of an (N, k) integer array of hands, k = 5, 6 or 7 (cards not re-validated
    beyond their range: the caller deals distinct cards)."""
    arr = np.ascontiguousarray(hands)
    if arr.ndim != 2 or not 5 <= arr.shape[1] <= 7:
        raise InvalidInput(f"expected an (N, 5|6|7) array of card ids, got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise InvalidInput(f"card ids must be integers, got dtype {arr.dtype}")
    if arr.size and (int(arr.max()) > 51 or (arr.dtype.kind == "i" and int(arr.min()) < 0)):
        raise InvalidInput("card ids must lie in 0..51")
    from qipai.poker.kernels import _batch7, _batch_n

    t = tables()
    out = np.empty(arr.shape[0], dtype=np.uint16)
    kernel = _batch7 if arr.shape[1] == 7 else _batch_n
    kernel(arr, out, t.compact, t.offsets, t.flush, t.card_keys)
    return out


def best_five(cards: Iterable[Card]) -> tuple[int, list[Card]]:
    """The strength and a best five of 5..7 cards, high cards first within the hand's shape."""
    hand = sorted(cards, key=lambda c: (c.rank, c.suit), reverse=True)
    _card_ids(hand)
    t = tables()
    best: tuple[int, list[Card]] | None = None
    for five in combinations(hand, 5):
        s = _strength_py([c.id for c in five], t)
        if best is None or s > best[0]:
            best = (s, list(five))
    assert best is not None
    return best[0], _arrange(best[1])


def _arrange(five: list[Card]) -> list[Card]:
    """Order five cards for display: bigger groups first, then higher rank (wheel ace last)."""
    counts = {r: sum(1 for c in five if c.rank == r) for r in {c.rank for c in five}}
    ordered = sorted(five, key=lambda c: (counts[c.rank], c.rank, c.suit), reverse=True)
    ranks = sorted({c.rank for c in five})
    if ranks == [2, 3, 4, 5, 14]:
        ordered = ordered[1:] + ordered[:1]
    return ordered
