"""San Gong table settings with the defaults of the rules (rules/en.md), validated. The game has
no source text: every rule is the project's decision, and the ones another card room could
choose otherwise are settings here."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, Strict, ValidationInfo, field_validator, model_validator

from qipai.core.model import Amount, Commission, Flag, Model, Multiple, Multiples, Seconds

# rules/en.md, Seats and deck: 2–6 seats; one 52-card deck holds 6 × 3 = 18 cards with room to spare.
MIN_SEATS, MAX_SEATS = 2, 6
SeatCount = Annotated[int, Strict(), Field(ge=MIN_SEATS, le=MAX_SEATS)]


ORDER = ("three_of_a_kind", "three_court", "nine", "eight", "other")


class HandMultipliers(Model):
    """The hand multipliers (rules/en.md, Hands, a table setting): what a winning hand is paid.

    Every type pays at least what a weaker one pays (a stronger hand never pays less)."""

    three_of_a_kind: Multiple = 5
    three_court: Multiple = 4
    nine: Multiple = 3
    eight: Multiple = 2
    other: Multiple = 1

    @model_validator(mode="after")
    def _monotone(self) -> HandMultipliers:
        values = self.in_order()
        if list(values) != sorted(values, reverse=True):
            raise ValueError(
                "hand multipliers must not grow from three_of_a_kind down to other, got "
                + ", ".join(f"{n}={v}" for n, v in zip(ORDER, values, strict=True))
            )
        return self

    def in_order(self) -> tuple[int, ...]:
        """The multipliers from the strongest type down (`ORDER`)."""
        return tuple(int(getattr(self, name)) for name in ORDER)

    @property
    def highest(self) -> int:
        return self.three_of_a_kind


class SangongConfig(Model):
    """One table's settings.

    * `base` — A of the settlement formula (底注), in minor units.
    * `commission` — 抽水 on each participant's net win, a decimal string in [0, 1) (default 5 %).
    * `multipliers` — the hand multipliers (default ×5 three of a kind, ×4 three court cards,
      ×3 nine points, ×2 eight points, ×1 the rest).
    * `bid_multiples` — banker bids besides "none" (default 1–4).
    * `bet_multiples` — players' bets (default 1–5; silence = the lowest).
    * `cover_check` — the coverage test of Swap Niu Niu with this table's highest hand
      multiplier: a bet multiple only if base × banker multiple × own multiple × highest
      multiplier is covered by the seat's stack, a bid only if base × bid × (opponents × lowest
      bet) × highest multiplier is. False offers every multiple (the cap still protects stacks).
    * `bid_s`, `bet_s`, `show_s` — the countdowns (defaults 8 s, 12 s, 8 s; 3–120 s).
    * `min_seats`, `max_seats` — 2–6 seats (default at most 5).
    """

    base: Amount = 100
    commission: Commission = "0.05"
    multipliers: HandMultipliers = HandMultipliers()
    bid_multiples: Multiples = (1, 2, 3, 4)
    bet_multiples: Multiples = (1, 2, 3, 4, 5)
    cover_check: Flag = True
    bid_s: Seconds = 8.0
    bet_s: Seconds = 12.0
    show_s: Seconds = 8.0
    min_seats: SeatCount = 2
    max_seats: SeatCount = 5

    @field_validator("max_seats")
    @classmethod
    def _seats(cls, max_seats: int, info: ValidationInfo) -> int:
        min_seats = info.data.get("min_seats", max_seats)
        if min_seats > max_seats:
            raise ValueError(f"min_seats {min_seats} is above max_seats {max_seats}")
        return max_seats
