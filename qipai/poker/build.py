"""Build the evaluator's lookup tables (numba; run once, then cached on disk by `tables.py`).

Each rank multiset's best hand is scored as `category * 13**5 + ranks in base 13`, and scores are
turned into the compact strength `category << 12 | index` by their position among the 7,462
five-card classes. About 0.1 s once compiled.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from qipai.poker.categories import CATEGORY_SHIFT
from qipai.poker.tables import BASE5, BASE6, BASE7, RANK_KEYS

_RANK_KEYS = np.array(RANK_KEYS, dtype=np.int64)
_POW = 13**5  # category weight of a raw score
_WHEEL = (1 << 12) | 0b1111  # A-2-3-4-5

# Raw-score categories (same numbering as `Category`).
_HIGH, _PAIR, _TWO_PAIR, _TRIPS, _STRAIGHT, _FLUSH, _FULL, _QUADS, _SF, _ROYAL = range(10)


@njit(cache=True)
def straight_top(mask: int) -> int:
    """Index (0 = deuce) of the top card of the best straight in a rank mask, or -1."""
    for top in range(12, 3, -1):
        run = 0b11111 << (top - 4)
        if mask & run == run:
            return top
    if mask & _WHEEL == _WHEEL:
        return 3  # the five tops the wheel
    return -1


@njit(cache=True)
def _digits(score: int, ranks: Any, n: int) -> int:
    """Append up to n ranks as base-13 digits, padding to five digits."""
    for i in range(5):
        score = score * 13 + (ranks[i] if i < n else 0)
    return score


@njit(cache=True)
def raw_flush(mask: int) -> int:
    """Raw score of the best hand from ranks all of one suit (at least five of them)."""
    top = straight_top(mask)
    if top == 12:
        return _ROYAL * _POW
    if top >= 0:
        return _SF * _POW + top
    ranks = np.zeros(5, dtype=np.int64)
    n = 0
    for r in range(12, -1, -1):
        if (mask >> r) & 1 and n < 5:
            ranks[n] = r
            n += 1
    return _digits(_FLUSH, ranks, 5)


@njit(cache=True)
def raw_plain(counts: Any) -> int:
    """Raw score of the best hand without a flush, from rank counts (index 0 = deuce)."""
    quad = -1
    trips = np.full(2, -1, dtype=np.int64)
    pairs = np.full(3, -1, dtype=np.int64)
    nt = 0
    np_ = 0
    mask = 0
    for r in range(12, -1, -1):
        c = counts[r]
        if c > 0:
            mask |= 1 << r
        if c == 4:
            quad = r
        elif c == 3:
            trips[nt] = r
            nt += 1
        elif c == 2:
            pairs[np_] = r
            np_ += 1
    ranks = np.zeros(5, dtype=np.int64)
    if quad >= 0:
        ranks[0] = quad
        ranks[1] = _top_excluding(mask, quad, -1)
        return _digits(_QUADS, ranks, 2)
    if nt >= 1 and (nt >= 2 or np_ >= 1):
        ranks[0] = trips[0]
        ranks[1] = max(trips[1], pairs[0])
        return _digits(_FULL, ranks, 2)
    top = straight_top(mask)
    if top >= 0:
        return _STRAIGHT * _POW + top
    if nt == 1:
        ranks[0] = trips[0]
        m = mask & ~(1 << trips[0])
        return _digits(_TRIPS, _fill_top(ranks, 1, m, 2), 3)
    if np_ >= 2:
        ranks[0] = pairs[0]
        ranks[1] = pairs[1]
        m = mask & ~(1 << pairs[0]) & ~(1 << pairs[1])
        return _digits(_TWO_PAIR, _fill_top(ranks, 2, m, 1), 3)
    if np_ == 1:
        ranks[0] = pairs[0]
        m = mask & ~(1 << pairs[0])
        return _digits(_PAIR, _fill_top(ranks, 1, m, 3), 4)
    return _digits(_HIGH, _fill_top(ranks, 0, mask, 5), 5)


@njit(cache=True)
def _top_excluding(mask: int, a: int, b: int) -> int:
    for r in range(12, -1, -1):
        if (mask >> r) & 1 and r != a and r != b:
            return r
    return -1


@njit(cache=True)
def _fill_top(ranks: Any, start: int, mask: int, k: int) -> Any:
    """Write the k highest ranks of `mask` into ranks[start:start+k]."""
    n = 0
    for r in range(12, -1, -1):
        if n < k and (mask >> r) & 1:
            ranks[start + n] = r
            n += 1
    return ranks


@njit(cache=True)
def _class_scores() -> Any:
    """Sorted raw scores of the 7,462 five-card classes."""
    scores = np.empty(6175 + 1287, dtype=np.int64)
    n = 0
    counts = np.zeros(13, dtype=np.int64)
    idx = np.zeros(5, dtype=np.int64)
    while True:
        counts[:] = 0
        ok = True
        for i in range(5):
            counts[idx[i]] += 1
            if counts[idx[i]] > 4:
                ok = False
        if ok:
            scores[n] = raw_plain(counts)
            n += 1
        if not _next_multiset(idx, 13):
            break
    for mask in range(1 << 13):
        if _popcount(mask) == 5:
            scores[n] = raw_flush(mask)
            n += 1
    return np.unique(scores[:n])


@njit(cache=True)
def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _next_multiset(idx: Any, m: int) -> bool:
    """Advance a non-decreasing index tuple over 0..m-1 (combinations with replacement)."""
    k = idx.shape[0]
    i = k - 1
    while i >= 0 and idx[i] == m - 1:
        i -= 1
    if i < 0:
        return False
    v = idx[i] + 1
    for j in range(i, k):
        idx[j] = v
    return True


@njit(cache=True)
def _strength(score: int, classes: Any, cat_start: Any) -> int:
    cat = score // _POW
    pos = int(np.searchsorted(classes, score))
    return (cat << CATEGORY_SHIFT) | (pos - int(cat_start[cat]))


@njit(cache=True)
def build(noflush: Any, flush: Any) -> None:
    """Fill zeroed `noflush` (NOFLUSH_LEN) and `flush` (8,192) uint16 tables."""
    classes = _class_scores()
    cat_start = np.zeros(11, dtype=np.int64)
    for cat in range(11):
        cat_start[cat] = np.searchsorted(classes, cat * _POW)
    for mask in range(1 << 13):
        if _popcount(mask) >= 5:
            flush[mask] = _strength(raw_flush(mask), classes, cat_start)
    counts = np.zeros(13, dtype=np.int64)
    for n in range(5, 8):
        base = BASE7 if n == 7 else (BASE6 if n == 6 else BASE5)
        idx = np.zeros(n, dtype=np.int64)
        while True:
            counts[:] = 0
            ok = True
            key = 0
            for i in range(n):
                counts[idx[i]] += 1
                key += _RANK_KEYS[idx[i]]
                if counts[idx[i]] > 4:
                    ok = False
            if ok:
                noflush[base + key] = _strength(raw_plain(counts), classes, cat_start)
            if not _next_multiset(idx, 13):
                break


@njit(cache=True)
def plain_keys(n: int) -> Any:
    """Rank-key sums of every n-card rank multiset (no rank more than four times), sorted."""
    out = np.empty(50_000, dtype=np.int64)
    m = 0
    idx = np.zeros(n, dtype=np.int64)
    counts = np.zeros(13, dtype=np.int64)
    while True:
        counts[:] = 0
        ok = True
        key = 0
        for i in range(n):
            counts[idx[i]] += 1
            key += _RANK_KEYS[idx[i]]
            if counts[idx[i]] > 4:
                ok = False
        if ok:
            out[m] = key
            m += 1
        if not _next_multiset(idx, 13):
            break
    return np.sort(out[:m])


@njit(cache=True)
def first_fit(cols: Any, starts: Any, row_order: Any, offsets: Any, width: int) -> int:
    """Row displacement: place each row's columns (densest row first) at the lowest base where
    all are free; `offsets[row] = base - row * width`. Returns the packed length."""
    taken = np.zeros(4 * cols.shape[0] + 2 * width, dtype=np.bool_)
    length = 0
    first_free = 0
    for row in row_order:
        lo, hi = starts[row], starts[row + 1]
        if lo == hi:
            continue
        # Every slot below first_free is taken, so the row's first column must land at or above.
        base = max(0, first_free - cols[lo])
        while True:
            ok = True
            for i in range(lo, hi):
                if taken[base + cols[i]]:
                    ok = False
                    break
            if ok:
                break
            base += 1
        for i in range(lo, hi):
            taken[base + cols[i]] = True
            length = max(length, base + cols[i] + 1)
        while taken[first_free]:
            first_free += 1
        offsets[row] = base - row * width
    return length
