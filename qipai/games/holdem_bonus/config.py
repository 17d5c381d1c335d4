"""Texas Hold'em Bonus table settings with their RULES.md §3 defaults, validated.

Amounts are integer minor units; rates are exact decimal strings (never floats).

* `boxes`: the betting boxes ("seats" of the layout), 1 to 7 (RULES.md §3: 1–7 player seats).
  A round's seats are the players sitting in boxes, so every seat id must be a box name.
* `ante_min`, `ante_max`: the ante limits; the bonus bet, when made, equals the ante.
* `bonus_table`: "source" (RULES.md §3, the source's table line for line, the default) or
  "with-small-pairs" (adds any pair 2-2 … 10-10 at 3:1).
* `pool_stake`: the fixed jackpot stake (0 = no pool bet at this table); `pool_contribution`:
  the share of a non-winning stake that flows into the pool (Decision, default 50 %);
  `pool_seed`: the house-funded floor of the pool; `pool_percent`: the award per category.
* `betting_s`, `decision_s`: countdowns of the betting phase and of each decision phase.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, Final, Literal

from qipai.core.errors import InvalidInput
from qipai.core.money import require_amount, to_rate
from qipai.poker.categories import Category

BonusTable = Literal["source", "with-small-pairs"]
BONUS_TABLES: Final[tuple[BonusTable, ...]] = ("source", "with-small-pairs")
MAX_BOXES: Final = 7

# RULES.md §3, pool: straight 10 %, flush 20 %, full house 30 %, quads 40 %, straight flush
# 50 %, royal flush 100 % of the pool (hole cards + flop).
DEFAULT_POOL_PERCENT: Final[Mapping[str, str]] = {
    Category.STRAIGHT.key: "0.10",
    Category.FLUSH.key: "0.20",
    Category.FULL_HOUSE.key: "0.30",
    Category.FOUR_OF_A_KIND.key: "0.40",
    Category.STRAIGHT_FLUSH.key: "0.50",
    Category.ROYAL_FLUSH.key: "1",
}
_CATEGORY_BY_KEY: Final = {c.key: c for c in Category}


def _default_boxes() -> tuple[str, ...]:
    return tuple(str(i) for i in range(1, MAX_BOXES + 1))


def _default_pool_percent() -> dict[str, str]:
    return dict(DEFAULT_POOL_PERCENT)


@dataclass(frozen=True)
class HoldemBonusConfig:
    """A Hold'em Bonus table (see the module docstring for each setting)."""

    boxes: tuple[str, ...] = field(default_factory=_default_boxes)
    ante_min: int = 100
    ante_max: int = 100_000
    bonus_table: BonusTable = "source"
    pool_stake: int = 100
    pool_contribution: str = "0.5"
    # The pool bet breaks even for the player at about 756 stakes (docs/rtp.md §4); a floor
    # of 250 stakes keeps the house edge positive at the floor while the pool grows from it.
    pool_seed: int = 25_000
    pool_percent: Mapping[str, str] = field(default_factory=_default_pool_percent)
    betting_s: float = 20.0
    decision_s: float = 15.0

    def __post_init__(self) -> None:
        boxes = self.boxes
        if not isinstance(boxes, tuple) or not 1 <= len(boxes) <= MAX_BOXES:
            raise InvalidInput(f"boxes must list 1 to {MAX_BOXES} box names, got {boxes!r}")
        if not all(isinstance(b, str) and b for b in boxes) or len(set(boxes)) != len(boxes):
            raise InvalidInput(f"box names must be distinct non-empty strings: {boxes!r}")
        require_amount(self.ante_min, "ante_min", positive=True)
        require_amount(self.ante_max, "ante_max", positive=True)
        if self.ante_min > self.ante_max:
            raise InvalidInput(f"ante_min {self.ante_min} is above ante_max {self.ante_max}")
        if self.bonus_table not in BONUS_TABLES:
            raise InvalidInput(f"bonus_table {self.bonus_table!r}: expected one of {BONUS_TABLES}")
        require_amount(self.pool_stake, "pool_stake")
        require_amount(self.pool_seed, "pool_seed")
        if not isinstance(self.pool_contribution, str):
            raise InvalidInput("pool_contribution is a decimal string like '0.5'")
        if not 0 <= to_rate(self.pool_contribution) <= 1:
            raise InvalidInput(f"pool_contribution {self.pool_contribution} must be in [0, 1]")
        self.pool_rates  # validates pool_percent  # noqa: B018
        for name in ("betting_s", "decision_s"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise InvalidInput(f"{name} must be a positive number of seconds")

    @cached_property
    def contribution_rate(self) -> Fraction:
        return to_rate(self.pool_contribution)

    @cached_property
    def pool_rates(self) -> dict[Category, Fraction]:
        """Award share of the pool per 5-card category (hole cards + flop)."""
        if not isinstance(self.pool_percent, Mapping):
            raise InvalidInput("pool_percent is an object of category → decimal string")
        rates: dict[Category, Fraction] = {}
        for key, value in self.pool_percent.items():
            if key not in _CATEGORY_BY_KEY:
                raise InvalidInput(f"pool_percent: unknown category {key!r}")
            if not isinstance(value, str):
                raise InvalidInput(f"pool_percent[{key!r}] is a decimal string like '0.1'")
            rate = to_rate(value)
            if not 0 < rate <= 1:
                raise InvalidInput(f"pool_percent[{key!r}] = {value} must be in (0, 1]")
            rates[_CATEGORY_BY_KEY[key]] = rate
        return rates

    def to_json(self) -> dict[str, Any]:
        return {
            "boxes": list(self.boxes),
            "ante_min": self.ante_min,
            "ante_max": self.ante_max,
            "bonus_table": self.bonus_table,
            "pool_stake": self.pool_stake,
            "pool_contribution": self.pool_contribution,
            "pool_seed": self.pool_seed,
            "pool_percent": dict(self.pool_percent),
            "betting_s": self.betting_s,
            "decision_s": self.decision_s,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HoldemBonusConfig:
        if not isinstance(data, Mapping):
            raise InvalidInput("a Hold'em Bonus config is a JSON object")
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise InvalidInput(f"unknown Hold'em Bonus settings: {sorted(unknown)}")
        kwargs: dict[str, Any] = dict(data)
        if "boxes" in kwargs:
            boxes = kwargs["boxes"]
            if not isinstance(boxes, list | tuple):
                raise InvalidInput("boxes is a list of box names")
            kwargs["boxes"] = tuple(boxes)
        if "pool_percent" in kwargs and not isinstance(kwargs["pool_percent"], Mapping):
            raise InvalidInput("pool_percent is an object of category → decimal string")
        return cls(**kwargs)
