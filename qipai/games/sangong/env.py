"""San Gong (抢庄三公) for learning: bids, bets and the show as action indices.

Actions (`SangongEncoder.actions`): `bid m` for m in 0 (no bid) and the table's `bid_multiples`,
then `bet m` for each of `bet_multiples`, then `show`. Seats are the table's (A, B, C, …) in
order; the observation lists them from the observer on. The bid and the bet come before the
deal (rules/en.md), so during them `my_cards` is empty: what a seat knows then is the table,
the stacks and the choices made so far.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from qipai.core.protocol import JSON, ActionSpec
from qipai.envs.base import Encoder, Segment, Table, Vector
from qipai.envs.features import CARDS, cards_one_hot, one_hot, ratio, relative
from qipai.games.sangong.hands import HandType

PHASES = ("bid", "bet", "show", "finished")
TYPES = len(HandType)


class SangongEncoder(Encoder):
    game = "sangong"
    default_players = 5

    def __init__(self, config: Any, players: int, ladder: Sequence[int] | None = None) -> None:
        super().__init__(config, players, ladder)
        self.bids: tuple[int, ...] = (0, *config.bid_multiples)
        self.bets: tuple[int, ...] = tuple(config.bet_multiples)
        self.actions = (
            *(f"bid {m}" if m else "bid 0 (no bid)" for m in self.bids),
            *(f"bet {m}" for m in self.bets),
            "show",
        )
        self._top_bid = max(self.bids)
        self._top_bet = max(self.bets)
        n = players
        self.segments = (
            Segment("phase", len(PHASES), 0, 1, "one-hot: bid, bet, show, finished"),
            Segment("my_cards", CARDS, 0, 1, "own three cards once dealt: 52 flags"),
            Segment("my_type", TYPES, 0, 1, "one-hot: own hand type (0–9 points, 三公, 三条)"),
            Segment("my_courts", 1, 0, 1, "own court cards / 3"),
            Segment("shown_cards", CARDS, 0, 1, "other seats' cards shown so far: 52 flags"),
            Segment("shown", n, 0, 1, "per seat from me: has shown its cards"),
            Segment("bid_made", n, 0, 1, "per seat: has bid"),
            Segment("bids", n, 0, 1, "per seat: bid / the highest bid multiple"),
            Segment("banker", n, 0, 1, "one-hot per seat: the banker (once chosen)"),
            Segment("banker_multiple", 1, 0, 1, "the banker's multiple / the highest bid"),
            Segment("bets", n, 0, 1, "per seat: bet / the highest bet multiple"),
            Segment("stacks", n, 0, 1, "per seat: stack at the table / the env's stack"),
            Segment("bias", 1, 0, 1, "always 1"),
        )

    def player_range(self, spec_min: int, spec_max: int) -> tuple[int, int]:
        # The card room's table has five seats; the rules (and the config) allow two to six.
        return self.config.min_seats, self.config.max_seats

    def seat_ids(self, spec_seats: Sequence[str]) -> tuple[str, ...]:
        seats = list(spec_seats)
        while len(seats) < self.players:
            seats.append(chr(ord(seats[-1]) + 1))
        return tuple(seats[: self.players])

    def encode(self, table: Table, seat: str, view: JSON) -> Vector:
        by_id = {s["id"]: s for s in view["seats"]}
        order = [by_id[s] for s in relative([s["id"] for s in view["seats"]], seat)]
        me = view["me"]
        hand = me.get("hand")
        others = [c for s in order[1:] for c in (s["cards"] or [])]
        return self.vector(
            {
                "phase": one_hot(PHASES.index(view["phase"]), len(PHASES)),
                "my_cards": cards_one_hot(me["cards"]),
                "my_type": one_hot(HandType[hand["type"].upper()] if hand else None, TYPES),
                "my_courts": ratio(hand["courts"] if hand else None, 3),
                "shown_cards": cards_one_hot(others),
                "shown": [float(bool(s["shown"])) for s in order],
                "bid_made": [float(s["bid"] is not None) for s in order],
                "bids": [ratio(s["bid"], self._top_bid) for s in order],
                "banker": [float(bool(s["is_banker"])) for s in order],
                "banker_multiple": ratio(view.get("banker_multiple"), self._top_bid),
                "bets": [ratio(s["bet"], self._top_bet) for s in order],
                "stacks": [ratio(s["stack"], table.stack) for s in order],
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
            elif spec.type == "show":
                out.append(len(self.bids) + len(self.bets))
        return sorted(out)

    def action(self, table: Table, seat: str, index: int) -> JSON:
        if index < len(self.bids):
            return {"type": "bid", "multiple": self.bids[index]}
        index -= len(self.bids)
        if index < len(self.bets):
            return {"type": "bet", "multiple": self.bets[index]}
        return {"type": "show"}
