"""San Gong's environment encoder (env.py), run through the shared PettingZoo wrapper."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils import wrappers

from qipai.core.errors import GameError
from qipai.core.rng import Rng
from qipai.envs.base import QipaiEnv
from qipai.games import registry
from qipai.games.sangong.env import SangongEncoder


def _raw(players: int = 5, **settings: Any) -> QipaiEnv:
    spec = registry.get("sangong")
    config = spec.parse_config(settings)
    return QipaiEnv(spec, SangongEncoder(config, players), stack=10_000)


def _env(players: int = 5, **settings: Any) -> Any:
    return wrappers.OrderEnforcingWrapper(_raw(players, **settings))


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("players", "settings"), [(5, {}), (2, {}), (6, {"max_seats": 6})])
def test_pettingzoo_api_test(players: int, settings: dict[str, Any]) -> None:
    api_test(_env(players, **settings), num_cycles=200)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: _env(), num_cycles=100)


def test_the_mask_is_exactly_what_the_round_accepts() -> None:
    e = _raw()
    rng = Rng(b"sangong-env-mask-test-0000000007")
    for seed in range(3):
        e.reset(seed=seed)
        while not e.round.finished:
            agent = e.agent_selection
            seat = e.infos[agent]["seat"]
            mask = e.observe(agent)["action_mask"]
            table = e._table
            assert table is not None
            for index in range(len(mask)):
                action = e.encoder.action(table, seat, index)
                try:
                    e.round.check(seat, action)
                except GameError:
                    assert not mask[index], (index, action)
                else:
                    assert mask[index], (index, action)
            e.step(rng.choice(np.flatnonzero(mask).tolist()))


def test_cards_appear_only_after_the_deal_and_others_only_once_shown() -> None:
    e = _raw()
    e.reset(seed=1)
    enc = e.encoder
    assert isinstance(enc, SangongEncoder)
    while e.round.phase != "show":
        obs = e.observe(e.agent_selection)
        assert obs["observation"][enc.slice("my_cards")].sum() == 0
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    vector = e.observe(e.agent_selection)["observation"]
    assert vector[enc.slice("my_cards")].sum() == 3
    assert vector[enc.slice("shown_cards")].sum() == 0
    assert vector[enc.slice("my_type")].sum() == 1


def test_rewards_are_the_rounds_money() -> None:
    e = _raw()
    for seed in range(3):
        e.reset(seed=seed)
        totals = dict.fromkeys(e.possible_agents, 0.0)
        rng = Rng(seed.to_bytes(4, "big") * 8, "rewards")
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            totals[agent] += reward
            if terminated or truncated:
                e.step(None)
                continue
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        result = e.round.result()
        seats = dict(zip(e.possible_agents, e.seats, strict=True))
        assert totals == {a: float(result.net(seats[a])) for a in e.possible_agents}
