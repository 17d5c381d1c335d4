"""Hold'em Bonus's main game at many tables per call (qipai.envs.batch, docs/envs.md).

One box plays against the dealer at each table, one ante a round, and decides three times
(docs/rules/holdem-bonus.md#round-flow): after its hole cards, play (the flop bet, 2 antes) or
fold; after the flop, bet the turn (1 ante) or check; after the turn, bet the river (1 ante) or
check. So an episode is a round of up to three steps; tables move through their rounds on their
own (a table whose box folds deals its next round at once), and `terminated` says which tables'
rounds ended on this step: their reward is the round's net per ante and their observation is
already the next round's first decision.

The settlement is the game's (`payout.main_nets`, checked against it by the tests): a fold
loses the ante; otherwise the best five of seven meets the dealer's, a win pays ante, flop,
turn and river 1:1 except that a win with less than a straight pushes the ante, a loss loses
them all and a tie returns them all. The bonus and the jackpot are side bets on the hole cards
and the flop that no decision changes; they are left out here (`qipai par holdem-bonus` prices
them).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from qipai.core.errors import InvalidInput
from qipai.envs.batch import BatchEnv, Obs, Reward
from qipai.poker import Category
from qipai.poker.categories import CATEGORY_SHIFT
from qipai.poker.evaluator import evaluate_batch

ACTIONS = ("fold / check", "play / bet")
PHASES = ("hole", "flop", "turn")  # what the box has seen when it decides
DEALT = 9  # hole 0–1, flop 2–4, turn 5, river 6, dealer 7–8
SHOWN = (0, 3, 4)  # board cards shown at each decision


class HoldemBonusBatch(BatchEnv):
    """Hold'em Bonus's main game, one box against the dealer at many tables (module doc).

    Observation (float32, 107): the box's hole cards (52 flags), the board shown so far (52
    flags), the decision (3 flags: hole, flop, turn). Actions: 0 = fold at the first decision,
    check at the others; 1 = play (flop bet) at the first, bet at the others.
    `force_play=True` removes the fold (checking stays legal)."""

    game = "holdem-bonus"
    observation_size = 52 + 52 + len(PHASES)
    actions = ACTIONS

    def __init__(self, tables: int, reward: Reward = "result", force_play: bool = False) -> None:
        if reward != "result":
            raise InvalidInput(
                "holdem-bonus's batch offers reward='result' only: a decision's exact value "
                "needs the optimal continuation, which `qipai advise holdem-bonus` computes one "
                "hand at a time",
                field="reward",
            )
        super().__init__(tables, reward, force_play)
        self._cards = np.zeros((tables, DEALT), np.int64)
        self._phase = np.zeros(tables, np.int64)
        self._staked = np.ones(tables, np.float64)  # antes at stake: 1 + 2 + turn + river
        self._rows = np.arange(tables)

    # ----- dealing ------------------------------------------------------------------------------
    def _deal_some(self, which: npt.NDArray[np.int64]) -> None:
        """New rounds at tables `which`: nine distinct cards each, in a uniformly random order."""
        if which.size == 0:
            return
        keys = self._rng.random((which.size, 52))
        chosen = np.argpartition(keys, DEALT, axis=1)[:, :DEALT]
        order = np.take_along_axis(keys, chosen, axis=1).argsort(axis=1)
        self._cards[which] = np.take_along_axis(chosen, order, axis=1)
        self._phase[which] = 0
        self._staked[which] = 1.0

    def _deal(self) -> None:
        self._deal_some(self._rows)

    # ----- what the box sees and may do ------------------------------------------------------
    def observe(self) -> Obs:
        obs = np.zeros((self.tables, self.observation_size), np.float32)
        rows, c = self._rows, self._cards
        obs[rows, c[:, 0]] = 1.0
        obs[rows, c[:, 1]] = 1.0
        for phase, shown in enumerate(SHOWN):
            at = self._phase == phase
            for k in range(shown):
                obs[rows[at], 52 + c[at, 2 + k]] = 1.0
        obs[rows, 104 + self._phase] = 1.0
        return obs

    def action_mask(self) -> npt.NDArray[np.bool_]:
        mask = np.ones((self.tables, 2), np.bool_)
        if self.force_play:
            mask[:, 0] = self._phase != 0
        return mask

    def exact_values(self) -> npt.NDArray[np.float64]:
        raise InvalidInput("holdem-bonus's batch has no exact values per decision", field="ev")

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_mask(), "phase": self._phase.copy()}

    # ----- playing ----------------------------------------------------------------------------------
    def _settle(self, at: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """Net per ante of the rounds at tables `at`, every decision made, the box not folded."""
        c = self._cards[at]
        box = evaluate_batch(c[:, 0:7]).astype(np.int64)
        dealer = evaluate_batch(np.concatenate([c[:, 7:9], c[:, 2:7]], axis=1)).astype(np.int64)
        staked = self._staked[at]
        small_win = (box >> CATEGORY_SHIFT) < int(Category.STRAIGHT)
        won = np.where(small_win, staked - 1.0, staked)  # the ante pushes on a small win
        return np.where(box > dealer, won, np.where(box < dealer, -staked, 0.0))

    def _play(self, actions: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """The money each table's round returns on this step (0 while it goes on), per ante."""
        result = np.zeros(self.tables, np.float64)
        first = self._phase == 0
        folds = first & (actions == 0)
        result[folds] = -1.0
        self._staked[first & (actions == 1)] += 2.0
        self._staked[~first & (actions == 1)] += 1.0
        last = self._phase == len(PHASES) - 1
        result[last] = self._settle(self._rows[last])
        self._ended = folds | last
        self._phase[~self._ended] += 1
        return result

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Obs, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        """One decision at every table; tables whose round ended deal their next one."""
        result = self._play(self.checked_actions(actions))
        ended = self._ended
        info = {"result": result, "dealt": self._cards.copy(), "staked": self._staked.copy()}
        self._deal_some(self._rows[ended])
        info.update(self._info())
        return self._observe(), result, ended, np.zeros(self.tables, np.bool_), info
