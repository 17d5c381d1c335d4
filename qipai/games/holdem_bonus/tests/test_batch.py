"""Hold'em Bonus's batch environment against the game's own settlement (payout.main_nets): every
round a table ends is paid exactly as the round engine pays it, for random decisions; a table's
round takes one to three steps and the next one is dealt at once."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.cards import Card
from qipai.core.errors import InvalidInput
from qipai.envs.batch import batch_env
from qipai.games.holdem_bonus.hands import PokerHand
from qipai.games.holdem_bonus.payout import BoxPlay, main_nets


def engine_net(cards: np.ndarray, flop: bool, turn: bool, river: bool) -> float:
    """The round engine's main-game net per ante for these cards and decisions."""
    c = [Card.from_id(int(i)) for i in cards]
    play = BoxPlay("1", "p", (c[0], c[1]), 100, flop=flop, turn=turn, river=river)
    hand = PokerHand.of(c[0:7])
    dealer = PokerHand.of([c[7], c[8], *c[2:7]])
    _, nets = main_nets(play, hand, dealer)
    return sum(nets.values()) / 100


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), policy=st.integers(0, 2**31))
def test_every_ended_round_is_paid_as_the_engine_pays_it(seed: int, policy: int) -> None:
    tables = 64
    env = batch_env("holdem-bonus", tables)
    _obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(policy)
    decisions: list[list[int]] = [[] for _ in range(tables)]
    ended_rounds = 0
    for _ in range(12):
        acts = rng.integers(0, 2, tables)
        _, reward, terminated, truncated, info = env.step(acts)
        assert not truncated.any()
        for t in range(tables):
            decisions[t].append(int(acts[t]))
            if not terminated[t]:
                assert reward[t] == 0
                continue
            made = decisions[t]
            assert 1 <= len(made) <= 3
            assert len(made) == 3 or made == [0]  # only a fold ends a round early
            flop = made[0] == 1
            turn = flop and made[1] == 1
            river = flop and made[2] == 1
            assert reward[t] == engine_net(info["dealt"][t], flop, turn, river)
            assert info["staked"][t] == 1 + 2 * flop + turn + river
            decisions[t] = []
            ended_rounds += 1
        assert (info["phase"][terminated] == 0).all()  # the next round waits for its first decision
    assert ended_rounds > tables


def test_the_observation_shows_what_the_box_has_seen() -> None:
    env = batch_env("holdem-bonus", 8)
    obs, _info = env.reset(seed=5)
    cards = env._cards.copy()  # type: ignore[attr-defined]
    for phase, shown in enumerate((0, 3, 4)):
        assert (obs[:, :52].sum(axis=1) == 2).all()
        assert (obs[:, 52:104].sum(axis=1) == shown).all()
        assert (obs[:, 104 + phase] == 1).all()
        for t in range(8):
            assert set(np.flatnonzero(obs[t, :52])) == set(cards[t, :2])
            assert set(np.flatnonzero(obs[t, 52:104])) == set(cards[t, 2 : 2 + shown])
        if phase < 2:
            obs, *_ = env.step(np.ones(8, np.int64))  # play, then bet: nobody's round ends


def test_the_same_seed_deals_the_same_rounds_and_bad_input_is_refused() -> None:
    a, b = batch_env("holdem-bonus", 32), batch_env("holdem-bonus", 32)
    a.reset(seed=9)
    b.reset(seed=9)
    acts = np.arange(32, dtype=np.int64) % 2
    for _ in range(4):
        assert np.array_equal(a.step(acts)[1], b.step(acts)[1])
    with pytest.raises(InvalidInput):
        a.step(np.full(32, 2, np.int64))
    with pytest.raises(InvalidInput, match="reward='result' only"):
        batch_env("holdem-bonus", 4, reward="exact")
    forced = batch_env("holdem-bonus", 4, force_play=True)
    _, info = forced.reset(seed=1)
    assert not info["action_mask"][:, 0].any()
    with pytest.raises(InvalidInput, match="not legal"):
        forced.step(np.zeros(4, np.int64))
    forced.step(np.ones(4, np.int64))
    assert forced.action_mask().all()  # checking is legal after the first decision
