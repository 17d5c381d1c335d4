"""The PettingZoo parallel API (qipai.envs.parallel): every registered game passes PettingZoo's
own parallel API test; the seats a phase awaits act together on one observed state; a missing or
illegal action is refused and changes nothing; rewards are the round's nets."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test

from qipai.envs import parallel_env, raw_env
from qipai.games import registry

GAMES = registry.names()


def random_actions(
    obs: dict[str, dict[str, np.ndarray]], rng: np.random.Generator
) -> dict[str, int]:
    return {
        agent: int(rng.choice(np.flatnonzero(o["action_mask"])))
        for agent, o in obs.items()
        if o["action_mask"].any()
    }


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_parallel_api(game: str) -> None:
    parallel_api_test(parallel_env(game), num_cycles=60)


@pytest.mark.parametrize("game", GAMES)
def test_the_awaited_seats_act_together_and_rewards_are_the_nets(game: str) -> None:
    e = parallel_env(game)
    rng = np.random.default_rng(7)
    together = 0
    for episode in range(6):
        obs, _ = e.reset(seed=episode)
        while e.agents:
            round_ = e.aec.round
            awaited = {
                agent
                for agent in e.agents
                if e.aec._seat_of[agent] in set(round_.awaiting())
                and e.aec._specs(e.aec._seat_of[agent])
            }
            masked = {agent for agent, o in obs.items() if o["action_mask"].any()}
            assert masked == awaited  # every awaited seat is asked at once, nobody else
            together = max(together, len(masked))
            obs, rewards, terms, truncs, _infos = e.step(random_actions(obs, rng))
        assert all(terms.values()) and not any(truncs.values())
        result = e.aec.round.result()
        assert rewards == {a: float(result.net(e.aec._seat_of[a])) for a in rewards}
    if len(raw_env(game).possible_agents) > 1 and game != "tiengow":
        # the betting, bidding or swapping phase: several seats decide on the same state
        assert together >= 2, f"{game}: no phase asked two seats at once"


@pytest.mark.parametrize("game", GAMES)
def test_a_missing_or_illegal_action_changes_nothing(game: str) -> None:
    e = parallel_env(game)
    obs, _ = e.reset(seed=3)
    asked = [a for a, o in obs.items() if o["action_mask"].any()]
    before = len(e.aec.round.log)
    chosen = random_actions(obs, np.random.default_rng(1))
    missing = dict(chosen)
    missing.pop(asked[-1])
    with pytest.raises(ValueError, match="must act"):
        e.step(missing)
    illegal = dict(chosen)
    illegal[asked[-1]] = int(np.flatnonzero(obs[asked[-1]]["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)
    assert len(e.aec.round.log) == before  # refused before any seat acted
    e.step(chosen)
    assert len(e.aec.round.log) > before


def test_the_same_seed_deals_the_same_rounds() -> None:
    plays = []
    for _ in range(2):
        e = parallel_env("pokdeng")
        rng = np.random.default_rng(5)
        obs, _ = e.reset(seed=11)
        nets = []
        while e.agents:
            obs, rewards, *_ = e.step(random_actions(obs, rng))
        nets.append(rewards)
        plays.append(nets)
    assert plays[0] == plays[1]


def test_the_docs_example_runs() -> None:
    """docs/envs.md's parallel example, as a reader would paste it."""
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "envs.md").read_text(encoding="utf-8")
    section = page.split("## The parallel API", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    scope: dict[str, object] = {}
    exec(
        compile(code.group(1).replace("print(rewards)", "shown = rewards"), "envs.md", "exec"),
        scope,
    )
    assert set(scope["shown"]) == {f"player_{i}" for i in range(4)}  # type: ignore[call-overload]
