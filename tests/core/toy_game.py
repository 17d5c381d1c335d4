"""A tiny game used only by the tests to exercise the game protocol end to end.

"High card": every seat antes 1–3 units (silence = 1), then gets one hidden card; in seat order
each may `keep` or `switch` (replace the card from the deck; silence = keep); the highest card by
id takes all the antes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from qipai.core.cards import Card, standard_deck
from qipai.core.errors import IllegalAction, InvalidInput, OutOfTurn, WrongPhase
from qipai.core.protocol import JSON, ActionSpec, Event, Posting, Round, RoundResult, Seat
from qipai.core.rng import Rng


@dataclass(frozen=True)
class ToyConfig:
    max_ante: int = 3
    countdown_s: float = 5.0

    def to_json(self) -> JSON:
        return {"max_ante": self.max_ante, "countdown_s": self.countdown_s}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ToyConfig:
        return cls(int(data["max_ante"]), float(data["countdown_s"]))


class ToyRound(Round[ToyConfig]):
    game = "toy"

    def __init__(self, config: ToyConfig, seats: Sequence[Seat], deck: list[Card]) -> None:
        super().__init__(config, seats)
        self._phase = "ante"
        self.deck = deck
        self.antes: dict[str, int] = {}
        self.cards: dict[str, Card] = {}
        self.turn = 0

    @classmethod
    def start(
        cls,
        config: ToyConfig,
        seats: Sequence[Seat],
        rng: Rng,
        context: Mapping[str, Any] | None = None,
    ) -> ToyRound:
        deck = standard_deck()
        rng.fork("deck").shuffle(deck)
        return cls(config, seats, deck)

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def deadline_s(self) -> float | None:
        return None if self.finished else self.config.countdown_s

    def awaiting(self) -> list[str]:
        if self._phase == "ante":
            return [s for s in self.seat_ids() if s not in self.antes]
        if self._phase == "draw":
            return [self.seat_ids()[self.turn]]
        return []

    def legal_actions(self, seat: str) -> list[ActionSpec]:
        if seat not in self.awaiting():
            return []
        if self._phase == "ante":
            return [ActionSpec("ante", {"min": 1, "max": self.config.max_ante})]
        return [ActionSpec("keep"), ActionSpec("switch")]

    def _check(self, seat: str, action: Mapping[str, Any]) -> Any:
        kind = action["type"]
        if self._phase == "ante":
            if kind != "ante":
                raise WrongPhase(f"{kind!r} is not allowed while anteing")
            if seat in self.antes:
                raise IllegalAction("you have already anted")
            amount = action.get("amount")
            if isinstance(amount, bool) or not isinstance(amount, int):
                raise InvalidInput("ante amount must be an integer")
            if not 1 <= amount <= self.config.max_ante:
                raise IllegalAction(f"ante must be 1..{self.config.max_ante}")
            return ("ante", amount)
        if kind not in ("keep", "switch"):
            raise WrongPhase(f"{kind!r} is not allowed while drawing")
        if seat != self.seat_ids()[self.turn]:
            raise OutOfTurn(f"it is {self.seat_ids()[self.turn]}'s turn")
        return (kind, None)

    def _apply(self, seat: str, checked: Any) -> list[Event]:
        kind, amount = checked
        if kind == "ante":
            self.antes[seat] = amount
            events = [Event("ante", {"seat": seat, "amount": amount})]
            if len(self.antes) == len(self.seats):
                events += self._deal()
            return events
        events = []
        if kind == "switch":
            self.cards[seat] = self.deck.pop()
            events.append(Event("card", {"seat": seat, "card": str(self.cards[seat])}, (seat,)))
        return events + self._advance()

    def _deal(self) -> list[Event]:
        self._phase = "draw"
        events = []
        for seat in self.seat_ids():
            self.cards[seat] = self.deck.pop()
            events.append(Event("card", {"seat": seat, "card": str(self.cards[seat])}, (seat,)))
        return events

    def _advance(self) -> list[Event]:
        self.turn += 1
        if self.turn == len(self.seats):
            self._phase = "finished"
            return [Event("showdown", {s: str(c) for s, c in self.cards.items()})]
        return []

    def _expire(self) -> list[Event]:
        if self._phase == "ante":
            events = []
            for seat in self.awaiting():
                self.antes[seat] = 1
                events.append(Event("ante", {"seat": seat, "amount": 1, "default": True}))
            return events + self._deal()
        return self._advance()

    def view(self, seat: str | None) -> JSON:
        shown = {s: str(c) for s, c in self.cards.items() if self.finished or s == seat}
        return {"phase": self._phase, "antes": dict(self.antes), "cards": shown}

    def result(self) -> RoundResult:
        self.require_finished()
        winner = max(self.cards, key=lambda s: self.cards[s].id)
        pot = sum(self.antes.values())
        postings = [Posting(s, -a) for s, a in self.antes.items()] + [Posting(winner, pot)]
        return RoundResult(tuple(postings), {"winner": winner})
