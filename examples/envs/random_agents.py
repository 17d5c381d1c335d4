"""Random agents in every qipai PettingZoo environment.

    uv run python examples/envs/random_agents.py                 # 200 rounds of each game
    uv run python examples/envs/random_agents.py niuniu --rounds 1000 --seed 7

Each agent picks uniformly among the legal actions (`observation["action_mask"]`). Rounds follow
one another with `reset()`, so deal units carry on (the Pok Deng shoe, Pai Gow's second round, the
Tien Gow bank, the Hold'em pool). Prints, per game, every agent's mean reward per round (money in
minor units) with its standard error, the actions taken, and the speed (per CPU second, which
a busy shared machine disturbs less than wall time).
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from qipai.envs import env, games


def run(game: str, rounds: int, seed: int) -> None:
    e = env(game)
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    totals: dict[str, list[float]] = {a: [] for a in e.possible_agents}
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        won = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            observation, reward, terminated, truncated, _ = e.last()
            won[agent] += reward
            if terminated or truncated:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                steps += 1
            e.step(action)
        for agent, value in won.items():
            totals[agent].append(value)
        e.reset()
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(
        f"{game}: {rounds} rounds, {steps} actions, {elapsed:.2f} s wall, {cpu:.2f} s CPU "
        f"({rounds / cpu:,.0f} rounds and {steps / cpu:,.0f} actions per CPU second)"
    )
    for agent, values in totals.items():
        mean = sum(values) / len(values)
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / max(1, len(values) - 1))
        print(f"  {agent}: mean reward {mean:+10.1f} ± {sd / math.sqrt(len(values)):.1f} per round")


def main() -> None:
    known = games()
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"any of {', '.join(known)}")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    unknown = [g for g in args.games if g not in known]
    if unknown:
        parser.error(f"unknown game(s) {', '.join(unknown)}; choose from {', '.join(known)}")
    for game in args.games or known:
        run(game, args.rounds, args.seed)


if __name__ == "__main__":
    main()
