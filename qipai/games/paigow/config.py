"""Table settings for bid-for-banker Pai Gow (抢庄牌九), with the RULES.md §2 defaults, validated.

Every point RULES.md §2 marks as a Decision that another casino could choose otherwise is a
setting here: the tie policy, the reading of 天高九/地高九, the bid and bet multiples.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any, Literal

from qipai.core.errors import InvalidInput
from qipai.core.money import require_amount, to_rate

TiePolicy = Literal["banker", "push"]
HighNine = Literal["any-seven", "named"]
TIE_POLICIES: tuple[TiePolicy, ...] = ("banker", "push")
HIGH_NINES: tuple[HighNine, ...] = ("any-seven", "named")
SEATS = 4  # RULES.md §2: 4 seats, 8 tiles a round, two rounds from one set of 32


@dataclass(frozen=True)
class PaigowConfig:
    """One table's settings.

    * `base` — A of the settlement formula, in minor units.
    * `commission` — 抽水 on each participant's net win, a decimal string (RULES.md §2: 5 %).
    * `tie_policy` — RULES.md §2 Decision: equal hands (same named hand, both 0 points, or equal
      points with equal tiles) go to the banker (`banker`) or are a push (`push`).
    * `high_nine` — RULES.md §2 Decision: 天高九/地高九 take any 7-point tile (`any-seven`), or only
      the forms the source's text names, 天 + 二五 and 地 + 高脚七 (`named`).
    * `bid_choices` — banker bids besides "none" (0); RULES.md §2 Decision: 1–4.
    * `bet_choices` — players' bet multiples; RULES.md §2 Decision: 1–5 (silence = the lowest).
    * `bid_seconds`, `bet_seconds`, `reveal_seconds` — the countdowns.
    """

    base: int = 100
    commission: str = "0.05"
    tie_policy: TiePolicy = "banker"
    high_nine: HighNine = "any-seven"
    bid_choices: tuple[int, ...] = (1, 2, 3, 4)
    bet_choices: tuple[int, ...] = (1, 2, 3, 4, 5)
    bid_seconds: int = 5
    bet_seconds: int = 5
    reveal_seconds: int = 3

    def __post_init__(self) -> None:
        require_amount(self.base, "base", positive=True)
        rate = to_rate(self.commission)
        if not 0 <= rate < 1:
            raise InvalidInput(f"commission {self.commission!r} must be in [0, 1)")
        if self.tie_policy not in TIE_POLICIES:
            raise InvalidInput(f"tie_policy must be one of {TIE_POLICIES}, got {self.tie_policy!r}")
        if self.high_nine not in HIGH_NINES:
            raise InvalidInput(f"high_nine must be one of {HIGH_NINES}, got {self.high_nine!r}")
        for name in ("bid_choices", "bet_choices"):
            choices = getattr(self, name)
            if (
                not isinstance(choices, tuple)
                or not choices
                or any(isinstance(c, bool) or not isinstance(c, int) or c < 1 for c in choices)
                or list(choices) != sorted(set(choices))
            ):
                raise InvalidInput(f"{name} must be increasing positive integers, got {choices!r}")
        for name in ("bid_seconds", "bet_seconds", "reveal_seconds"):
            require_amount(getattr(self, name), name, positive=True)

    @property
    def commission_rate(self) -> Fraction:
        return to_rate(self.commission)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> PaigowConfig:
        """Build from JSON; unknown keys are refused so that a typo is not silently ignored."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise InvalidInput("a Pai Gow config is a JSON object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidInput(f"unknown Pai Gow setting(s): {', '.join(unknown)}")
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key in ("bid_choices", "bet_choices"):
                if not isinstance(value, list | tuple):
                    raise InvalidInput(f"{key} must be a list of integers")
                value = tuple(value)
            if key == "commission" and not isinstance(value, str):
                if isinstance(value, bool) or not isinstance(value, int):
                    raise InvalidInput("commission must be a decimal string such as '0.05'")
                value = str(value)
            kwargs[key] = value
        return cls(**kwargs)
