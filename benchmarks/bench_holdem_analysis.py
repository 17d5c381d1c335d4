"""Time the Hold'em Bonus exact analysis: full optimal-strategy return, side bets, strategy lookups.

Run: `uv run python benchmarks/bench_holdem_analysis.py [--skip-full]`. The full enumeration is
recomputed here (the cache is bypassed); goal < 10 minutes on a 2-core machine. Wall and CPU
(all threads) times are printed, with the load average, since other work on a shared machine
slows it down.
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
    from qipai.analysis import holdem_bonus as hb
    from qipai.analysis import holdem_optimal as ho
    from qipai.analysis import strategy
    from qipai.poker.tables import tables

    print(f"load average at start: {os.getloadavg()}  cpus: {os.cpu_count()}")
    tables()
    # compile (or load from numba's cache) on a small deck first, so the timing below is the work
    small = tuple(r * 4 + s for r in range(10, 13) for s in range(4))
    timed("compile/warm-up (12-card deck)", lambda: ho.solve(small))
    timed("canonical flops (1,755 classes)", lambda: ho.canonical_flops(ho.FULL_DECK))
    if "--skip-full" not in sys.argv:
        sol = timed("FULL exact enumeration (all deals, both rules' counts)", ho.solve)
        for rule in ho.RULES:

            def decide(r: str = rule) -> ho.Play:
                return ho.evaluate(sol, r)

            play = timed(f"  decisions + outcome counts, {rule} rule", decide)
            fig = hb.main_figures(play, rule)
            print(
                f"  {rule}: house edge {float(fig.house_edge) * 100:.6f} % per ante, sd {fig.sd:.6f}"
            )
    timed(
        "bonus bet, both pay tables (exact)",
        lambda: [hb.bonus_figures.__wrapped__(t) for t in ("source", "with-small-pairs")],
    )
    timed("pool: 5-card category counts (2,598,960 hands)", hb.five_card_counts.__wrapped__)
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
