"""Environment speed: qipai's single and batch steps per CPU-second beside RLCard and OpenSpiel,
measured in one run on one machine (docs/envs.md, "Speed").

    uv sync --group bench      # RLCard and OpenSpiel: benchmark-only dependencies
    uv run python benchmarks/bench_envs.py [--seconds 1.0] [--tables 4096] [--json]

A step is one decision of one agent (a chance move is not a step), taken uniformly among the
legal actions. Time is the process's CPU time (`time.process_time`), so the figures do not
depend on how busy the shared machine is; the load average is printed beside them. Each figure
is the steps completed within about `--seconds` of CPU after one warm-up episode (numba
compilation and table loading are not counted).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

Runner = Callable[[float], int]  # runs for about that many CPU-seconds; returns steps taken


def rate(run: Runner, seconds: float) -> float:
    run(0.0)  # warm up: one episode
    start = time.process_time()
    steps = run(seconds)
    return steps / max(time.process_time() - start, 1e-9)


def qipai_aec(game: str) -> Runner:
    from qipai.envs import env

    e = env(game)
    rng = np.random.default_rng(0)

    def run(seconds: float) -> int:
        start, steps = time.process_time(), 0
        while True:
            e.reset(seed=int(rng.integers(2**31)))
            for _agent in e.agent_iter():
                obs, _, terminated, truncated, _ = e.last()
                if terminated or truncated:
                    e.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                e.step(int(rng.choice(legal)))
                steps += 1
            if time.process_time() - start >= seconds:
                return steps

    return run


def qipai_gym(game: str) -> Runner:
    from qipai.envs.batch import GymEnv

    e = GymEnv(game)
    rng = np.random.default_rng(0)

    def run(seconds: float) -> int:
        start, steps = time.process_time(), 0
        _, info = e.reset(seed=1)
        while True:
            for _ in range(100):
                legal = np.flatnonzero(info["action_mask"])
                e.step(int(rng.choice(legal)))
                _, info = e.reset()
                steps += 1
            if time.process_time() - start >= seconds:
                return steps

    return run


def qipai_batch(game: str, tables: int) -> Runner:
    from qipai.envs.batch import batch_env

    e = batch_env(game, tables)
    rng = np.random.default_rng(0)

    def run(seconds: float) -> int:
        start, steps = time.process_time(), 0
        _, info = e.reset(seed=1)
        n = len(e.actions)
        while True:
            mask = info["action_mask"]
            # a uniformly random legal action per table
            pick = np.where(mask, rng.random((tables, n)), -1.0).argmax(axis=1)
            _, _, _, _, info = e.step(pick)
            steps += tables
            if time.process_time() - start >= seconds:
                return steps

    return run


def rlcard_env(name: str) -> Runner | None:
    try:
        import rlcard
    except ImportError:
        return None
    e = rlcard.make(name, config={"seed": 0})
    rng = random.Random(0)

    def run(seconds: float) -> int:
        start, steps = time.process_time(), 0
        while True:
            state, _ = e.reset()
            while not e.is_over():
                state, _ = e.step(rng.choice(list(state["legal_actions"])))
                steps += 1
            if time.process_time() - start >= seconds:
                return steps

    return run


HU_LIMIT = (
    "universal_poker(betting=limit,numPlayers=2,numRounds=4,blind=10 5,firstPlayer=2 1 1 1,"
    "numSuits=4,numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1,raiseSize=10 10 20 20,"
    "maxRaises=3 4 4 4)"
)


def openspiel_game(name: str) -> Runner | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    rng = random.Random(0)

    def run(seconds: float) -> int:
        start, steps = time.process_time(), 0
        while True:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(actions, probs)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    steps += 1
            if time.process_time() - start >= seconds:
                return steps

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU-seconds per figure")
    parser.add_argument("--tables", type=int, default=4096, help="tables per batch call")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []

    def add(system: str, what: str, runner: Runner | None) -> None:
        if runner is None:
            rows.append({"system": system, "env": what, "steps_per_cpu_s": None})
            return
        rows.append({"system": system, "env": what, "steps_per_cpu_s": rate(runner, args.seconds)})
        if not args.json:
            print(f"{system:<10} {what:<44} {rows[-1]['steps_per_cpu_s']:>14,.0f}", flush=True)

    if not args.json:
        print(f"load average {os.getloadavg()}; {args.seconds} CPU-s per figure")
        print(f"{'system':<10} {'environment':<44} {'steps/CPU-s':>14}")
    for game in ("pokdeng", "paigow", "holdem-bonus", "niuniu", "tiengow"):
        add("qipai", f"{game} (PettingZoo AEC, single table)", qipai_aec(game))
    from qipai.games import registry

    batched = [name for name, spec in registry.available().items() if spec.batch_env is not None]
    for game in batched:  # every game whose spec declares a batch environment
        add("qipai", f"{game} (Gymnasium, single table)", qipai_gym(game))
        add(
            "qipai",
            f"{game} (batch, {args.tables} tables per call)",
            qipai_batch(game, args.tables),
        )
    add("RLCard", "limit-holdem", rlcard_env("limit-holdem"))
    add("RLCard", "leduc-holdem", rlcard_env("leduc-holdem"))
    add("OpenSpiel", "HU limit Hold'em (universal_poker)", openspiel_game(HU_LIMIT))
    add("OpenSpiel", "leduc_poker", openspiel_game("leduc_poker"))
    missing = [r["system"] for r in rows if r["steps_per_cpu_s"] is None]
    if args.json:
        print(json.dumps({"load_average": os.getloadavg(), "rows": rows}, indent=2))
    elif missing:
        print(f"not installed (uv sync --group bench): {', '.join(sorted(set(missing)))}")
    if not args.json:
        print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
