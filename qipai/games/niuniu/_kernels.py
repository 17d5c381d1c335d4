"""numba kernels behind `hands.all_hand_keys` and `hands.keys_of` (kept apart so that importing
the hands module, the advisor or the CLI does not load numba).

Keys as in `hands`: `type * 64 + card code`; the type comes from the rank table
(`hands.rank_type_table`), indexed by Σ (rank_i − 1)·13^(4−i) in any card order.
"""

from __future__ import annotations

from typing import Any

from numba import njit

DECK = 52


def _key_of_ids_py(
    i0: int, i1: int, i2: int, i3: int, i4: int, rank: Any, code: Any, table: Any
) -> int:
    r0, r1, r2, r3, r4 = rank[i0], rank[i1], rank[i2], rank[i3], rank[i4]
    kind = table[(((((r0 - 1) * 13 + r1 - 1) * 13 + r2 - 1) * 13 + r3 - 1) * 13) + r4 - 1]
    if kind == 13:  # bomb: the four's rank; two of the first three cards belong to the four
        four = r0 if (r0 == r1 or r0 == r2) else r1  # noqa: SIM109 (plain ints for numba)
        return int(kind * 64 + four * 4 + 3)
    top = max(code[i0], code[i1], code[i2], code[i3], code[i4])
    return int(kind * 64 + top)


key_of_ids: Any = njit(cache=True)(_key_of_ids_py)


def _all_keys_py(out: Any, rank: Any, code: Any, table: Any) -> None:
    # Colex order: index = C(a,1) + C(b,2) + C(c,3) + C(d,4) + C(e,5) for a < b < c < d < e.
    n = 0
    for e in range(DECK):
        for d in range(e):
            for c in range(d):
                for b in range(c):
                    for a in range(b):
                        out[n] = key_of_ids(a, b, c, d, e, rank, code, table)
                        n += 1


all_keys: Any = njit(cache=True)(_all_keys_py)


def _keys_of_py(ids: Any, out: Any, rank: Any, code: Any, table: Any) -> None:
    for n in range(ids.shape[0]):
        out[n] = key_of_ids(
            ids[n, 0], ids[n, 1], ids[n, 2], ids[n, 3], ids[n, 4], rank, code, table
        )


keys_of: Any = njit(cache=True)(_keys_of_py)
