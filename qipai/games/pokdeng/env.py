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

from qipai.core.cards import RANK_CHARS, parse_card
from qipai.core.protocol import JSON, ActionSpec
from qipai.envs.base import Encoder, Segment, Table, Vector
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
