"""Swap Niu Niu (换牌牛牛) for learning: swaps, bids and bets as action indices.

Actions (`NiuniuEncoder.actions`): 16 swaps first — index k swaps the cards at the positions whose
bits are set in k (bit i = the i-th of the seat's four cards as its view lists them; 0 keeps all)
— then `bid m` for m in 0 (no bid) and the table's `bid_multiples`, then `bet m` for each of
`bet_multiples`. Seats are the table's (A, B, C, D, …) in order; the observation lists them from
the observer on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from qipai.core.protocol import JSON, ActionSpec
from qipai.envs.base import Encoder, Segment, Table, Vector
from qipai.envs.features import CARDS, cards_one_hot, one_hot, ratio, relative

PHASES = ("swap", "bid", "bet", "finished")
SWAPS = 16
MAX_MULTIPLIER = 5  # 五小牛, the largest hand multiplier


def swap_label(k: int) -> str:
    picked = [str(i + 1) for i in range(4) if k >> i & 1]
    return "swap none" if not picked else "swap cards " + "+".join(picked)


class NiuniuEncoder(Encoder):
    game = "niuniu"
    default_players = 4

    def __init__(self, config: Any, players: int, ladder: Sequence[int] | None = None) -> None:
        super().__init__(config, players, ladder)
        self.bids: tuple[int, ...] = (0, *config.bid_multiples)
        self.bets: tuple[int, ...] = tuple(config.bet_multiples)
        self.actions = (
            *(swap_label(k) for k in range(SWAPS)),
            *(f"bid {m}" if m else "bid 0 (no bid)" for m in self.bids),
            *(f"bet {m}" for m in self.bets),
        )
        self._top_bid = max(self.bids)
        self._top_bet = max(self.bets)
        n = players
        self.segments = (
            Segment("phase", len(PHASES), 0, 1, "one-hot: swap, bid, bet, finished"),
            Segment("my_cards", CARDS, 0, 1, "own cards (4, then 5 at the reveal): 52 flags"),
            Segment(
                "swap_ev",
                SWAPS,
                -1,
                1,
                "swap phase, before confirming, if the table's `hints` is on: the exact expected "
                "net against the banker per unit of stake, after the commission, / 5 (the most a "
                "hand can win or lose per unit) of each swap index — the hint's money objective; "
                "else 0",
            ),
            Segment("swap_confirmed", n, 0, 1, "per seat from me: has confirmed its swap"),
            Segment("swapped", n, 0, 1, "per seat: cards swapped / 4 (public after the swap)"),
            Segment("bid_made", n, 0, 1, "per seat: has bid"),
            Segment("bids", n, 0, 1, "per seat: bid / the highest bid multiple"),
            Segment("banker", n, 0, 1, "one-hot per seat: the banker (once chosen)"),
            Segment("banker_multiple", 1, 0, 1, "the banker's multiple / the highest bid"),
            Segment("bets", n, 0, 1, "per seat: bet / the highest bet multiple"),
            Segment("stacks", n, 0, 1, "per seat: balance at the table / the env's stack"),
            Segment("bias", 1, 0, 1, "always 1"),
        )

    def player_range(self, spec_min: int, spec_max: int) -> tuple[int, int]:
        # The card room's table has four seats; the rules (and the config) allow up to five.
        return self.config.min_seats, self.config.max_seats

    def seat_ids(self, spec_seats: Sequence[str]) -> tuple[str, ...]:
        seats = list(spec_seats)
        while len(seats) < self.players:  # the card room has 4 seats; the rules allow 5
            seats.append(chr(ord(seats[-1]) + 1))
        return tuple(seats[: self.players])

    def _swap_evs(self, view: JSON) -> list[float]:
        hint = (view.get("me") or {}).get("hint")
        out = [0.0] * SWAPS
        if not hint:
            return out
        cards = view["me"]["cards"]
        for choice in hint["choices"]:
            k = sum(1 << cards.index(c) for c in choice["discard"])
            out[k] = float(choice["expected_net"]) / MAX_MULTIPLIER
        return out

    def encode(self, table: Table, seat: str, view: JSON) -> Vector:
        by_id = {s["id"]: s for s in view["seats"]}
        order = [by_id[s] for s in relative([s["id"] for s in view["seats"]], seat)]
        return self.vector(
            {
                "phase": one_hot(PHASES.index(view["phase"]), len(PHASES)),
                "my_cards": cards_one_hot(view["me"]["cards"]),
                "swap_ev": self._swap_evs(view),
                "swap_confirmed": [float(bool(s["swap_confirmed"])) for s in order],
                "swapped": [ratio(s["swapped"], 4) for s in order],
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
            if spec.type == "swap":
                out += range(SWAPS)
            elif spec.type == "bid":
                out += [SWAPS + self.bids.index(m) for m in spec.options["choices"]]
            elif spec.type == "bet":
                base = SWAPS + len(self.bids)
                out += [base + self.bets.index(m) for m in spec.options["choices"]]
        return sorted(out)

    def action(self, table: Table, seat: str, index: int) -> JSON:
        if index < SWAPS:
            cards = table.round.view(seat)["me"]["cards"]
            return {"type": "swap", "cards": [c for i, c in enumerate(cards) if index >> i & 1]}
        index -= SWAPS
        if index < len(self.bids):
            return {"type": "bid", "multiple": self.bids[index]}
        return {"type": "bet", "multiple": self.bets[index - len(self.bids)]}
