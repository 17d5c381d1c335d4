"""High card's round: ante → draw → finished (the rules are in `__init__.py`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Self

from qipai.core.cards import Card, standard_deck
from qipai.core.errors import IllegalAction, InsufficientStack, OutOfTurn, WrongPhase
from qipai.core.protocol import JSON, ActionSpec, Event, Posting, Round, RoundResult, Seat
from qipai.core.rng import Rng

from . import actions
from .config import HighCardConfig

ANTE, DRAW, FINISHED = "ante", "draw", "finished"


class HighCardRound(Round[HighCardConfig]):
    game = "highcard"
    Action = actions.Action

    def __init__(self, config: HighCardConfig, seats: Sequence[Seat], deck: list[Card]) -> None:
        super().__init__(config, seats)
        self.deck = deck
        self.stacks = {s.id: s.stack for s in seats}
        self.antes: dict[str, int] = {s.id: 0 for s in seats if s.stack == 0}
        self.cards: dict[str, Card] = {}
        self.turn = 0
        self._phase = ANTE
        if len(self.antes) == len(self.seats):
            self._deal()

    @classmethod
    def start(
        cls,
        config: HighCardConfig,
        seats: Sequence[Seat],
        rng: Rng,
        context: Mapping[str, Any] | None = None,
    ) -> Self:
        deck = standard_deck()
        rng.fork("deck").shuffle(deck)
        return cls(config, seats, deck)

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def deadline_s(self) -> float | None:
        return None if self._phase == FINISHED else self.config.countdown_s

    def awaiting(self) -> list[str]:
        if self._phase == ANTE:
            return [s for s in self.seat_ids() if s not in self.antes]
        if self._phase == DRAW:
            return [self.seat_ids()[self.turn]]
        return []

    def legal_actions(self, seat: str) -> list[ActionSpec]:
        if seat not in self.awaiting():
            return []
        if self._phase == ANTE:
            most = min(self.config.max_ante, self.stacks[seat])
            return [ActionSpec("ante", {"min": 1, "max": most})]
        return [ActionSpec("keep"), ActionSpec("switch")]

    def _check(self, seat: str, action: actions.Action) -> actions.Action:
        if self._phase == ANTE:
            if not isinstance(action, actions.Ante):
                raise WrongPhase(f"{action.type!r} is not allowed while anteing")
            if seat in self.antes:
                raise IllegalAction("you have already anted")
            if action.amount > self.config.max_ante:
                raise IllegalAction(f"the ante is 1..{self.config.max_ante}")
            if action.amount > self.stacks[seat]:
                raise InsufficientStack(f"the ante {action.amount} is over the stack")
            return action
        if isinstance(action, actions.Ante):
            raise WrongPhase("the antes are in")
        if seat != self.seat_ids()[self.turn]:
            raise OutOfTurn(f"it is {self.seat_ids()[self.turn]}'s turn")
        return action

    def _apply(self, seat: str, checked: actions.Action) -> list[Event]:
        if isinstance(checked, actions.Ante):
            self.antes[seat] = checked.amount
            events = [Event("ante", {"seat": seat, "amount": checked.amount})]
            if len(self.antes) == len(self.seats):
                events += self._deal()
            return events
        events = []
        if isinstance(checked, actions.Switch):
            self.cards[seat] = self.deck.pop()
            events.append(Event("card", {"seat": seat, "card": str(self.cards[seat])}, (seat,)))
        return events + self._advance()

    def _deal(self) -> list[Event]:
        self._phase = DRAW
        events = []
        for seat in self.seat_ids():
            self.cards[seat] = self.deck.pop()
            events.append(Event("card", {"seat": seat, "card": str(self.cards[seat])}, (seat,)))
        return events

    def _advance(self) -> list[Event]:
        self.turn += 1
        if self.turn == len(self.seats):
            self._phase = FINISHED
            return [Event("showdown", {s: str(c) for s, c in self.cards.items()})]
        return []

    def _expire(self) -> list[Event]:
        if self._phase == ANTE:
            events = []
            for seat in self.awaiting():
                self.antes[seat] = min(1, self.stacks[seat])
                events.append(Event("ante", {"seat": seat, "amount": 1, "default": True}))
            return events + self._deal()
        return self._advance()

    def winner(self) -> str | None:
        if self._phase != FINISHED:
            return None
        return max(self.cards, key=lambda s: self.cards[s].id)

    def view(self, seat: str | None) -> JSON:
        if seat is not None and seat not in self.stacks:
            raise OutOfTurn(f"seat {seat!r} is not in this round")
        shown = {s: str(c) for s, c in self.cards.items() if self._phase == FINISHED}
        me = None
        if seat is not None:
            card = self.cards.get(seat)
            me = {
                "id": seat,
                "stack": self.stacks[seat],
                "ante": self.antes.get(seat),
                "card": None if card is None else str(card),
            }
        return {
            "game": "highcard",
            "phase": self._phase,
            "countdown_s": self.deadline_s,
            "awaiting": self.awaiting(),
            "me": me,
            "antes": dict(self.antes),
            "turn": self.seat_ids()[self.turn] if self._phase == DRAW else None,
            "cards": shown,
            "winner": self.winner(),
        }

    def result(self) -> RoundResult:
        self.require_finished()
        winner = self.winner()
        assert winner is not None
        pot = sum(self.antes.values())
        postings = [Posting(s, -a, "ante") for s, a in self.antes.items() if a]
        postings.append(Posting(winner, pot, "pot"))
        return RoundResult(tuple(postings), {"winner": winner, "antes": dict(self.antes)})
