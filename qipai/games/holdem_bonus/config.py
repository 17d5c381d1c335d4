"""Texas Hold'em Bonus table settings with their docs/rules/holdem-bonus.md#table-settings defaults, validated.

Amounts are integer minor units; rates are exact decimal strings (never floats).

* `boxes`: the betting boxes ("seats" of the layout), 1 to 7 (docs/rules/holdem-bonus.md#boxes-and-deck: 1–7 player seats).
  A round's seats are the players sitting in boxes, so every seat id must be a box name.
* `ante_min`, `ante_max`: the ante limits; the bonus bet, when made, equals the ante.
* `bonus_table`: "source" (docs/rules/holdem-bonus.md#bonus, the source's table line for line, the default) or
  "with-small-pairs" (adds any pair 2-2 … 10-10 at 3:1).
* `pool_stake`: the fixed jackpot stake (0 = no pool bet at this table); `pool_contribution`:
  the share of a non-winning stake that flows into the pool (Decision, default 50 %);
  `pool_seed`: the house-funded floor of the pool; `pool_percent`: the award per category.
* `betting_s`, `decision_s`: countdowns of the betting phase and of each decision phase.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cached_property
from typing import Annotated, Final, Literal

from pydantic import AfterValidator, Field, ValidationInfo, field_validator

from qipai.core.model import Amount, Amount0, Model, RateText, Seconds, Text, rate_between
from qipai.core.money import to_rate
from qipai.poker.categories import Category

BonusTable = Literal["source", "with-small-pairs"]
BONUS_TABLES: Final[tuple[BonusTable, ...]] = ("source", "with-small-pairs")
MAX_BOXES: Final = 7

CategoryKey = Literal[
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
]
# docs/rules/holdem-bonus.md#pool, pool: straight 10 %, flush 20 %, full house 30 %, quads 40 %, straight flush
# 50 %, royal flush 100 % of the pool (hole cards + flop).
DEFAULT_POOL_PERCENT: Final[Mapping[CategoryKey, str]] = {
    "straight": "0.10",
    "flush": "0.20",
    "full_house": "0.30",
    "four_of_a_kind": "0.40",
    "straight_flush": "0.50",
    "royal_flush": "1",
}
_CATEGORY_BY_KEY: Final = {c.key: c for c in Category}


def _default_boxes() -> tuple[str, ...]:
    return tuple(str(i) for i in range(1, MAX_BOXES + 1))


def _default_pool_percent() -> dict[CategoryKey, str]:
    return dict(DEFAULT_POOL_PERCENT)


def _distinct(boxes: tuple[str, ...]) -> tuple[str, ...]:
    if len(set(boxes)) != len(boxes):
        raise ValueError(f"box names must be distinct: {list(boxes)}")
    return boxes


BoxName = Annotated[Text, Field(min_length=1, max_length=8)]
Share = Annotated[RateText, rate_between(Fraction(0), Fraction(1))]
# docs/rules/holdem-bonus.md#pool-order: each award is its share of the pool *as it then stands* (several winners are
# paid one after another), so a share may be anything in (0, 100 %] and the awards of a round
# can never exceed the pool.
AwardShare = Annotated[RateText, rate_between(Fraction(0), Fraction(1), low_open=True)]


class HoldemBonusConfig(Model):
    """A Hold'em Bonus table (see the module docstring for each setting)."""

    boxes: Annotated[
        tuple[BoxName, ...], Field(min_length=1, max_length=MAX_BOXES), AfterValidator(_distinct)
    ] = Field(default_factory=_default_boxes)
    ante_min: Amount = 100
    ante_max: Amount = 100_000
    bonus_table: BonusTable = "source"
    pool_stake: Amount0 = 100
    pool_contribution: Share = "0.5"
    # The pool bet breaks even for the player at about 756 stakes (docs/rtp.md §4); a floor
    # of 250 stakes keeps the house edge positive at the floor while the pool grows from it.
    pool_seed: Amount0 = 25_000
    pool_percent: dict[CategoryKey, AwardShare] = Field(default_factory=_default_pool_percent)
    betting_s: Seconds = 12.0
    decision_s: Seconds = 12.0

    @field_validator("ante_max")
    @classmethod
    def _limits(cls, ante_max: int, info: ValidationInfo) -> int:
        ante_min = info.data.get("ante_min", ante_max)
        if ante_min > ante_max:
            raise ValueError(f"ante_min {ante_min} is above ante_max {ante_max}")
        return ante_max

    @cached_property
    def contribution_rate(self) -> Fraction:
        return to_rate(self.pool_contribution)

    @cached_property
    def pool_rates(self) -> dict[Category, Fraction]:
        """Award share of the pool per 5-card category (hole cards + flop)."""
        return {_CATEGORY_BY_KEY[key]: to_rate(value) for key, value in self.pool_percent.items()}
