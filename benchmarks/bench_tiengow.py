"""Tien Gow: the strong bot against three rule-of-thumb bots.

Plays `--games` games (default 2,000) through the real rules engine (`TienGowRound`, bots see only
`view(seat)`), in tables of `--table-games` consecutive games so that the bank and its streak
(连庄, multiplier 2, 3, …) carry over as at a real table; the first banker of each table is drawn
at random. Every seed is fixed (table t, game g → SHA-256 of "tiengow-bench/t/g"), so a run is
reproducible. The strong bot sits at E. Prints its mean result in base units per game with a 95 %
confidence interval (tables are independent; the interval is over table totals) and the mean
thinking time per decision of each bot.

    uv run python benchmarks/bench_tiengow.py                  # 2,000 games, 2 processes
    uv run python benchmarks/bench_tiengow.py --games 200      # a quick look
    uv run python benchmarks/bench_tiengow.py --control        # E is rule-of-thumb too: ~0
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import sys
import time
from multiprocessing import Pool
from typing import Any

from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.games.tiengow.bots import RuleOfThumbBot, StrongBot, play_game
from qipai.games.tiengow.config import TienGowConfig
from qipai.games.tiengow.round import TienGowRound

# Stacks that no game can exhaust: the cap (docs/rules/tiengow.md) changes nothing.
RICH = 10**9

SEATS = ("E", "S", "W", "N")
STRONG = "E"


def seed(*parts: object) -> bytes:
    return hashlib.sha256("/".join(str(p) for p in ("tiengow-bench", *parts)).encode()).digest()


def play_table(job: tuple[int, int, int, str]) -> dict[str, Any]:
    """Play one table of `games` games; return the strong seat's totals and timings."""
    table_index, games, rollouts, seat_bot = job
    config = TienGowConfig()
    seats = [Seat(s, RICH) for s in SEATS]
    bots: dict[str, Any] = {s: RuleOfThumbBot() for s in SEATS}
    bots[STRONG] = StrongBot(rollouts=rollouts) if seat_bot == "strong" else RuleOfThumbBot()
    context: dict[str, Any] | None = None
    timings: dict[str, list[tuple[float, float]]] = {}
    results: list[int] = []
    banks = wins = 0
    for g in range(games):
        round_ = TienGowRound.start(config, seats, Rng(seed(table_index, g)), context)
        play_game(round_, bots, Rng(seed(table_index, g, "bots")), timings)
        results.append(round_.result().net(STRONG) // config.base)
        banks += round_.banker == STRONG
        wins += round_.winner == STRONG
        context = dict(round_.next_round().context)
    others = [t for s in SEATS if s != STRONG for t in timings.get(s, [])]
    strong = timings.get(STRONG, [])
    return {
        "results": results,
        "strong_time": sum(w for w, _ in strong),
        "strong_cpu": sum(c for _, c in strong),
        "strong_decisions": len(strong),
        "other_time": sum(w for w, _ in others),
        "other_cpu": sum(c for _, c in others),
        "other_decisions": len(others),
        "banks": banks,
        "wins": wins,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--table-games", type=int, default=10)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--rollouts", type=int, default=160, help="strong bot budget per decision")
    parser.add_argument(
        "--control",
        action="store_true",
        help="negative control: a rule-of-thumb bot in E's seat too (the mean should be ~0)",
    )
    args = parser.parse_args(argv)
    tables = max(1, args.games // args.table_games)
    seat_bot = "rule-of-thumb" if args.control else "strong"
    jobs = [(t, args.table_games, args.rollouts, seat_bot) for t in range(tables)]
    start = time.perf_counter()
    out: list[dict[str, Any]] = []
    with Pool(args.processes) as pool:
        for k, res in enumerate(pool.imap(play_table, jobs), 1):
            out.append(res)
            if k % max(1, tables // 10) == 0:
                print(f"  {k}/{tables} tables", file=sys.stderr, flush=True)
    wall = time.perf_counter() - start
    games = sum(len(r["results"]) for r in out)
    totals = [sum(r["results"]) for r in out]
    per_game = [x for r in out for x in r["results"]]
    mean = sum(per_game) / games
    # 95 % CI over independent tables (games within a table share the bank), per game.
    t_mean = sum(totals) / tables
    var = sum((x - t_mean) ** 2 for x in totals) / (tables - 1) if tables > 1 else float("nan")
    half = 1.96 * math.sqrt(var / tables) / args.table_games
    sd = math.sqrt(sum((x - mean) ** 2 for x in per_game) / max(1, games - 1))
    strong_dec = sum(r["strong_decisions"] for r in out)
    other_dec = sum(r["other_decisions"] for r in out)
    who = (
        "rule-of-thumb bot (control)" if args.control else f"strong bot ({args.rollouts} rollouts)"
    )
    print(f"Tien Gow benchmark: E = {who} vs 3 rule-of-thumb bots")
    print(f"  games played          {games} ({tables} tables x {args.table_games}, fixed seeds)")
    print(
        f"  mean result           {mean:+.3f} base units/game  95% CI [{mean - half:+.3f}, {mean + half:+.3f}]"
    )
    print(f"  per-game s.d.         {sd:.2f} units")
    print(f"  games won (结)        {sum(r['wins'] for r in out) / games:.1%} (fair share 25%)")
    print(f"  games as banker       {sum(r['banks'] for r in out) / games:.1%}")

    def per(key: str, n: int) -> float:
        return 1000 * sum(r[key] for r in out) / max(1, n)

    print(
        f"  E bot thinking        {per('strong_time', strong_dec):.1f} ms/decision wall, "
        f"{per('strong_cpu', strong_dec):.1f} ms CPU ({strong_dec} decisions)"
    )
    print(
        f"  rule-of-thumb bots    {per('other_time', other_dec):.2f} ms/decision wall, "
        f"{per('other_cpu', other_dec):.2f} ms CPU"
    )
    print(
        f"  wall time             {wall:.0f} s on {args.processes} processes (machine shared: noisy)"
    )
    print(f"  cpu count             {os.cpu_count()}")


if __name__ == "__main__":
    main()
