"""The PettingZoo environments (`qipai.envs`): PettingZoo's own API and seed tests for all five
games; masks that are exactly the round's legal actions; observations built from the observer's
view only; rewards that are the round's money; deal units carried across `reset()`; bad input."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from qipai.core.errors import GameError, InvalidInput
from qipai.envs import env, games, observation_table, raw_env
from qipai.envs.base import QipaiEnv

DOCS = Path(__file__).resolve().parents[2] / "docs" / "envs.md"
GAMES = games()


def play(e: QipaiEnv, rng: random.Random) -> list[tuple[str, int]]:
    """One episode with uniformly random legal actions: the (agent, action) taken."""
    taken = []
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        taken.append((agent, action))
        e.step(action)
    return taken


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.filterwarnings("ignore::UserWarning")  # api_test's advice on Dict observations
def test_pettingzoo_api_test(game: str) -> None:
    api_test(env(game), num_cycles=300)


@pytest.mark.parametrize(
    ("game", "settings"),
    [
        ("pokdeng", {"players": 1}),
        ("pokdeng", {"players": 5, "mode": "banker-player"}),
        ("holdem-bonus", {"players": 1, "pool_stake": 0}),
        ("holdem-bonus", {"players": 7, "bonus_table": "with-small-pairs"}),
        ("niuniu", {"players": 2, "hints": False}),
        ("niuniu", {"players": 5}),
        ("paigow", {"tie_policy": "push", "high_nine": "named", "bid_choices": [2, 3]}),
        ("tiengow", {"wen_zun": True}),
        ("paigow", {"bots": ["paigow-sensible"] * 3}),
        ("tiengow", {"bots": ["rule-of-thumb", "random"]}),
        ("niuniu", {"players": 3, "bots": ["sensible"]}),
        ("pokdeng", {"players": 3, "bots": ["sensible", "random"]}),
        ("holdem-bonus", {"players": 3, "bots": ["sensible", "random"]}),
    ],
)
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_test_other_tables(game: str, settings: dict[str, Any]) -> None:
    api_test(env(game, **settings), num_cycles=100)


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_seed_test(game: str) -> None:
    seed_test(lambda: env(game), num_cycles=100)


@pytest.mark.parametrize("game", GAMES)
def test_the_mask_is_exactly_what_the_round_accepts(game: str) -> None:
    # Every index the mask allows is accepted by the round's `check` (exactly `act`'s
    # validation); every other index is refused by it (each game's typed error) — the mask is the round's legal_actions.
    e = raw_env(game)
    rng = random.Random(7)
    e.reset(seed=7)
    steps = 0
    while not e.round.finished:
        agent = e.agent_selection
        seat = e.infos[agent]["seat"]
        mask = e.observe(agent)["action_mask"]
        table = e._table
        assert table is not None
        allowed = np.flatnonzero(mask).tolist()
        others = [i for i in range(len(mask)) if not mask[i]]
        assert allowed, f"{game}: {agent} is to act but nothing is legal"
        for index in allowed + rng.sample(others, min(len(others), 12)):
            action = e.encoder.action(table, seat, index)
            try:
                e.round.check(seat, action)  # validates exactly as `act`, changes nothing
            except GameError:
                assert not mask[index], f"{game}: legal index {index} ({action}) was refused"
            else:
                assert mask[index], f"{game}: masked index {index} ({action}) was accepted"
        e.step(rng.choice(allowed))
        steps += 1
    assert steps > 0


@pytest.mark.parametrize("game", GAMES)
def test_an_observation_reads_only_the_observers_view(game: str) -> None:
    e = raw_env(game)
    e.reset(seed=3)
    rng = random.Random(3)
    real_view = e.round.view
    while not e.round.finished:
        for agent in e.agents:
            seat = e.infos[agent]["seat"]

            def only_mine(who: str | None, seat: str = seat) -> Any:
                assert who == seat, f"{game}: observing {seat} read the view of {who}"
                return real_view(who)

            e.round.view = only_mine  # type: ignore[method-assign]
            try:
                e.observe(agent)
            finally:
                del e.round.view
        obs = e.observe(e.agent_selection)
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


@pytest.mark.parametrize("game", GAMES)
def test_rewards_are_the_rounds_money(game: str) -> None:
    e = raw_env(game)
    for seed in range(3):
        e.reset(seed=seed)
        totals = dict.fromkeys(e.possible_agents, 0.0)
        rng = random.Random(seed)
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


def test_reward_scale_scales_the_money() -> None:
    a, b = raw_env("niuniu"), raw_env("niuniu", reward_scale=0.01)
    for e in (a, b):
        e.reset(seed=5)
        play(e, random.Random(5))
    seats = a.seats
    assert [b.round.result().net(s) for s in seats] == [a.round.result().net(s) for s in seats]
    assert any(a.round.result().net(s) for s in seats)


def test_pai_gow_reset_plays_round_two_of_the_game_then_a_new_game() -> None:
    e = raw_env("paigow")
    e.reset(seed=1)
    first_seed = e._round_seed
    play(e, random.Random(1))
    e.reset()
    assert e.round.round_no == 2 and e._round_seed == first_seed  # type: ignore[attr-defined]
    seen = e.observe("player_0")["observation"][e.encoder.slice("seen_tiles")]
    assert seen.sum() == 8  # round 1's eight tiles
    play(e, random.Random(2))
    e.reset()
    assert e.round.round_no == 1 and e._round_seed != first_seed  # type: ignore[attr-defined]


def test_pok_deng_reset_deals_the_next_round_of_the_shoe_and_counts_seen_cards() -> None:
    e = raw_env("pokdeng", players=1)
    e.reset(seed=4)
    play(e, random.Random(4))
    e.reset()
    view = e.round.view("S1")
    assert view["shoe"]["round"] == 2 and view["shoe"]["cards_used"] == 13
    seen = e.observe("player_0")["observation"][e.encoder.slice("shoe_seen")]
    assert round(float(seen.sum()) * 32) == 12  # 12 face-up cards of one 8-deck shoe
    e.reset(seed=4)
    assert e.round.view("S1")["shoe"]["round"] == 1


def test_tien_gow_reset_hands_the_bank_to_the_winner() -> None:
    e = raw_env("tiengow")
    e.reset(seed=2)
    play(e, random.Random(2))
    winner = e.round.result().details["winner"]
    banker, streak = e.round.banker, e.round.banker_streak  # type: ignore[attr-defined]
    e.reset()
    assert e.round.banker == winner  # type: ignore[attr-defined]
    assert e.round.banker_streak == (streak + 1 if winner == banker else 1)  # type: ignore[attr-defined]


def test_holdem_reset_carries_the_pool() -> None:
    e = raw_env("holdem-bonus")
    e.reset(seed=9)
    play(e, random.Random(9))
    closing = e.round.pool_closing()  # type: ignore[attr-defined]
    e.reset()
    assert e.round.pool_opening == closing  # type: ignore[attr-defined]


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    e = raw_env("paigow")
    e.reset(seed=0)
    agent = e.agent_selection
    illegal = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    before = copy.deepcopy(e.round.view(None))
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)
    with pytest.raises(ValueError, match="must act"):
        e.step(None)
    assert e.round.view(None) == before and e.agent_selection == agent


@pytest.mark.parametrize(
    ("game", "settings", "message"),
    [
        ("chess", {}, "unknown game"),
        ("pokdeng", {"mode": "baccarat"}, "mode"),
        ("niuniu", {"bse": 100}, "bse"),
        ("paigow", {"players": 3}, "4–4 players"),
        ("niuniu", {"players": 6}, "players"),
        ("paigow", {"ladder": (1, 2)}, "no bet ladder"),
        ("pokdeng", {"ladder": (0,)}, "ladder"),
        ("tiengow", {"stack": 0}, "stack"),
        ("holdem-bonus", {"render_mode": "rgb_array"}, "render_mode"),
        ("paigow", {"bots": ["paigow-sensible"] * 4}, "no agent left"),
        ("niuniu", {"bots": ["clever"]}, "unknown niuniu bot level"),
        ("tiengow", {"bots": "random"}, "list of bot levels"),
    ],
)
def test_bad_settings_are_refused(game: str, settings: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        raw_env(game, **settings)


def test_bots_play_the_last_seats_and_agents_get_their_own_money() -> None:
    e = raw_env("paigow", bots=["paigow-sensible"] * 3)
    assert e.possible_agents == ["player_0"] and e.seats == ("E", "S", "W", "N")
    for seed in range(4):
        e.reset(seed=seed)
        won = 0.0
        for agent in e.agent_iter():
            assert agent == "player_0"
            obs, reward, terminated, _, _ = e.last()
            won += reward
            e.step(None if terminated else int(np.flatnonzero(obs["action_mask"])[0]))
        result = e.round.result()
        assert won == result.net("E")
        acted = {entry.seat for entry in e.round.log if entry.seat is not None}
        assert acted == {"E", "S", "W", "N"}  # the bots bid, bet and revealed themselves


def test_settings_reach_the_game() -> None:
    e = raw_env("pokdeng", mode="banker-player", players=1, ladder=(1, 3))
    assert len(e.encoder.actions) == 1 + 16 * 2  # done + 16 spots × 2 chip sizes
    e.reset(seed=0)
    assert e.round.view("S1")["mode"] == "banker-player"
    assert e.action_label(2) == "bet P1 300"


@pytest.mark.parametrize("game", GAMES)
def test_docs_describe_each_observation_exactly(game: str) -> None:
    assert observation_table(game) in DOCS.read_text(encoding="utf-8")


def test_render_ansi() -> None:
    e = raw_env("tiengow", render_mode="ansi")
    e.reset(seed=1)
    assert e.render() is not None and "tiengow phase=play" in str(e.render())
    play(e, random.Random(1))
    assert "nets:" in str(e.render())


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_many_random_rounds_balance_and_replay(game: str) -> None:
    # 300 rounds of random legal play per game, deal units carried on: every round replays from
    # its seed and log to the same result, and its rewards are its postings.
    e = raw_env(game)
    e.reset(seed=2026)
    rng = random.Random(2026)
    for _ in range(300):
        play(e, rng)
        round_ = e.round
        again = type(round_).replay(
            round_.config, round_.seats, e._round_seed, round_.log, e._context
        )
        assert again.result().to_json() == round_.result().to_json()
        e.reset()
