"""Longer runs of the Tien Gow properties (CI's slow suite)."""

from __future__ import annotations

import pytest

from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.games.tiengow.bots import RuleOfThumbBot, play_game
from qipai.games.tiengow.config import TienGowConfig
from qipai.games.tiengow.round import TienGowRound
from qipai.games.tiengow.sim import FACE_INDEX, State, play_out, rule_of_thumb, table

from .helpers import SEATS
from .test_tiengow_game import check_hidden

# Stacks that no game can exhaust: the cap (docs/rules/tiengow.md) changes nothing.
RICH = 10**9


@pytest.mark.slow
@pytest.mark.parametrize("block", range(4))
def test_hidden_discards_over_many_random_games(block: int) -> None:
    for seed in range(block * 40, block * 40 + 40):
        check_hidden(seed, seed % 4)


@pytest.mark.slow
@pytest.mark.parametrize("wen_zun", [False, True])
def test_engine_and_simulator_agree_over_many_games(wen_zun: bool) -> None:
    config = TienGowConfig(wen_zun=wen_zun)
    bot = RuleOfThumbBot()
    for seed in range(300):
        banker = SEATS[seed % 4]
        ctx = {"banker": banker, "banker_streak": 1 + seed % 3}
        r = TienGowRound.start(
            config, [Seat(s, RICH) for s in SEATS], Rng(seed.to_bytes(32, "big")), ctx
        )
        hands = [tuple(sorted(FACE_INDEX[r.deck[i]] for i in r.hands[s])) for s in SEATS]
        state = State(table(wen_zun), hands, seed % 4, 2 + seed % 3)
        expected = play_out(state, [rule_of_thumb] * 4)
        play_game(r, dict.fromkeys(SEATS, bot), Rng(b"\x01" * 32))
        assert [r.result().net(s) // config.base for s in SEATS] == expected
