"""A tiny banker game for ledger tests (until the real games land): each seat bets, a coin is
flipped per seat from the round's Rng, heads pays 1:1 less 5 % commission (rounded down to the
minor unit, the fraction to "rounding"), tails loses to the house."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

from qipai.core.errors import IllegalAction, InvalidInput, WrongPhase
from qipai.core.protocol import (
    COMMISSION,
    HOUSE,
    ROUNDING,
    ActionSpec,
    Event,
    Posting,
    Round,
    RoundResult,
    Seat,
)
from qipai.core.rng import Rng

GAME = "coin"


@dataclass(frozen=True)
class CoinConfig:
    min_bet: int = 10
    max_bet: int = 1_000
    commission_pct: int = 5

    def to_json(self) -> dict[str, Any]:
        return {
            "min_bet": self.min_bet,
            "max_bet": self.max_bet,
            "commission_pct": self.commission_pct,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CoinConfig:
        return cls(int(data["min_bet"]), int(data["max_bet"]), int(data["commission_pct"]))


class CoinRound(Round[CoinConfig]):
    game = GAME

    def __init__(self, config: CoinConfig, seats: Sequence[Seat], flips: dict[str, bool]) -> None:
        super().__init__(config, seats)
        self.flips = flips
        self.bets: dict[str, int] = {}
        self._phase = "betting"

    @classmethod
    def start(
        cls,
        config: CoinConfig,
        seats: Sequence[Seat],
        rng: Rng,
        context: Mapping[str, Any] | None = None,
    ) -> Self:
        flips = {s.id: rng.fork(s.id).randbelow(2) == 1 for s in seats}
        return cls(config, seats, flips)

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def deadline_s(self) -> float | None:
        return 10.0 if self._phase == "betting" else None

    def awaiting(self) -> list[str]:
        return (
            [s for s in self.seat_ids() if s not in self.bets] if self._phase == "betting" else []
        )

    def legal_actions(self, seat: str) -> list[ActionSpec]:
        if seat in self.awaiting():
            return [ActionSpec("bet", {"min": self.config.min_bet, "max": self.config.max_bet})]
        return []

    def _check(self, seat: str, action: Mapping[str, Any]) -> Any:
        if action["type"] != "bet":
            raise InvalidInput("only bets")
        if seat not in self.awaiting():
            raise IllegalAction("already bet")
        amount = action.get("amount")
        if not isinstance(amount, int) or not self.config.min_bet <= amount <= self.config.max_bet:
            raise InvalidInput("bad amount")
        return amount

    def _apply(self, seat: str, checked: Any) -> list[Event]:
        self.bets[seat] = int(checked)
        events = [Event("bet", {"seat": seat, "amount": checked})]
        if not self.awaiting():
            events += self._finish()
        return events

    def _expire(self) -> list[Event]:
        if self._phase != "betting":
            raise WrongPhase("nothing to expire")
        return self._finish()

    def _finish(self) -> list[Event]:
        self._phase = "finished"
        return [Event("flip", {"seat": s, "heads": self.flips[s]}, (s,)) for s in self.bets]

    def view(self, seat: str | None) -> dict[str, Any]:
        return {"phase": self._phase, "bets": dict(self.bets)}

    def result(self) -> RoundResult:
        self.require_finished()
        postings: list[Posting] = []
        house = commission = rounding = 0
        for seat, bet in self.bets.items():
            if self.flips[seat]:
                cents = bet * self.config.commission_pct  # in 1/100 minor units
                fee, frac = divmod(cents, 100)
                pay = bet - fee - (1 if frac else 0)
                postings.append(Posting(seat, pay, "heads"))
                commission += fee
                rounding += 1 if frac else 0
                house -= bet
            else:
                postings.append(Posting(seat, -bet, "tails"))
                house += bet
        postings += [
            Posting(HOUSE, house),
            Posting(COMMISSION, commission),
            Posting(ROUNDING, rounding),
        ]
        return RoundResult(tuple(postings), {"flips": dict(self.flips), "bets": dict(self.bets)})


ROUND = CoinRound
CONFIG = CoinConfig
