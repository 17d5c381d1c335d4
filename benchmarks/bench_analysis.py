"""Time every exact computation of `qipai.analysis` and the simulator's throughput.

    uv run python benchmarks/bench_analysis.py            # Hold'em: timings of the cached run
    uv run python benchmarks/bench_analysis.py --holdem   # recompute Hold'em (minutes)

Goals on a 2-core machine (docs/rtp.md): Pok Deng all bets < 1 s; Niu Niu type distribution < 1 s;
Hold'em Bonus optimal-strategy return < 10 minutes; simulation ≥ 20,000 Pok Deng rounds per
second per core. Wall time and CPU time are both printed: on a shared machine wall time is noisy.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any


def timed(label: str, goal: str, fn: Callable[[], Any]) -> Any:
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{label:<58} {wall:9.3f} s wall {cpu:9.3f} s CPU   goal {goal}")
    return out


def main() -> None:
    from qipai.analysis.simulate import simulate_game
    from qipai.games.niuniu import analysis as niuniu
    from qipai.games.paigow import analysis as paigow
    from qipai.games.pokdeng import analysis as pokdeng

    # Warm-up: imports, numba caches and the games' own tables, so the figures are the math.
    pokdeng.analyse("classic")
    niuniu.type_counts()
    niuniu.joint_types()
    niuniu.swap_counts()
    paigow.player_figures("any-seven", "banker", __import__("fractions").Fraction(1, 20))
    simulate_game("pokdeng", 50, 1, "classic")
    print("exact computation (caches cleared before each)")

    def pok() -> None:
        pokdeng.hand_classes.cache_clear()
        pokdeng.analyse("classic")
        pokdeng.analyse("banker-player")

    timed("Pok Deng: every bet, both modes, 8-deck shoe", "< 1 s", pok)

    def types() -> None:
        niuniu.multiset_types.cache_clear()
        niuniu.type_counts()

    timed("Niu Niu: hand-type distribution of 5 random cards", "< 1 s", types)

    def joint() -> None:
        niuniu.joint_types.cache_clear()
        niuniu.player_ev_no_swap()

    timed("Niu Niu: banker v player joint types, exact EV", "-", joint)

    def swap() -> None:
        niuniu.swap_counts.cache_clear()
        niuniu.optimal_swap()

    timed("Niu Niu: optimal swap policy + exact distribution", "-", swap)

    def pai() -> None:
        paigow.hands_table.cache_clear()
        paigow.outcome_matrix.cache_clear()
        from fractions import Fraction

        for high_nine in ("any-seven", "named"):
            for policy in ("banker", "push"):
                paigow.player_figures(high_nine, policy, Fraction(1, 20))

    timed("Pai Gow: player v banker, 2 tie policies × 2 high_nine", "-", pai)

    from qipai.games.holdem_bonus.strategy_exact import cache_path, compute_sums

    if "--holdem" in sys.argv:
        sums = timed(
            "Hold'em Bonus: optimal strategy and return, all deals", "< 600 s", compute_sums
        )
        timings = sums.timings
    elif cache_path().exists():
        from qipai.games.holdem_bonus.strategy_exact import load_or_compute

        timings = load_or_compute().timings
        print("Hold'em Bonus: timings recorded by the last exact run (--holdem to rerun):")
    else:
        timings = {}
        print("Hold'em Bonus: not computed here (run with --holdem; takes minutes)")
    for key, value in timings.items():
        print(f"  {key:<56} {value:9.1f} s wall")

    print("simulation through the real round engines")
    for game, mode, rounds in (
        ("pokdeng", "classic", 20000),
        ("pokdeng", "banker-player", 10000),
        ("paigow", "banker", 2000),
        ("niuniu", "no-swap", 2000),
    ):
        result = simulate_game(game, rounds, 1, mode)
        print(
            f"{game + ' ' + mode:<30} {rounds:>7,} rounds {result.rounds_per_cpu_second:10,.0f} "
            f"rounds per CPU second ({result.rounds_per_second:,.0f}/s wall)"
            + ("   goal ≥ 20,000" if game == "pokdeng" else "")
        )


if __name__ == "__main__":
    main()
