"""Pai Gow (抢庄牌九) for learning: bid, bet and reveal as action indices; a seat's view as a vector.

Actions (`PaigowEncoder.actions`): `bid m` for m in 0 (no bid) and the table's `bid_choices`, then
`bet m` for each of `bet_choices`, then `reveal`. Seats are the four of the table, in its
(clockwise) order; the observation lists seats from the observer on, clockwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from qipai.core.protocol import JSON, ActionSpec
from qipai.envs.base import Encoder, Segment, Table, Vector
from qipai.envs.features import TILE_TYPES, one_hot, ratio, relative, tile_counts

PHASES = ("bid", "bet", "reveal", "finished")
SEATS = 4
HAND_RANKS = 32  # 1 = 至尊宝 … 22 = 地高九, 23 = 9 points … 32 = 0 points


class PaigowEncoder(Encoder):
    game = "paigow"
    default_players = 4

    def __init__(self, config: Any, players: int, ladder: Sequence[int] | None = None) -> None:
        super().__init__(config, players, ladder)
        self.bids: tuple[int, ...] = (0, *config.bid_choices)
        self.bets: tuple[int, ...] = tuple(config.bet_choices)
        self.actions = (
            *(f"bid {m}" if m else "bid 0 (no bid)" for m in self.bids),
            *(f"bet {m}" for m in self.bets),
            "reveal",
        )
        self._top_bid = max(self.bids)
        self._top_bet = max(self.bets)
        self.segments = (
            Segment("phase", len(PHASES), 0, 1, "one-hot: bid, bet, reveal, finished"),
            Segment("round", 2, 0, 1, "one-hot: round 1 or 2 of the game (two rounds, one set)"),
            Segment("my_tiles", TILE_TYPES, 0, 2, "own tiles once dealt: count per tile kind"),
            Segment(
                "my_hand", 2, 0, 1, "own hand once dealt: (33 − rank)/32 (1 = 至尊宝), points/9"
            ),
            Segment("seen_tiles", TILE_TYPES, 0, 2, "round 2: round 1's tiles, per kind"),
            Segment("bid_made", SEATS, 0, 1, "per seat from me, clockwise: has bid"),
            Segment("bids", SEATS, 0, 1, "per seat: bid / the highest bid choice"),
            Segment("banker", SEATS, 0, 1, "one-hot per seat: the banker (once chosen)"),
            Segment("banker_multiple", 1, 0, 1, "the banker's multiple / the highest bid choice"),
            Segment("bets", SEATS, 0, 1, "per seat: bet / the highest bet choice"),
            Segment("ready", SEATS, 0, 1, "per seat: has signalled `reveal`"),
            Segment("bias", 1, 0, 1, "always 1"),
        )

    def player_range(self, spec_min: int, spec_max: int) -> tuple[int, int]:
        return SEATS, SEATS

    def encode(self, table: Table, seat: str, view: JSON) -> Vector:
        by_id = {s["id"]: s for s in view["seats"]}
        order = [by_id[s] for s in relative([s["id"] for s in view["seats"]], seat)]
        me = by_id[seat]
        hand = me.get("hand")
        return self.vector(
            {
                "phase": one_hot(PHASES.index(view["phase"]), len(PHASES)),
                "round": one_hot(int(view["round"]) - 1, 2),
                "my_tiles": tile_counts(t["pips"] for t in me["tiles"] or ()),
                "my_hand": [
                    (HAND_RANKS + 1 - hand["rank"]) / HAND_RANKS if hand else 0.0,
                    hand["points"] / 9 if hand else 0.0,
                ],
                "seen_tiles": tile_counts(t["pips"] for t in view.get("seen_tiles") or ()),
                "bid_made": [float(s["bid"] is not None) for s in order],
                "bids": [ratio(s["bid"], self._top_bid) for s in order],
                "banker": [float(bool(s["banker"])) for s in order],
                "banker_multiple": ratio(view.get("banker_multiple"), self._top_bid),
                "bets": [ratio(s["bet"], self._top_bet) for s in order],
                "ready": [float(bool(s["ready"])) for s in order],
                "bias": 1.0,
            }
        )

    def legal(self, table: Table, seat: str, specs: Sequence[ActionSpec]) -> list[int]:
        out: list[int] = []
        for spec in specs:
            if spec.type == "bid":
                out += [self.bids.index(m) for m in spec.options["choices"]]
            elif spec.type == "bet":
                out += [len(self.bids) + self.bets.index(m) for m in spec.options["choices"]]
            elif spec.type == "reveal":
                out.append(len(self.actions) - 1)
        return sorted(out)

    def action(self, table: Table, seat: str, index: int) -> JSON:
        if index < len(self.bids):
            return {"type": "bid", "multiple": self.bids[index]}
        if index < len(self.bids) + len(self.bets):
            return {"type": "bet", "multiple": self.bets[index - len(self.bids)]}
        return {"type": "reveal"}
