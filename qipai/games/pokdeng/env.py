"""Pok Deng (博丁) for learning: chips on the table's spots as action indices, the shoe as features.

Actions (`PokDengEncoder.actions`): 0 `done` (no more bets this round); then, for each spot of the
table's mode (classic: P1–P5, P1 pair–P5 pair; banker-player adds B1–B5 and B pair) and each step
of the ladder (default 1, 2, 5, 10, 25, 50, 100), `bet <spot> <m × the spot's minimum>` — chips
added to that spot. A chip is legal when the spot's total stays within its limits and the stake
plus hold (2× on position bets) fits in what the seat has left. An agent bets until it chooses
`done`; the cards are dealt when every agent is done.

The shoe spans rounds: `reset()` without a seed deals the shoe's next round, and the observation
counts the cards of every rank seen face up in this shoe so far (the burn cards are never seen).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from qipai.core.cards import RANK_CHARS, parse_card
from qipai.core.protocol import JSON, ActionSpec
from qipai.envs.base import Encoder, Segment, Table, Vector
from qipai.envs.batch import BatchEnv, Obs, Reward
from qipai.envs.features import one_hot, ratio, relative

PHASES = ("betting", "finished")
POSITIONS = ("P1", "P2", "P3", "P4", "P5")
RESULTS = ("win", "lose", "tie")
SHOE_ROUNDS = 40.0  # round_in_shoe is observed / this, capped at 1 (an 8-deck shoe deals ~25)


class PokDengEncoder(Encoder):
    game = "pokdeng"
    default_players = 2
    uses_ladder = True

    def __init__(self, config: Any, players: int, ladder: Sequence[int] | None = None) -> None:
        super().__init__(config, players, ladder)
        steps = self.ladder_steps(ladder)
        self.steps = steps
        self.spots: tuple[str, ...] = tuple(config.spots)
        limits = config.spots_json
        self.chips = tuple(
            (spot, m * limits[spot]["min"]) for spot in self.spots for m in self.steps
        )
        self.actions = ("done", *(f"bet {spot} {amount}" for spot, amount in self.chips))
        n, s = players, len(self.spots)
        self.segments = (
            Segment("phase", len(PHASES), 0, 1, "one-hot: betting, finished"),
            Segment("my_bets", s, 0, 1, "per spot (the mode's order): own total / spot maximum"),
            Segment("spot_totals", s, 0, 1, "per spot: every player's total / spot maximum"),
            Segment("available", 1, 0, 1, "own stack not yet taken (stake + hold) / env stack"),
            Segment("done", n, 0, 1, "per player from me, seat order: has confirmed"),
            Segment(
                "shoe_seen",
                len(RANK_CHARS),
                0,
                1,
                "per rank 2…A: cards seen face up in this shoe / (4 × decks)",
            ),
            Segment("shoe_used", 1, 0, 1, "cards used from the shoe / its size (burns included)"),
            Segment("round_in_shoe", 1, 0, 1, f"round number in the shoe / {SHOE_ROUNDS:g}"),
            Segment(
                "road",
                len(POSITIONS) * len(RESULTS),
                0,
                1,
                "per position P1–P5: wins, losses, ties against the banker this shoe / rounds",
            ),
            Segment("bias", 1, 0, 1, "always 1"),
        )

    def player_range(self, spec_min: int, spec_max: int) -> tuple[int, int]:
        return 1, spec_max

    # ----- the shoe's public history ------------------------------------------------------------
    def start(self, table: Table, previous: Table | None) -> None:
        seen = np.zeros(len(RANK_CHARS), np.float32)
        if previous is not None:
            seen += previous.extra["seen"]
            cards = previous.round.view(None)["cards"] or {}
            for hand in cards.values():
                for text in hand:
                    seen[parse_card(text).rank - 2] += 1
        table.extra["seen"] = seen

    def encode(self, table: Table, seat: str, view: JSON) -> Vector:
        spots = view["spots"]
        me = view["me"]
        mine = me["bets"]
        done = {p["id"]: p["done"] for p in view["players"]}
        seen = table.extra["seen"].copy()
        for hand in (view.get("cards") or {}).values():
            for text in hand:
                seen[parse_card(text).rank - 2] += 1
        shoe = view["shoe"]
        counts = view["road"]["counts"]
        rounds = max(1, sum(counts["P1"].values()))
        return self.vector(
            {
                "phase": one_hot(PHASES.index(view["phase"]), len(PHASES)),
                "my_bets": [ratio(mine.get(s, 0), spots[s]["max"]) for s in self.spots],
                "spot_totals": [
                    ratio(view["spot_totals"].get(s, 0), spots[s]["max"]) for s in self.spots
                ],
                "available": ratio(me["available"], table.stack),
                "done": [float(done[s]) for s in relative(list(table.seats), seat)],
                "shoe_seen": seen / (4 * self.config.decks),
                "shoe_used": ratio(
                    shoe["cards_used"], shoe["cards_used"] + shoe["cards_remaining"]
                ),
                "round_in_shoe": min(1.0, shoe["round"] / SHOE_ROUNDS),
                "road": [counts[p][r] / rounds for p in POSITIONS for r in RESULTS],
                "bias": 1.0,
            }
        )

    def legal(self, table: Table, seat: str, specs: Sequence[ActionSpec]) -> list[int]:
        out: list[int] = []
        for spec in specs:
            if spec.type == "done":
                out.append(0)
            elif spec.type == "bet":
                spots = spec.options["spots"]
                available = spec.options["available"]
                current = spec.options["current"]
                for i, (spot, chip) in enumerate(self.chips):
                    limits = spots[spot]
                    total = current.get(spot, 0) + chip
                    if (
                        limits["min"] <= total <= limits["max"]
                        and limits["hold"] * chip <= available
                    ):
                        out.append(1 + i)
        return sorted(out)

    def action(self, table: Table, seat: str, index: int) -> JSON:
        if index == 0:
            return {"type": "done"}
        spot, amount = self.chips[index - 1]
        return {"type": "bet", "spot": spot, "amount": amount}


class PokDengBatch(BatchEnv):
    """Pok Deng, one player position against the banker at many tables (qipai.envs.batch).

    Before the deal a player knows nothing that changes a bet's value (each round is dealt off
    the top of a full shoe: the distribution `qipai rtp pokdeng` prices), so the observation is
    a constant and the decision is which bet to make: `sit out`, `P1` (the position bet),
    `P1 pair`, and in banker-player mode `B1`, one unit each. A round's result per unit is the
    game's own `payout.spot_rule` for the two dealt hands (before rounding to minor units)."""

    game = "pokdeng"
    observation_size = 1

    def __init__(
        self,
        tables: int,
        mode: str = "classic",
        decks: int = 8,
        reward: Reward = "result",
        force_play: bool = False,
    ) -> None:
        super().__init__(tables, reward, force_play)
        from qipai.games.pokdeng.analysis import analyse
        from qipai.games.pokdeng.config import PokDengConfig
        from qipai.games.pokdeng.hands import HAND_TABLE, KLASS_COUNT
        from qipai.games.pokdeng.payout import rule_tables

        self.config = PokDengConfig.parse({"mode": mode, "decks": decks})
        spots = ["P1", "P1 pair"] + (["B1"] if self.config.mode == "banker-player" else [])
        self.actions = ("sit out", *spots)
        tables_by_spot = rule_tables(self.config)
        # net per unit by [spot, player klass, banker klass]
        self._nets = np.zeros((len(spots), KLASS_COUNT, KLASS_COUNT), np.float64)
        for i, spot in enumerate(spots):
            table, _ = tables_by_spot[spot]
            for k in range(KLASS_COUNT):
                for b in range(KLASS_COUNT):
                    rule = table[k][b]
                    if rule is not None:
                        self._nets[i, k, b] = rule.num / rule.den
        self._klass = np.array([h.klass for h in HAND_TABLE], np.int64)  # by a * 52 + b
        report = analyse(config=self.config)
        evs = {b.bet: float(b.ev) for b in report.bets}
        by_spot = {"P1": evs["Pn"], "B1": evs.get("Bn", 0.0)}
        by_spot["P1 pair"] = next(v for k, v in evs.items() if "pair" in k)
        self._ev = np.array([0.0, *(by_spot[s] for s in spots)], np.float64)
        self._cards = np.zeros((tables, 4), np.int64)

    def _deal(self) -> None:
        # Four distinct cards of the shoe (52·decks): the position's two and the banker's two.
        size = 52 * self.config.decks
        ids = self._rng.integers(0, size, (self.tables, 4))
        while True:
            s = np.sort(ids, axis=1)
            dup = (s[:, 1:] == s[:, :-1]).any(axis=1)
            if not dup.any():
                break
            ids[dup] = self._rng.integers(0, size, (int(dup.sum()), 4))
        self._cards = ids % 52

    def _play(self, actions: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        c = self._cards
        player = self._klass[c[:, 0] * 52 + c[:, 1]]
        banker = self._klass[c[:, 2] * 52 + c[:, 3]]
        spot = np.maximum(actions - 1, 0)
        net = self._nets[spot, player, banker]
        return np.where(actions == 0, 0.0, net)

    def observe(self) -> Obs:
        return np.ones((self.tables, 1), np.float32)

    def action_mask(self) -> npt.NDArray[np.bool_]:
        mask = np.ones((self.tables, len(self.actions)), np.bool_)
        if self.force_play:
            mask[:, 0] = False
        return mask

    def exact_values(self) -> npt.NDArray[np.float64]:
        return np.broadcast_to(self._ev, (self.tables, len(self.actions)))
