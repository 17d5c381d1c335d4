"""Swap Niu Niu table settings with their RULES.md §4 defaults, validated."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from qipai.core.errors import InvalidInput
from qipai.core.money import to_rate


def _positive_int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise InvalidInput(f"{what} must be a positive integer, got {value!r}")
    return value


def _seconds(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise InvalidInput(f"{what} must be a positive number of seconds, got {value!r}")
    return float(value)


@dataclass(frozen=True)
class NiuniuConfig:
    """One table's settings.

    * `base` — the table's base bet (底注) in minor units.
    * `commission` — 公點 on a net win, as a decimal string (source: 4 %).
    * `swap_s` — the swap countdown (source: 換牌時間為10秒); `bid_s`, `bet_s` — the bid and bet
      countdowns (the source gives no figure; Decision here: 5 s each, a table setting).
    * `bid_multiples` — banker bids besides "none" (RULES.md §4 Decision: 1–4).
    * `bet_multiples` — player bets (RULES.md §4 Decision: 1–5).
    * `cover_check` — RULES.md §4 Decision: a bet multiple is allowed only if base × banker
      multiple × own multiple × 5 (the largest hand multiplier) is covered by the balance, and a
      bid only if base × bid × (opponents' minimum bets) × 5 is. False allows every multiple.
    * `min_seats`, `max_seats` — RULES.md §4 Decision: 2–5 seats.
    * `hints` — include the swap advisor's hint in each seat's own view during the swap.
    """

    base: int = 100
    commission: str = "0.04"
    swap_s: float = 10.0
    bid_s: float = 5.0
    bet_s: float = 5.0
    bid_multiples: tuple[int, ...] = (1, 2, 3, 4)
    bet_multiples: tuple[int, ...] = (1, 2, 3, 4, 5)
    cover_check: bool = True
    min_seats: int = 2
    max_seats: int = 5
    hints: bool = True

    def __post_init__(self) -> None:
        _positive_int(self.base, "base")
        rate = to_rate(self.commission)
        if not 0 <= rate < 1:
            raise InvalidInput(f"commission {self.commission!r} must be in [0, 1)")
        for name in ("swap_s", "bid_s", "bet_s"):
            _seconds(getattr(self, name), name)
        for name in ("bid_multiples", "bet_multiples"):
            values = getattr(self, name)
            if not values or list(values) != sorted(set(values)):
                raise InvalidInput(f"{name} must be distinct increasing positive integers")
            for v in values:
                _positive_int(v, name)
        if not 2 <= self.min_seats <= self.max_seats <= 10:
            raise InvalidInput("seat range must satisfy 2 <= min_seats <= max_seats <= 10")
        # One deck: 4 cards + up to 4 replacements + the fifth card per seat.
        if 9 * self.max_seats > 52:
            raise InvalidInput("one deck holds at most 5 seats (9 cards each in the worst case)")

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["bid_multiples"] = list(self.bid_multiples)
        data["bet_multiples"] = list(self.bet_multiples)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> NiuniuConfig:
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise InvalidInput("a Niu Niu config is a JSON object")
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise InvalidInput(f"unknown Niu Niu settings: {', '.join(sorted(unknown))}")
        kwargs: dict[str, Any] = dict(data)
        for name in ("bid_multiples", "bet_multiples"):
            if name in kwargs:
                if not isinstance(kwargs[name], list | tuple):
                    raise InvalidInput(f"{name} must be a list of integers")
                kwargs[name] = tuple(kwargs[name])
        for name in ("cover_check", "hints"):
            if name in kwargs and not isinstance(kwargs[name], bool):
                raise InvalidInput(f"{name} must be true or false")
        if "commission" in kwargs and not isinstance(kwargs["commission"], str):
            raise InvalidInput("commission must be a decimal string like '0.04'")
        return cls(**kwargs)
