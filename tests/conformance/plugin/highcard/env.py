"""High card for learning: the phase, the own card's rank, the antes; actions ante 1..max, keep,
switch."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from qipai.core.cards import parse_card
from qipai.core.protocol import JSON, ActionSpec
from qipai.envs.base import Encoder, Segment, Table, Vector
from qipai.envs.features import one_hot, ratio

PHASES = ("ante", "draw", "finished")


class HighCardEncoder(Encoder):
    game = "highcard"
    default_players = 2

    def __init__(self, config: Any, players: int, ladder: Sequence[int] | None = None) -> None:
        super().__init__(config, players, ladder)
        self.antes = tuple(range(1, config.max_ante + 1))
        self.actions = ("keep", "switch", *(f"ante {a}" for a in self.antes))
        self.segments = (
            Segment("phase", len(PHASES), 0, 1, "one-hot: ante, draw, finished"),
            Segment("card", 1, 0, 1, "own card's rank / 14 (0: none yet)"),
            Segment("ante", 1, 0, 1, "own ante / the most allowed"),
        )

    def encode(self, table: Table, seat: str, view: JSON) -> Vector:
        me = view["me"]
        card = me["card"]
        return self.vector(
            {
                "phase": one_hot(PHASES.index(view["phase"]), len(PHASES)),
                "card": 0.0 if card is None else parse_card(card).rank / 14,
                "ante": ratio(me["ante"] or 0, self.config.max_ante),
            }
        )

    def legal(self, table: Table, seat: str, specs: Sequence[ActionSpec]) -> list[int]:
        out: list[int] = []
        for spec in specs:
            if spec.type in ("keep", "switch"):
                out.append(self.actions.index(spec.type))
            elif spec.type == "ante":
                out += [2 + i for i, a in enumerate(self.antes) if a <= spec.options["max"]]
        return sorted(out)

    def action(self, table: Table, seat: str, index: int) -> JSON:
        if index < 2:
            return {"type": self.actions[index]}
        return {"type": "ante", "amount": self.antes[index - 2]}
