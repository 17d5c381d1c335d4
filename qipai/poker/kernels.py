"""The evaluator's compiled core (numba): call it from your own numba kernels.

Cards are ids 0..51 (`Card.id` = (rank - 2) * 4 + suit). Every function takes the tables as
plain numpy arrays, so a kernel of yours passes them through:

    from qipai.poker.kernels import strength7
    from qipai.poker.tables import tables

    @numba.njit(cache=True)
    def kernel(hands, noflush, flush, card_keys):
        total = 0
        for i in range(hands.shape[0]):
            h = hands[i]
            total += strength7(h[0], h[1], h[2], h[3], h[4], h[5], h[6],
                               noflush, flush, card_keys)
        return total

    t = tables()
    kernel(hands, t.noflush, t.flush, t.card_keys)

`strength5`/`strength6`/`strength7` take the cards as separate ints (inlined into the caller);
`strength_n(cards, ...)` a 1-D array of 5..7 cards. To enumerate incrementally, sum
`card_keys[c]` down your loops and finish with `strength_from_key(key, n, cards, noflush,
flush)`, where `cards` (any indexable of the n ids) is read only when the hand holds a flush;
`_counts7` shows the pattern. The result is the strength of `categories.py`: `s >> 12` is the
category.

Faster: the `compact*` functions do the same over the compact table (about 240 kB, it stays in
the L2 cache; the dense 7-card table is 15.6 MB): `compact7(c0, …, c6, t.compact, t.offsets,
t.flush, t.card_keys)`, `compact_from_key(key, n, cards, compact, offsets, flush)` and so on.
`evaluate_batch` and `category_counts` use them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from qipai.poker.categories import CATEGORY_SHIFT
from qipai.poker.tables import (
    BASE5,
    BASE6,
    BASE7,
    FLUSH_BITS,
    RANK_MASK,
    ROW_SHIFT,
    ROWBASE5,
    ROWBASE6,
    ROWBASE7,
    SUIT_SHIFT,
)

__all__ = [
    "compact5",
    "compact6",
    "compact7",
    "compact_from_key",
    "compact_n",
    "strength5",
    "strength6",
    "strength7",
    "strength_from_key",
    "strength_n",
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


# ----- the compact table (faster: it stays in L2) ---------------------------------------------


@njit(cache=True, inline="always")
def compact_from_key(key: int, n: int, cards: Any, compact: Any, offsets: Any, flush: Any) -> int:
    """`strength_from_key` over the compact table."""
    suits = ((key >> SUIT_SHIFT) + 0x3333) & FLUSH_BITS
    if suits != 0:
        return int(flush[_flush_mask(cards, n, suits)])
    rank_key = key & RANK_MASK
    rowbase = ROWBASE7 if n == 7 else (ROWBASE6 if n == 6 else ROWBASE5)
    return int(compact[rank_key + offsets[rowbase + (rank_key >> ROW_SHIFT)]])


@njit(cache=True)
def compact_n(cards: Any, compact: Any, offsets: Any, flush: Any, card_keys: Any) -> int:
    """`strength_n` over the compact table."""
    n = cards.shape[0]
    key = 0
    for i in range(n):
        key += card_keys[cards[i]]
    return compact_from_key(key, n, cards, compact, offsets, flush)


@njit(cache=True, inline="always")
def compact7(
    c0: int,
    c1: int,
    c2: int,
    c3: int,
    c4: int,
    c5: int,
    c6: int,
    compact: Any,
    offsets: Any,
    flush: Any,
    card_keys: Any,
) -> int:
    """`strength7` over the compact table."""
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
    rank_key = key & RANK_MASK
    return int(compact[rank_key + offsets[ROWBASE7 + (rank_key >> ROW_SHIFT)]])


@njit(cache=True, inline="always")
def compact6(
    c0: int,
    c1: int,
    c2: int,
    c3: int,
    c4: int,
    c5: int,
    compact: Any,
    offsets: Any,
    flush: Any,
    card_keys: Any,
) -> int:
    """`strength6` over the compact table."""
    key = (
        card_keys[c0]
        + card_keys[c1]
        + card_keys[c2]
        + card_keys[c3]
        + card_keys[c4]
        + card_keys[c5]
    )
    return compact_from_key(key, 6, (c0, c1, c2, c3, c4, c5), compact, offsets, flush)


@njit(cache=True, inline="always")
def compact5(
    c0: int,
    c1: int,
    c2: int,
    c3: int,
    c4: int,
    compact: Any,
    offsets: Any,
    flush: Any,
    card_keys: Any,
) -> int:
    """`strength5` over the compact table."""
    key = card_keys[c0] + card_keys[c1] + card_keys[c2] + card_keys[c3] + card_keys[c4]
    return compact_from_key(key, 5, (c0, c1, c2, c3, c4), compact, offsets, flush)


# ----- batches and exhaustive counts ------------------------------------------------------------


@njit(cache=True, nogil=True)
def _batch7_dense(hands: Any, out: Any, noflush: Any, flush: Any, card_keys: Any) -> None:
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
def _batch7(hands: Any, out: Any, compact: Any, offsets: Any, flush: Any, card_keys: Any) -> None:
    for i in range(hands.shape[0]):
        out[i] = compact7(
            hands[i, 0],
            hands[i, 1],
            hands[i, 2],
            hands[i, 3],
            hands[i, 4],
            hands[i, 5],
            hands[i, 6],
            compact,
            offsets,
            flush,
            card_keys,
        )


@njit(cache=True, nogil=True)
def _batch_n(hands: Any, out: Any, compact: Any, offsets: Any, flush: Any, card_keys: Any) -> None:
    for i in range(hands.shape[0]):
        out[i] = compact_n(hands[i], compact, offsets, flush, card_keys)


@njit(cache=True)
def _counts5(compact: Any, offsets: Any, flush: Any, card_keys: Any) -> Any:
    counts = np.zeros(10, dtype=np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for e in range(d + 1, 52):
                        s = compact5(a, b, c, d, e, compact, offsets, flush, card_keys)
                        counts[s >> CATEGORY_SHIFT] += 1
    return counts


@njit(cache=True)
def _counts6(compact: Any, offsets: Any, flush: Any, card_keys: Any) -> Any:
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
                            s = compact_n(cards, compact, offsets, flush, card_keys)
                            counts[s >> CATEGORY_SHIFT] += 1
    return counts


@njit(cache=True)
def _counts7(compact: Any, offsets: Any, flush: Any, card_keys: Any) -> Any:
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
                                s = compact_from_key(
                                    kf + card_keys[g], 7, cards, compact, offsets, flush
                                )
                                counts[s >> CATEGORY_SHIFT] += 1
    return counts
