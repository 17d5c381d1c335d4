"""Swap Niu Niu table settings with their docs/rules/niuniu.md#table-settings defaults, validated."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, Strict, ValidationInfo, field_validator

from qipai.core.model import Amount, Commission, Flag, Model, Multiples, Seconds

# docs/rules/niuniu.md#seats-and-deck Decision: 2–5 seats; one deck holds 5 seats at 9 cards each in the worst case
# (4 cards, 4 replacements, the fifth card).
MAX_SEATS = 5
SeatCount = Annotated[int, Strict(), Field(ge=2, le=MAX_SEATS)]


class NiuniuConfig(Model):
    """One table's settings.

    * `base` — the table's base bet (底注) in minor units.
    * `commission` — 公點 on a net win, as a decimal string in [0, 1) (source: 4 %).
    * `swap_s` — the swap countdown (source: 換牌時間為10秒); `bid_s`, `bet_s` — the bid and bet
      countdowns (the source gives no figure; docs/rules/common.md#silence-defaults: 8 s and 12 s, sized for a
      person on a phone, a table setting); 3–120 s.
    * `bid_multiples` — banker bids besides "none" (docs/rules/niuniu.md#bidding Decision: 1–4).
    * `bet_multiples` — player bets (docs/rules/niuniu.md#betting Decision: 1–5). Multiples are distinct,
      increasing, 1–10.
    * `cover_check` — docs/rules/niuniu.md#cover-check Decision: a bet multiple is allowed only if base × banker
      multiple × own multiple × 5 (the largest hand multiplier) is covered by the balance, and a
      bid only if base × bid × (opponents' minimum bets) × 5 is. False allows every multiple.
    * `min_seats`, `max_seats` — docs/rules/niuniu.md#seats-and-deck Decision: 2–5 seats (one deck).
    * `hints` — include the swap advisor's hint in each seat's own view during the swap.
    """

    base: Amount = 100
    commission: Commission = "0.04"
    swap_s: Seconds = 10.0
    bid_s: Seconds = 8.0
    bet_s: Seconds = 12.0
    bid_multiples: Multiples = (1, 2, 3, 4)
    bet_multiples: Multiples = (1, 2, 3, 4, 5)
    cover_check: Flag = True
    min_seats: SeatCount = 2
    max_seats: SeatCount = 5
    hints: Flag = True

    @field_validator("max_seats")
    @classmethod
    def _seats(cls, max_seats: int, info: ValidationInfo) -> int:
        min_seats = info.data.get("min_seats", max_seats)
        if min_seats > max_seats:
            raise ValueError(f"min_seats {min_seats} is above max_seats {max_seats}")
        return max_seats
