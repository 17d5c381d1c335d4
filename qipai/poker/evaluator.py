"""The poker hand evaluator: 5, 6 or 7 cards to one strength integer (higher is better).

Cards are integers 0..51, `Card.id` = (rank - 2) * 4 + suit. A strength is
`category << 12 | index` (see `categories.py`): `strength >> 12` is the `Category`, and two hands
tie exactly when their strengths are equal.

Python API: `evaluate(cards)` for one hand, `evaluate_batch(hands)` for an (N, 5|6|7) integer
array (one numba loop, no Python per hand), `category_counts(n)` enumerates every n-card hand.

From your own numba code (e.g. an exact-analysis kernel), call the compiled core directly and
pass it the tables, which are ordinary numpy arrays:

    from qipai.poker.evaluator import strength7, tables
    t = tables()

    @numba.njit
    def kernel(..., noflush, flush, card_keys):
        s = strength7(c0, c1, c2, c3, c4, c5, c6, noflush, flush, card_keys)

    kernel(..., t.noflush, t.flush, t.card_keys)

`strength5`, `strength6`, `strength7` take the cards as separate ints; `strength_n(cards, ...)`
takes a 1-D array of 5..7 cards. For incremental enumeration, sum the card keys yourself
(`key = card_keys[a] + card_keys[b] + ...`) and finish with `strength_from_key(key, n, cards,
...)`; see `_counts7` below for the pattern.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from qipai.core.cards import Card
from qipai.core.errors import InvalidInput
from qipai.poker.categories import CATEGORY_SHIFT, Category
from qipai.poker.tables import (
    BASE5,
    BASE6,
    BASE7,
    FLUSH_BITS,
    RANK_MASK,
    SUIT_SHIFT,
    Tables,
    tables,
)

__all__ = [
    "best_five",
    "category_counts",
    "evaluate",
    "evaluate_batch",
    "hand_classes",
    "strength5",
    "strength6",
    "strength7",
    "strength_from_key",
    "strength_n",
    "tables",
]


@njit(cache=True, inline="always")
def _flush_mask(cards: Any, n: int, suit_bits: int) -> int:
    """Rank mask of the cards in the suit whose counter overflowed (`suit_bits` = 0x8 << 4*s)."""
    suit = 0
    while (suit_bits >> (4 * suit + 3)) & 1 == 0:
        suit += 1
    mask = 0
    for i in range(n):
        c = cards[i]
        if c & 3 == suit:
            mask |= 1 << (c >> 2)
    return mask


@njit(cache=True, inline="always")
def strength_from_key(
    key: int,
    n: int,
    cards: Any,
    noflush: Any,
    flush: Any,
) -> int:
    """Finish an n-card evaluation from the summed card keys (`cards` is only read on a flush)."""
    suits = ((key >> SUIT_SHIFT) + 0x3333) & FLUSH_BITS
    if suits != 0:
        return int(flush[_flush_mask(cards, n, suits)])
    base = BASE7 if n == 7 else (BASE6 if n == 6 else BASE5)
    return int(noflush[base + (key & RANK_MASK)])


@njit(cache=True)
def strength_n(cards: Any, noflush: Any, flush: Any, card_keys: Any) -> int:
    """Strength of a 1-D array of 5, 6 or 7 distinct card ids."""
    n = cards.shape[0]
    key = 0
    for i in range(n):
        key += card_keys[cards[i]]
    return strength_from_key(key, n, cards, noflush, flush)


@njit(cache=True, inline="always")
def strength7(
    c0: int,
    c1: int,
    c2: int,
    c3: int,
    c4: int,
    c5: int,
    c6: int,
    noflush: Any,
    flush: Any,
    card_keys: Any,
) -> int:
    """Strength of seven distinct card ids."""
    key = (
        card_keys[c0]
        + card_keys[c1]
        + card_keys[c2]
        + card_keys[c3]
        + card_keys[c4]
        + card_keys[c5]
        + card_keys[c6]
    )
    suits = ((key >> SUIT_SHIFT) + 0x3333) & FLUSH_BITS
    if suits != 0:
        return int(flush[_flush_mask((c0, c1, c2, c3, c4, c5, c6), 7, suits)])
    return int(noflush[BASE7 + (key & RANK_MASK)])


@njit(cache=True, inline="always")
def strength6(
    c0: int,
    c1: int,
    c2: int,
    c3: int,
    c4: int,
    c5: int,
    noflush: Any,
    flush: Any,
    card_keys: Any,
) -> int:
    """Strength of six distinct card ids."""
    key = (
        card_keys[c0]
        + card_keys[c1]
        + card_keys[c2]
        + card_keys[c3]
        + card_keys[c4]
        + card_keys[c5]
    )
    return strength_from_key(key, 6, (c0, c1, c2, c3, c4, c5), noflush, flush)


@njit(cache=True, inline="always")
def strength5(
    c0: int,
    c1: int,
    c2: int,
    c3: int,
    c4: int,
    noflush: Any,
    flush: Any,
    card_keys: Any,
) -> int:
    """Strength of five distinct card ids."""
    key = card_keys[c0] + card_keys[c1] + card_keys[c2] + card_keys[c3] + card_keys[c4]
    return strength_from_key(key, 5, (c0, c1, c2, c3, c4), noflush, flush)


@njit(cache=True, nogil=True)
def _batch7(hands: Any, out: Any, noflush: Any, flush: Any, card_keys: Any) -> None:
    for i in range(hands.shape[0]):
        out[i] = strength7(
            hands[i, 0],
            hands[i, 1],
            hands[i, 2],
            hands[i, 3],
            hands[i, 4],
            hands[i, 5],
            hands[i, 6],
            noflush,
            flush,
            card_keys,
        )


@njit(cache=True, nogil=True)
def _batch_n(hands: Any, out: Any, noflush: Any, flush: Any, card_keys: Any) -> None:
    for i in range(hands.shape[0]):
        out[i] = strength_n(hands[i], noflush, flush, card_keys)


@njit(cache=True)
def _counts5(noflush: Any, flush: Any, card_keys: Any) -> Any:
    counts = np.zeros(10, dtype=np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for e in range(d + 1, 52):
                        s = strength5(a, b, c, d, e, noflush, flush, card_keys)
                        counts[s >> CATEGORY_SHIFT] += 1
    return counts


@njit(cache=True)
def _counts6(noflush: Any, flush: Any, card_keys: Any) -> Any:
    counts = np.zeros(10, dtype=np.int64)
    cards = np.zeros(6, dtype=np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for e in range(d + 1, 52):
                        for f in range(e + 1, 52):
                            cards[0], cards[1], cards[2] = a, b, c
                            cards[3], cards[4], cards[5] = d, e, f
                            s = strength_n(cards, noflush, flush, card_keys)
                            counts[s >> CATEGORY_SHIFT] += 1
    return counts


@njit(cache=True)
def _counts7(noflush: Any, flush: Any, card_keys: Any) -> Any:
    """Every 7-card hand, summing card keys incrementally down the loops."""
    counts = np.zeros(10, dtype=np.int64)
    cards = np.zeros(7, dtype=np.int64)
    for a in range(52):
        ka = card_keys[a]
        cards[0] = a
        for b in range(a + 1, 52):
            kb = ka + card_keys[b]
            cards[1] = b
            for c in range(b + 1, 52):
                kc = kb + card_keys[c]
                cards[2] = c
                for d in range(c + 1, 52):
                    kd = kc + card_keys[d]
                    cards[3] = d
                    for e in range(d + 1, 52):
                        ke = kd + card_keys[e]
                        cards[4] = e
                        for f in range(e + 1, 52):
                            kf = ke + card_keys[f]
                            cards[5] = f
                            for g in range(f + 1, 52):
                                cards[6] = g
                                s = strength_from_key(kf + card_keys[g], 7, cards, noflush, flush)
                                counts[s >> CATEGORY_SHIFT] += 1
    return counts


def hand_classes() -> npt.NDArray[np.uint16]:
    """All 7,462 distinct strengths, weakest first (a strength's position here is its ordinal)."""
    t = tables()
    found = np.union1d(np.unique(t.flush[t.flush > 0]), np.unique(t.noflush))
    return found.astype(np.uint16)


def category_counts(n: int) -> dict[Category, int]:
    """How many of all the n-card hands (n = 5, 6 or 7) fall in each category (exhaustive)."""
    t = tables()
    kernels = {5: _counts5, 6: _counts6, 7: _counts7}
    if n not in kernels:
        raise InvalidInput(f"hands have 5, 6 or 7 cards, not {n}")
    counts = kernels[n](t.noflush, t.flush, t.card_keys)
    return {cat: int(counts[cat]) for cat in Category}


def _card_ids(cards: Iterable[Card | int]) -> list[int]:
    ids = []
    for card in cards:
        if isinstance(card, Card):
            ids.append(card.id)
        elif isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 52:
            ids.append(card)
        else:
            raise InvalidInput(f"not a card: {card!r}")
    if not 5 <= len(ids) <= 7:
        raise InvalidInput(f"a poker hand has 5, 6 or 7 cards, not {len(ids)}")
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
    key = 0
    for c in ids:
        key += int(t.card_keys[c])
    suits = ((key >> SUIT_SHIFT) + 0x3333) & FLUSH_BITS
    if suits:
        suit = (suits.bit_length() - 4) // 4
        mask = 0
        for c in ids:
            if c & 3 == suit:
                mask |= 1 << (c >> 2)
        return int(t.flush[mask])
    n = len(ids)
    base = BASE7 if n == 7 else (BASE6 if n == 6 else BASE5)
    return int(t.noflush[base + (key & RANK_MASK)])


def evaluate_batch(hands: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Strengths of an (N, k) integer array of hands, k = 5, 6 or 7 (cards not re-validated
    beyond their range: the caller deals distinct cards)."""
    arr = np.ascontiguousarray(hands)
    if arr.ndim != 2 or not 5 <= arr.shape[1] <= 7:
        raise InvalidInput(f"expected an (N, 5|6|7) array of card ids, got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise InvalidInput(f"card ids must be integers, got dtype {arr.dtype}")
    if arr.size and (int(arr.min()) < 0 or int(arr.max()) > 51):
        raise InvalidInput("card ids must lie in 0..51")
    t = tables()
    out = np.empty(arr.shape[0], dtype=np.uint16)
    kernel = _batch7 if arr.shape[1] == 7 else _batch_n
    kernel(arr, out, t.noflush, t.flush, t.card_keys)
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
