"""Time the Hold'em Bonus exact analysis: full optimal-strategy return, side bets, strategy lookups.

Run: `uv run python benchmarks/bench_holdem_analysis.py [--skip-full]`. The full enumeration
(`holdem_strategy_exact.compute_sums`: both rules, optimal and simple strategies) is recomputed
here, the cache neither read nor written; goal < 10 minutes on a 2-core machine. Wall and CPU
(all threads of this process) times are printed with the load average, since other work on a
shared machine slows the wall time down.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any


def timed(label: str, fn: Callable[[], Any]) -> Any:
    w0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    print(f"{label:<58} wall {wall:9.2f} s   cpu {cpu:9.2f} s")
    return out


def main() -> None:
    from qipai.games.holdem_bonus import analysis as hr
    from qipai.games.holdem_bonus import strategy
    from qipai.games.holdem_bonus import strategy_exact as hx
    from qipai.poker.tables import tables

    print(f"load average at start: {os.getloadavg()}  cpus: {os.cpu_count()}")
    t = timed("evaluator tables (load or build)", tables)

    def warm_up() -> None:
        """Compile (or load from numba's cache) the kernels on one class and one board."""
        import numpy as np

        from qipai.games.holdem_bonus import analysis_kernels as k

        perms, inverse = hx._perms()
        one = np.array([[48, 44]], np.int64)
        board = np.array([[0, 5, 10, 15, 20]], np.int64)
        acc = k.river_sums(board, perms, inverse, one, t.noflush, t.flush, t.card_keys, 1)
        k.flop_values(one, acc, np.array([0], np.int64))

    timed("compile/load kernels (one class, one board)", warm_up)
    if "--skip-full" not in sys.argv:
        sums = timed(
            "FULL exact enumeration (all deals, both rules, 4 strategies)", hx.compute_sums
        )
        for key, value in sums.timings.items():
            print(f"  {key:<56} wall {value:9.2f} s")
        for s, name in enumerate(hx.STRATEGIES):
            fig, _facts = hr.strategy_figures(sums, s)
            print(
                f"  {name:<22} house edge {float(fig.house_edge) * 100:.6f} % per ante, "
                f"sd {fig.sd:.6f}"
            )
    timed(
        "bonus bet, both pay tables (exact)",
        lambda: [hr.bonus_figures(t) for t in ("source", "with-small-pairs")],
    )
    timed("pool: 5-card category counts and figures", hr.pool_table)
    rng = random.Random(9)
    states = []
    for _ in range(20):
        cards = rng.sample(range(52), 6)
        states.append((cards[:2], cards[2:5], cards[2:6]))
    strategy.turn_decision(states[0][0], states[0][1])  # compile / load
    timed(
        "strategy: 20 turn decisions (on demand, exact)",
        lambda: [strategy.turn_decision(h, f) for h, f, _ in states],
    )
    timed(
        "strategy: 20 river decisions (on demand, exact)",
        lambda: [strategy.river_decision(h, b) for h, _, b in states],
    )
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
