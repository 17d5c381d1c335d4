"""Swap Niu Niu speed: classify all 2,598,960 hands (goal < 1 s) and the swap advisor's worst
case over 1,000 random four-card hands (goal < 0.2 s).

    uv run python benchmarks/bench_niuniu.py [--hands 1000] [--repeat 5]

Timed figures are the best of `--repeat` runs (least disturbed by other processes), except the
advisor's, which reports the worst single answer over all hands (after one warm-up call) beside
the median and mean. The first classification in a fresh process also loads numba and its
on-disk compiled kernels; that cold figure is printed separately.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from qipai.core.cards import standard_deck
from qipai.core.rng import Rng
from qipai.games.niuniu.advisor import advise
from qipai.games.niuniu.hands import (
    ALL_HANDS,
    build_all_hand_keys,
    evaluate,
    keys_of,
    rank_type_table,
    type_counts,
)


def best_of(repeat: int, fn: object) -> float:
    assert callable(fn)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="random hands for the advisor")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per figure")
    args = parser.parse_args()

    start = time.perf_counter()
    rank_type_table()
    table_s = time.perf_counter() - start
    start = time.perf_counter()
    build_all_hand_keys()
    cold = time.perf_counter() - start
    warm = best_of(args.repeat, build_all_hand_keys)
    print(f"rank-type table (13^5 = 371,293 entries, numpy): {table_s * 1000:.1f} ms")
    print(f"classify all {ALL_HANDS:,} hands, first call (loads numba kernels): {cold:.3f} s")
    print(
        f"classify all {ALL_HANDS:,} hands, best of {args.repeat}: {warm * 1000:.1f} ms "
        f"({ALL_HANDS / warm / 1e6:.0f} M hands/s)  goal < 1 s: {'met' if warm < 1 else 'MISSED'}"
    )

    gen = np.random.default_rng(1)
    batch = np.ascontiguousarray(np.argsort(gen.random((1_000_000, 52)), axis=1)[:, :5])
    keys_of(batch[:10])
    batched = best_of(args.repeat, lambda: keys_of(batch))
    print(f"keys_of, 1,000,000 random hands in one call: {batched * 1000:.1f} ms")
    sample = [[standard_deck()[i] for i in row] for row in batch[:20_000]]
    start = time.perf_counter()
    for cards in sample:
        evaluate(cards)
    readable = time.perf_counter() - start
    print(
        f"readable evaluate() (pure Python, with bull cards): {len(sample) / readable:,.0f} hands/s"
    )
    print("type counts:", {t.zh: n for t, n in type_counts().items()})

    rng = Rng(b"bench-niuniu-advisor-seed-000001")
    deck = standard_deck()
    advise(deck[:4])  # warm-up (builds the multiset tables)
    times: list[float] = []
    worst_hand = ""
    for _ in range(args.hands):
        cards = list(deck)
        rng.shuffle(cards)
        hand = cards[:4]
        start = time.perf_counter()
        advise(hand)
        took = time.perf_counter() - start
        if not times or took > max(times):
            worst_hand = " ".join(c.pretty for c in hand)
        times.append(took)
    worst = max(times)
    print(
        f"advisor over {args.hands} random hands (16 choices, exact): worst {worst * 1000:.1f} ms "
        f"({worst_hand}), median {statistics.median(times) * 1000:.1f} ms, "
        f"mean {statistics.fmean(times) * 1000:.1f} ms  goal < 200 ms: "
        f"{'met' if worst < 0.2 else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
