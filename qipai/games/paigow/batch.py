"""Bid-for-banker Pai Gow as a vectorised environment: one player against the banker at many
tables per call (qipai.envs.batch, docs/envs.md).

The player's one decision in a round is its bet multiple Y (docs/rules/paigow.md#betting), made
before the tiles are dealt; the tiles of a two-tile hand have a single arrangement, so the rest
of the round is the game's comparison (docs/rules/paigow.md#hand-order) and settlement
(docs/rules/paigow.md#settlement): the loser of the pairing pays A·X·Y, equal hands go by the
tie policy, the winner pays the commission on its net win. Every step is the first round of a
freshly shuffled set of 32 tiles: the player and the banker hold two tiles each, uniformly among
the disjoint pairs. (Round 2 of a set would also show the eight tiles seen in round 1; its exact
value needs an enumeration per table, so it is not offered here.)

Results and exact values are in units of A·X (the table's base times the banker's multiple):
a bet of multiple Y that wins returns Y·(1 − commission), loses −Y, pushes 0. The exact value of
bet Y is Y times the player's exact expectation per unit from `qipai.games.paigow.analysis`.
The bet is not limited by the stack (docs/rules/paigow.md#betting) and stacks are taken as large
enough that the cap never applies, as the exact figure assumes.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np
import numpy.typing as npt

from qipai.core.errors import InvalidInput
from qipai.envs.batch import BatchEnv, Obs, Reward
from qipai.games.paigow.config import PaigowConfig

TILES = 32
PAIRS = TILES * (TILES - 1) // 2  # 496 two-tile hands
_PAIRS = np.array(list(combinations(range(TILES), 2)), np.int64)


class PaigowBatch(BatchEnv):
    """Pai Gow, the player's bet multiple against the banker at many tables (module docstring).

    Observation: a constant 1 (before the deal the player knows nothing that changes the
    value of a bet). Actions: `bet Y` for each of the table's `bet_choices`. `force_play` has
    no effect: the game has no sitting out (silence bets the lowest multiple).
    `tiles()` gives the dealt hands (tables, 4): the player's two tiles, then the banker's, as
    indices into `qipai.core.tiles.full_set()`. Settings (`base`, `commission`, `tie_policy`,
    `high_nine`, `bet_choices`, …) are the table's (`PaigowConfig`)."""

    game = "paigow"
    observation_size = 1

    def __init__(
        self,
        tables: int,
        reward: Reward = "result",
        force_play: bool = False,
        **settings: object,
    ) -> None:
        from qipai.core.money import to_rate
        from qipai.games.paigow.analysis import _verdict_codes, hands_table, player_figures

        super().__init__(tables, reward, force_play)
        try:
            self.config = PaigowConfig.model_validate(settings)
        except ValueError as exc:
            raise InvalidInput(f"Pai Gow settings: {exc}") from exc
        config = self.config
        self.actions = tuple(f"bet {m}" for m in config.bet_choices)
        self._multiples = np.array(config.bet_choices, np.float64)
        rate = to_rate(config.commission)
        # The player's net per unit of A·X for each verdict code of the analysis (_ORDER:
        # player wins, push, banker wins with the higher hand, banker wins equal hands).
        per_code = np.array([float(1 - rate), 0.0, -1.0, -1.0])
        _, strength, _ = hands_table(config.high_nine)
        codes = _verdict_codes(config.high_nine, config.tie_policy)  # [banker, player]
        # net[banker pair, player pair]: the pairing's result for every two hands
        self._net = np.ascontiguousarray(per_code[codes][strength][:, strength])
        ev = Fraction(player_figures(config.high_nine, config.tie_policy, rate).rtp) - 1
        self.ev_per_unit = ev
        self._ev = np.broadcast_to(self._multiples * float(ev), (tables, len(self.actions)))
        self._player = np.zeros(tables, np.int64)
        self._banker = np.zeros(tables, np.int64)

    def _deal(self) -> None:
        """Two disjoint uniformly random pairs per table (rejection: redraw the banker's pair
        where it shares a tile with the player's; about 12 % of draws)."""
        rng = self._rng
        player = rng.integers(0, PAIRS, self.tables)
        banker = rng.integers(0, PAIRS, self.tables)
        a, b = _PAIRS[player].T
        while True:
            c, d = _PAIRS[banker].T
            clash = np.nonzero((a == c) | (a == d) | (b == c) | (b == d))[0]
            if clash.size == 0:
                break
            banker[clash] = rng.integers(0, PAIRS, clash.size)
        self._player, self._banker = player, banker

    def _play(self, actions: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        result: npt.NDArray[np.float64] = (
            self._net[self._banker, self._player] * self._multiples[actions]
        )
        return result

    def tiles(self) -> npt.NDArray[np.int64]:
        """(tables, 4): the current round's player tiles, then the banker's."""
        return np.concatenate([_PAIRS[self._player], _PAIRS[self._banker]], axis=1)

    def observe(self) -> Obs:
        # a new array each call: callers keep what they were given (Gymnasium's contract)
        return np.ones((self.tables, 1), np.float32)

    def action_mask(self) -> npt.NDArray[np.bool_]:
        return np.ones((self.tables, len(self.actions)), np.bool_)

    def exact_values(self) -> npt.NDArray[np.float64]:
        return self._ev
