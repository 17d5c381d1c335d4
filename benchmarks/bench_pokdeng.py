"""Pok Deng round engine speed: rounds per second through start → bets → deal → settle.

Run: `uv run python benchmarks/bench_pokdeng.py [--rounds N]`. Each round goes through the real
protocol (`PokDengRound.start` with the shoe context, `act`, `expire`, `result`, `next_round`), a
new shoe (new seed) every time the cut card comes out. The engine is on the plain round protocol
and keeps nothing between rounds but the context, so every round shuffles its shoe again from the
seed (as a table restarting mid-shoe would): its figure is a table's, not a simulator's. The
goal of ≥ 20,000 rounds per CPU second is `qipai simulate pokdeng`'s (docs/rtp.md), which
plays the coverage bot's bets through the batch simulator `qipai.games.pokdeng.sim` (checked
against the engine round by round in qipai/games/pokdeng/tests/test_sim.py): the last lines time it.
Times are CPU time of this process (`time.process_time`), which is less disturbed than wall time
when other work shares the machine, but still noisy then (shared caches, SMT): the first line's
empty-loop time tells how slow the machine is right now. For figures that do not depend on the
load, count instructions: `valgrind --tool=callgrind .venv/bin/python …` at two round counts
(difference / rounds), with `PYTHONHASHSEED=0`: string hashes change dict probing, and with a
random seed per process the per-round count of the same code moves by a few per cent.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from qipai.bots.base import Bot
from qipai.core.cards import Shoe
from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.games.pokdeng import PokDengConfig, PokDengRound
from qipai.games.pokdeng.bots import RandomBot, SensibleBot

MASTER = bytes(range(32))


def _seed(k: int) -> bytes:
    return Rng(MASTER).fork(f"shoe/{k}").next_bytes(32)


def engine_rounds(mode: str, rounds: int, spots: list[str] | None = None) -> tuple[float, int]:
    """One player bets `spots` (default: every spot of the mode) in one `bets` action, a second
    player stays silent, the countdown expires; returns (rounds/s of CPU time, shoes used)."""
    config = PokDengConfig(mode=mode)  # type: ignore[arg-type]
    seats = [Seat("alice", 10**12), Seat("bob", 10**12)]
    action: dict[str, Any] = {
        "type": "bets",
        "bets": [{"spot": s, "amount": 100} for s in (spots or config.spots)],
    }
    shoes, seed = 1, _seed(0)
    context: dict[str, Any] = {}
    start = time.process_time()
    for _ in range(rounds):
        round_ = PokDengRound.start(config, seats, Rng(seed), context)
        round_.act("alice", action)
        round_.expire()
        round_.result()
        following = round_.next_round()
        context = dict(following.context)
        if not following.reuse_seed:
            seed = _seed(shoes)
            shoes += 1
    return rounds / (time.process_time() - start), shoes


def bot_rounds(rounds: int) -> float:
    """Three bots (two sensible, one random) choosing from view + legal actions each round."""
    config = PokDengConfig(mode="banker-player")
    seats = [Seat(f"bot{i}", 10**9) for i in range(3)]
    bots: list[Bot] = [SensibleBot(), SensibleBot(), RandomBot()]
    bot_rng = Rng(MASTER).fork("bots")
    shoes, seed = 1, _seed(0)
    context: dict[str, Any] = {}
    start = time.process_time()
    for _ in range(rounds):
        round_ = PokDengRound.start(config, seats, Rng(seed), context)
        for seat, bot in zip(seats, bots, strict=True):
            legal = round_.legal_actions(seat.id)
            if legal:
                round_.act(seat.id, bot.choose(round_.view(seat.id), legal, bot_rng))
        if not round_.finished:
            round_.expire()
        round_.result()
        following = round_.next_round()
        context = dict(following.context)
        if not following.reuse_seed:
            seed = _seed(shoes)
            shoes += 1
    return rounds / (time.process_time() - start)


def shoe_ms(count: int = 20) -> float:
    start = time.process_time()
    for k in range(count):
        Shoe(Rng(_seed(k)))
    return (time.process_time() - start) / count * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=50_000)
    args = parser.parse_args()
    start = time.process_time()
    for _ in range(1_000_000):
        pass
    loop_ms = (time.process_time() - start) * 1000
    print(f"machine check: an empty Python loop of 10^6 takes {loop_ms:.0f} ms of CPU")
    print(f"8-deck shoe shuffle (HMAC-SHA256 Fisher–Yates): {shoe_ms():.2f} ms per shoe")
    engine_n = max(1000, args.rounds // 10)
    for mode in ("classic", "banker-player"):
        for label, spots in (("all spots bet", None), ("one bet (P1)", ["P1"])):
            rate, shoes = engine_rounds(mode, engine_n, spots)
            print(
                f"round engine, {mode:13}, {label:13}: {rate:8,.0f} rounds/s "
                f"({engine_n:,} rounds, {shoes} shoes)"
            )
    n = max(1000, args.rounds // 10)
    print(f"round engine with 3 bots (view + legal + choose): {bot_rounds(n):10,.0f} rounds/s")
    from qipai.analysis.simulate import simulate_game

    for mode in ("classic", "banker-player"):
        result = simulate_game("pokdeng", args.rounds, 1, mode)
        print(
            f"qipai simulate pokdeng --mode {mode:13}: {result.rounds_per_cpu_second:8,.0f} "
            f"rounds per CPU second ({args.rounds:,} rounds, every spot bet; goal 20,000)"
        )


if __name__ == "__main__":
    main()
