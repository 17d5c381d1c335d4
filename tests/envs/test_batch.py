"""The vectorised environments against the games' own code and exact figures."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from qipai.core.cards import Card
from qipai.core.errors import InvalidInput
from qipai.core.spec import NotOffered
from qipai.envs.batch import BatchEnv, GymEnv, batch_env
from qipai.games import registry
from qipai.games.niuniu.advisor import advise
from qipai.games.niuniu.hands import MULTIPLIER_ARRAY, evaluate
from qipai.games.pokdeng.config import PokDengConfig
from qipai.games.pokdeng.hands import evaluate as pok_evaluate
from qipai.games.pokdeng.payout import spot_rule


@pytest.mark.parametrize("mode", ["classic", "banker-player"])
def test_pokdeng_results_are_the_games_spot_rules(mode: str) -> None:
    env = batch_env("pokdeng", 3000, mode=mode)
    env.reset(seed=7)
    config = PokDengConfig.parse({"mode": mode})
    cards = env._cards.copy()  # type: ignore[attr-defined]
    for action in range(len(env.actions)):
        env._cards = cards  # type: ignore[attr-defined]
        got = env._play(np.full(3000, action, np.int64))
        for t in range(0, 3000, 7):
            if action == 0:
                assert got[t] == 0
                continue
            c = [Card.from_id(int(i)) for i in cards[t]]
            hands = {"P1": pok_evaluate(c[0], c[1]), "B": pok_evaluate(c[2], c[3])}
            rule = spot_rule(config, env.actions[action], hands)
            assert got[t] == rule.num / rule.den


def test_pokdeng_exact_reward_and_forced_play() -> None:
    env = batch_env("pokdeng", 64, reward="exact", force_play=True)
    _, info = env.reset(seed=1)
    assert not info["action_mask"][:, 0].any()
    with pytest.raises(InvalidInput, match="not legal"):
        env.step(np.zeros(64, np.int64))
    _, reward, done, _, info = env.step(np.ones(64, np.int64))
    # docs/rtp.md §1: the classic position bet returns 449692489/461223945.
    assert np.allclose(reward, float(Fraction(449692489, 461223945) - 1))
    assert done.all()
    assert set(np.unique(info["result"])) <= {-2.0, -1.0, 0.0, 1.0, 2.0}


def test_pokdeng_average_result_converges_to_the_exact_return() -> None:
    env = batch_env("pokdeng", 200_000)
    env.reset(seed=3)
    _, reward, _, _, _ = env.step(np.ones(200_000, np.int64))
    exact = float(Fraction(449692489, 461223945) - 1)
    se = 1.4231 / np.sqrt(200_000)
    assert abs(reward.mean() - exact) < 4 * se


def test_niuniu_results_follow_the_settlement_rule_and_the_deal() -> None:
    env = batch_env("niuniu", 400)
    env.reset(seed=11)
    decks = env._decks.copy()  # type: ignore[attr-defined]
    rng = np.random.default_rng(0)
    actions = rng.integers(0, 16, 400)
    out = np.empty((400, 2, 5), np.int64)
    from qipai.games.niuniu.env import _finish_kernel

    _finish_kernel(
        decks,
        actions,
        env._lookup,
        env._banker_keep,
        env._rank_of,
        out,  # type: ignore[attr-defined]
    )
    got = env._play(actions)
    for t in range(400):
        # The deal: 18 distinct cards; the player keeps exactly the cards it did not discard.
        assert len(set(decks[t].tolist())) == 18
        kept = [int(decks[t, i]) for i in range(4) if not actions[t] >> i & 1]
        assert set(kept) <= set(out[t, 0].tolist())
        assert len(set(out[t].ravel().tolist())) == 10
        mine = evaluate([Card.from_id(int(i)) for i in out[t, 0]])
        banker = evaluate([Card.from_id(int(i)) for i in out[t, 1]])
        want = (
            0.96 * int(MULTIPLIER_ARRAY[mine.type])
            if mine.key > banker.key
            else -int(MULTIPLIER_ARRAY[banker.type])
        )
        assert got[t] == pytest.approx(want)


def test_niuniu_exact_values_are_the_advisors_money_values() -> None:
    env = batch_env("niuniu", 40)
    _, info = env.reset(seed=5)
    for t in range(40):
        cards = [Card.from_id(int(i)) for i in info["cards"][t]]
        for choice in advise(cards):
            k = sum(1 << cards.index(c) for c in choice.discard)
            assert info["ev"][t, k] == pytest.approx(float(choice.expected_net), abs=1e-12)


def test_niuniu_average_result_near_the_exact_value_of_the_hint() -> None:
    env = batch_env("niuniu", 200_000)
    _, info = env.reset(seed=9)
    _, reward, _, _, info2 = env.step(info["ev"].argmax(axis=1))
    # The exact values take the banker's hand independent of the player's (docs/rtp.md §2),
    # which the real deal is not quite: allow the card-removal difference measured there.
    se = 1.74 / np.sqrt(200_000)
    assert abs(reward.mean() - info2["chosen_ev"].mean()) < 4 * se + 0.005


def test_same_seed_same_rounds_and_bad_input() -> None:
    a, b = batch_env("niuniu", 50), batch_env("niuniu", 50)
    a.reset(seed=4)
    b.reset(seed=4)
    acts = np.arange(50, dtype=np.int64) % 16
    assert np.array_equal(a.step(acts)[1], b.step(acts)[1])
    with pytest.raises(InvalidInput):
        a.step(np.zeros(49, np.int64))
    with pytest.raises(InvalidInput):
        batch_env("niuniu", 0)
    with pytest.raises(InvalidInput):
        batch_env("niuniu", 4, banker="psychic")


def with_batch_env() -> list[str]:
    return [n for n, s in registry.available().items() if s.batch_env is not None]


def test_batch_env_goes_through_the_registry() -> None:
    offered = with_batch_env()
    assert offered
    for game in offered:
        env = batch_env(game, 3)
        assert isinstance(env, BatchEnv) and env.tables == 3
    for game in [n for n in registry.names() if n not in offered]:
        with pytest.raises(NotOffered) as caught:
            batch_env(game, 4)
        want = f"no batch environment for game {game!r}; games with one: {', '.join(offered)}"
        assert caught.value.message == want
    with pytest.raises(InvalidInput) as unknown:
        batch_env("chess", 4)
    assert "unknown game 'chess'" in unknown.value.message
    assert all(name in unknown.value.message for name in registry.names())


@pytest.mark.parametrize("game", with_batch_env())
def test_gymnasium_wrapper_passes_the_env_checker(game: str) -> None:
    env = GymEnv(game)
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=2)
    assert env.observation_space.contains(obs)
    _, reward, terminated, truncated, _ = env.step(int(info["action_mask"].argmax()))
    assert terminated and not truncated and isinstance(reward, float)
