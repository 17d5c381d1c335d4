"""A tiny test game ("high card") for the table runtime: a simultaneous betting phase with a
countdown, then a turn-based swap phase, hidden cards until the showdown.

Betting: every seat bets 1..min(10, stack) (silence = 1). Swap: in seat order each seat may
"stand" or "swap" its card for the next card of the deck (silence = stand). Showdown: the highest
card (rank, then suit) wins every other seat's bet. It exists only to test `qipai.tables`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

from qipai.core.cards import Card, standard_deck
from qipai.core.errors import IllegalAction, InvalidInput, OutOfTurn, WrongPhase
from qipai.core.protocol import (
    JSON,
    ActionSpec,
    Event,
    NextRound,
    Posting,
    Round,
    RoundResult,
    Seat,
)
from qipai.core.rng import Rng


@dataclass(frozen=True)
class ToyConfig:
    max_bet: int = 10
    bet_s: float = 10.0
    swap_s: float = 5.0

    def to_json(self) -> JSON:
        return {"max_bet": self.max_bet, "bet_s": self.bet_s, "swap_s": self.swap_s}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ToyConfig:
        return cls(
            int(data.get("max_bet", 10)), float(data.get("bet_s", 10)), float(data.get("swap_s", 5))
        )


class ToyRound(Round[ToyConfig]):
    game = "toy"

    def __init__(
        self, config: ToyConfig, seats: Sequence[Seat], deck: list[Card], number: int
    ) -> None:
        super().__init__(config, seats)
        self.deck = deck
        self.cards: dict[str, Card] = {s.id: deck.pop() for s in seats}
        self.bets: dict[str, int] = {}
        self.turn = 0
        self.number = number
        self._phase = "betting"

    @classmethod
    def start(
        cls,
        config: ToyConfig,
        seats: Sequence[Seat],
        rng: Rng,
        context: Mapping[str, Any] | None = None,
    ) -> Self:
        if len(seats) < 2:
            raise InvalidInput("toy needs two seats")
        deck = standard_deck()
        rng.fork("deck").shuffle(deck)
        number = int((context or {}).get("number", 0))
        return cls(config, seats, deck, number)

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def deadline_s(self) -> float | None:
        return {"betting": self.config.bet_s, "swap": self.config.swap_s}.get(self._phase)

    def awaiting(self) -> list[str]:
        if self._phase == "betting":
            return [s.id for s in self.seats if s.id not in self.bets]
        if self._phase == "swap":
            return [self.seats[self.turn].id]
        return []

    def _max(self, seat: str) -> int:
        stack = next(s.stack for s in self.seats if s.id == seat)
        return max(1, min(self.config.max_bet, stack))

    def legal_actions(self, seat: str) -> list[ActionSpec]:
        if seat not in self.awaiting():
            return []
        if self._phase == "betting":
            return [ActionSpec("bet", {"min": 1, "max": self._max(seat)})]
        return [ActionSpec("stand"), ActionSpec("swap")]

    def _check(self, seat: str, action: Mapping[str, Any]) -> Any:
        kind = action["type"]
        if self._phase == "betting":
            if kind != "bet":
                raise WrongPhase(f"{kind!r} is not allowed while betting")
            if seat in self.bets:
                raise IllegalAction("already bet")
            amount = action.get("amount")
            if not isinstance(amount, int) or isinstance(amount, bool):
                raise InvalidInput("amount must be an integer")
            if not 1 <= amount <= self._max(seat):
                raise IllegalAction(f"bet must be 1..{self._max(seat)}")
            return ("bet", amount)
        if kind not in ("stand", "swap"):
            raise WrongPhase(f"{kind!r} is not allowed in the swap phase")
        if seat != self.seats[self.turn].id:
            raise OutOfTurn("not your turn")
        return (kind, 0)

    def _apply(self, seat: str, checked: Any) -> list[Event]:
        kind, amount = checked
        if kind == "bet":
            self.bets[seat] = amount
            events = [Event("bet", {"seat": seat, "amount": amount})]
            if len(self.bets) == len(self.seats):
                self._phase = "swap"
                events.append(Event("phase", {"phase": "swap"}))
            return events
        events = []
        if kind == "swap":
            self.cards[seat] = self.deck.pop()
            events.append(Event("swapped", {"seat": seat}))
            events.append(Event("new_card", {"card": str(self.cards[seat])}, to=(seat,)))
        else:
            events.append(Event("stood", {"seat": seat}))
        self.turn += 1
        if self.turn == len(self.seats):
            self._phase = "finished"
            events.append(Event("showdown", {"cards": {k: str(v) for k, v in self.cards.items()}}))
        return events

    def _expire(self) -> list[Event]:
        if self._phase == "betting":
            events: list[Event] = []
            for seat in self.awaiting():
                events += self._apply(seat, ("bet", 1))
            return events
        return self._apply(self.seats[self.turn].id, ("stand", 0))

    def view(self, seat: str | None) -> JSON:
        done = self._phase == "finished"
        return {
            "game": "toy",
            "phase": self._phase,
            "number": self.number,
            "bets": dict(self.bets),
            "turn": self.seats[self.turn].id if self._phase == "swap" else None,
            "cards": {
                s.id: (str(self.cards[s.id]) if done or s.id == seat else None) for s in self.seats
            },
        }

    def winner(self) -> str:
        return max(self.cards, key=lambda s: (self.cards[s].rank, self.cards[s].suit))

    def result(self) -> RoundResult:
        self.require_finished()
        win = self.winner()
        postings = [Posting(s, -b, "bet") for s, b in self.bets.items() if s != win]
        postings.append(Posting(win, -sum(p.amount for p in postings), "win"))
        return RoundResult(tuple(postings), {"winner": win})

    def next_round(self) -> NextRound:
        self.require_finished()
        return NextRound(reuse_seed=False, context={"number": self.number + 1})


ROUND = ToyRound
CONFIG = ToyConfig
