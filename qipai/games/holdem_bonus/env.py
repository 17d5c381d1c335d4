"""Texas Hold'em Bonus for learning: the bet ladder and the street decisions as action indices.

Actions (`HoldemBonusEncoder.actions`): 0 `sit out` (confirm without betting: the box is not
dealt); then, for each ante of the ladder (multiples of the table's `ante_min`, default 1, 2, 5,
10, 25, 50, 100 × `ante_min`, those above `ante_max` never legal) the four bets `ante a`, `ante a
+ bonus`, `ante a + pool`, `ante a + bonus + pool` (the bet confirms at once); then `bet the
street` (the flop bet 2 × ante, the turn or the river bet 1 × ante) and `decline` (fold at the
flop, check at the turn or river). Each agent plays its own box (box = its seat, "1", "2", …);
playing vacant boxes (抢押) is left to the card room.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from qipai.core.protocol import JSON, ActionSpec
from qipai.envs.base import Encoder, Segment, Table, Vector
from qipai.envs.features import CARDS, cards_one_hot, one_hot, ratio, relative

PHASES = ("betting", "flop", "turn", "river", "finished")
COMBOS = ((False, False), (True, False), (False, True), (True, True))  # (bonus, pool)
POOL_CAP = 100.0  # the pool balance is observed as balance / seed, capped here


class HoldemBonusEncoder(Encoder):
    game = "holdem-bonus"
    default_players = 2
    uses_ladder = True

    def __init__(self, config: Any, players: int, ladder: Sequence[int] | None = None) -> None:
        super().__init__(config, players, ladder)
        steps = self.ladder_steps(ladder)
        self.antes = tuple(config.ante_min * m for m in steps)
        self.actions = (
            "sit out",
            *(
                f"ante {a}" + (" + bonus" if bonus else "") + (" + pool" if pool else "")
                for a in self.antes
                for bonus, pool in COMBOS
            ),
            "bet the street",
            "decline (fold at the flop, check later)",
        )
        self._bet_street = len(self.actions) - 2
        n = players
        self.segments = (
            Segment("phase", len(PHASES), 0, 1, "one-hot: betting, flop, turn, river, finished"),
            Segment("hole", CARDS, 0, 1, "own box's two hole cards once dealt: 52 flags"),
            Segment("board", CARDS, 0, 1, "community cards shown so far: 52 flags"),
            Segment(
                "my_bets", 6, 0, 1, "own box: ante / ante_max, bonus, pool, flop, turn, river bet"
            ),
            Segment("available", 1, 0, 1, "own stack not yet committed / the env's stack"),
            Segment("antes", n, 0, 1, "per box from mine: ante / ante_max (0 = not playing)"),
            Segment("folded", n, 0, 1, "per box: folded at the flop"),
            Segment("checked", n, 0, 1, "per box: checked the turn (no river bet)"),
            Segment("pool", 1, 0, POOL_CAP, "the jackpot pool at the round's start / its seed"),
            Segment("bonus_table", 1, 0, 1, "1 when the bonus pays small pairs (with-small-pairs)"),
            Segment("bias", 1, 0, 1, "always 1"),
        )

    def seat_ids(self, spec_seats: Sequence[str]) -> tuple[str, ...]:
        return tuple(self.config.boxes[: self.players])

    def player_range(self, spec_min: int, spec_max: int) -> tuple[int, int]:
        return 1, len(self.config.boxes)

    def encode(self, table: Table, seat: str, view: JSON) -> Vector:
        cfg = self.config
        boxes = {b["box"]: b for b in view["boxes"]}
        mine = boxes[seat]
        order = [boxes[s] for s in relative(list(table.seats), seat)]
        bets = mine["bets"]
        me = view.get("me") or {}
        seed = view["pool"]["seed"]
        return self.vector(
            {
                "phase": one_hot(PHASES.index(view["phase"]), len(PHASES)),
                "hole": cards_one_hot(mine["cards"]),
                "board": cards_one_hot(view["board"]),
                "my_bets": [
                    ratio(bets["ante"], cfg.ante_max),
                    float(bets["bonus"] > 0),
                    float(bets["pool"] > 0),
                    float(bets["flop"] > 0),
                    float(bets["turn"] > 0),
                    float(bets["river"] > 0),
                ],
                "available": ratio(me.get("available"), table.stack),
                "antes": [ratio(b["bets"]["ante"], cfg.ante_max) for b in order],
                "folded": [float(b["status"] == "folded") for b in order],
                "checked": [float(b["status"] == "checked") for b in order],
                "pool": ratio(view["pool"]["balance"], seed) if seed else 0.0,
                "bonus_table": float(view["bonus_table"] == "with-small-pairs"),
                "bias": 1.0,
            }
        )

    def legal(self, table: Table, seat: str, specs: Sequence[ActionSpec]) -> list[int]:
        out: list[int] = []
        cfg = self.config
        for spec in specs:
            if spec.type == "done":
                out.append(0)
            elif spec.type == "bet" and seat in spec.options["boxes"]:
                available = spec.options["available"]
                for i, ante in enumerate(self.antes):
                    if not cfg.ante_min <= ante <= cfg.ante_max:
                        continue
                    for j, (bonus, pool) in enumerate(COMBOS):
                        if pool and not cfg.pool_stake:
                            continue
                        cost = 5 * ante + (ante if bonus else 0) + (cfg.pool_stake if pool else 0)
                        if cost <= available:
                            out.append(1 + 4 * i + j)
            elif spec.type in ("flop", "turn", "river") and seat in spec.options["boxes"]:
                out.append(self._bet_street)
            elif spec.type in ("fold", "check") and seat in spec.options["boxes"]:
                out.append(self._bet_street + 1)
        return sorted(out)

    def action(self, table: Table, seat: str, index: int) -> JSON:
        if index == 0:
            return {"type": "done"}
        if index < self._bet_street:
            ante = self.antes[(index - 1) // 4]
            bonus, pool = COMBOS[(index - 1) % 4]
            return {
                "type": "bet",
                "box": seat,
                "ante": ante,
                "bonus": ante if bonus else 0,
                "pool": pool,
                "done": True,
            }
        phase = table.round.phase
        if index == self._bet_street:
            return {"type": phase, "box": seat}
        return {"type": "fold" if phase == "flop" else "check", "box": seat}
