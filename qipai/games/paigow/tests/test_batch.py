"""The Pai Gow batch environment against the game's own comparison, settlement and exact figure."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.errors import InvalidInput
from qipai.core.tiles import full_set
from qipai.envs.batch import batch_env
from qipai.games.paigow.batch import PaigowBatch
from qipai.games.paigow.config import PaigowConfig
from qipai.games.paigow.hands import evaluate, outcome
from qipai.games.paigow.payout import settle_round

TILES = full_set()
BIG = 10**15  # stacks large enough that the cap never applies


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    tie_policy=st.sampled_from(["banker", "push"]),
    high_nine=st.sampled_from(["any-seven", "named"]),
    commission=st.sampled_from(["0", "0.05", "0.1"]),
    banker_multiple=st.integers(1, 4),
)
def test_every_round_is_settled_as_the_game_settles_it(
    seed: int, tie_policy: str, high_nine: str, commission: str, banker_multiple: int
) -> None:
    """Each table's result × A·X is the player's net in the game's own settlement
    (`payout.settle_round` on the hands' `outcome`), for every bet multiple."""
    options = {"tie_policy": tie_policy, "high_nine": high_nine, "commission": commission}
    env = batch_env("paigow", 24, **options)
    env.reset(seed=seed)
    assert isinstance(env, PaigowBatch)
    config = PaigowConfig.model_validate(options)
    tiles = env.tiles()
    for action, multiple in enumerate(config.bet_choices):
        got = env._play(np.full(24, action, np.int64))
        for t in range(24):
            p, b = tiles[t, :2], tiles[t, 2:]
            assert not set(p) & set(b)
            player = evaluate([TILES[i] for i in p], config.high_nine)
            banker = evaluate([TILES[i] for i in b], config.high_nine)
            settled = settle_round(
                config,
                "B",
                banker_multiple,
                {"P": multiple},
                {"P": outcome(banker, player, config.tie_policy)},
                {"B": BIG, "P": BIG},
            )
            unit = config.base * banker_multiple
            assert got[t] * unit == pytest.approx(settled.nets()["P"], abs=1e-6)


def test_the_average_result_converges_to_the_exact_expectation() -> None:
    env = batch_env("paigow", 100_000)
    env.reset(seed=5)
    _, reward, _, _, info = env.step(np.zeros(100_000, np.int64))
    # docs/rtp.md: the player's return against the banker is 97.0933 % (banker wins ties)
    exact = float(Fraction(-4181, 143840))
    assert info["chosen_ev"] == pytest.approx(np.full(100_000, exact))
    z = (reward.mean() - exact) / (reward.std(ddof=1) / np.sqrt(reward.size))
    assert abs(z) < 4


def test_exact_reward_is_the_multiple_times_the_expectation() -> None:
    env = batch_env("paigow", 8, reward="exact", force_play=True)
    _, info = env.reset(seed=2)
    assert info["action_mask"].all()  # every bet multiple; the game has no sitting out
    _, reward, done, _, info = env.step(np.full(8, 4, np.int64))
    assert done.all()
    assert np.allclose(reward, 5 * float(Fraction(-4181, 143840)))
    assert set(np.unique(info["result"])) <= {-5.0, 0.0, 5 * 0.95}


def test_the_deal_is_uniform_over_disjoint_pairs() -> None:
    """Every tile is dealt to the player and to the banker equally often (chi-square)."""
    env = batch_env("paigow", 200_000)
    env.reset(seed=9)
    assert isinstance(env, PaigowBatch)
    tiles = env.tiles()
    for hand in (tiles[:, :2], tiles[:, 2:]):
        counts = np.bincount(hand.ravel(), minlength=32)
        expected = hand.size / 32
        chi2 = float(((counts - expected) ** 2 / expected).sum())
        assert chi2 < 70  # 31 degrees of freedom: p ≈ 1e-4


def test_same_seed_same_rounds_and_bad_settings() -> None:
    a, b = batch_env("paigow", 50), batch_env("paigow", 50)
    a.reset(seed=4)
    b.reset(seed=4)
    assert (a.tiles() == b.tiles()).all()  # type: ignore[attr-defined]
    with pytest.raises(InvalidInput, match="tie_policy"):
        batch_env("paigow", 4, tie_policy="coin")
