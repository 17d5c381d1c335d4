"""The pool (jackpot): every award line and docs/rules/holdem-bonus.md#pool-order's order of awards, top-ups, contributions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from qipai.games.holdem_bonus.config import HoldemBonusConfig
from qipai.games.holdem_bonus.pool import PoolEntry, settle_pool
from qipai.poker import Category

CFG = HoldemBonusConfig()
RATES = CFG.pool_rates
HALF = Fraction(1, 2)
SEED = 500_000


def entry(box: str, category: Category, strength: int | None = None, stake: int = 100) -> PoolEntry:
    order = int(box)
    return PoolEntry(
        box, order, stake, strength if strength is not None else category << 12, category
    )


@pytest.mark.parametrize(
    ("category", "percent"),
    [
        (Category.STRAIGHT, 10),
        (Category.FLUSH, 20),
        (Category.FULL_HOUSE, 30),
        (Category.FOUR_OF_A_KIND, 40),
        (Category.STRAIGHT_FLUSH, 50),
        (Category.ROYAL_FLUSH, 100),
    ],
)
def test_each_award_line(category: Category, percent: int) -> None:
    result = settle_pool(2_000_000, [entry("1", category)], RATES, HALF, SEED)
    (award,) = result.awards
    assert award.amount == 2_000_000 * percent // 100
    after_award = 2_000_000 - award.amount
    assert award.top_up == max(0, SEED - after_award)
    # A winning stake contributes nothing; the pool ends at the (topped-up) balance.
    assert result.contributions == ()
    assert result.winning_stakes == 100
    assert result.closing == max(after_award, SEED)


@pytest.mark.parametrize(
    "category",
    [Category.HIGH_CARD, Category.PAIR, Category.TWO_PAIR, Category.THREE_OF_A_KIND],
)
def test_lesser_hands_win_nothing_and_contribute(category: Category) -> None:
    result = settle_pool(1_000_000, [entry("1", category)], RATES, HALF, SEED)
    assert result.awards == ()
    (c,) = result.contributions
    assert (c.to_pool, c.to_house, c.rounding) == (50, 50, 0)
    assert result.closing == 1_000_050


def test_royal_empties_the_pool_and_the_house_tops_it_up() -> None:
    result = settle_pool(1_234_567, [entry("1", Category.ROYAL_FLUSH)], RATES, HALF, SEED)
    (award,) = result.awards
    assert award.amount == 1_234_567 and award.top_up == SEED
    assert result.closing == SEED


def test_several_winners_highest_hand_first_then_box_order() -> None:
    # Box 2 flush, box 1 straight, box 3 a lower straight than box 1? (same category, by hand).
    entries = [
        entry("1", Category.STRAIGHT, strength=(Category.STRAIGHT << 12) | 5),
        entry("2", Category.FLUSH),
        entry("3", Category.STRAIGHT, strength=(Category.STRAIGHT << 12) | 5),  # ties box 1
        entry("4", Category.STRAIGHT, strength=(Category.STRAIGHT << 12) | 9),
        entry("5", Category.PAIR),
    ]
    result = settle_pool(1_000_000, entries, RATES, HALF, SEED)
    assert [a.box for a in result.awards] == ["2", "4", "1", "3"]
    # Each award is its percentage of the pool as it then stands, rounded down.
    assert [a.pool_before for a in result.awards] == [1_000_000, 800_000, 720_000, 648_000]
    assert [a.amount for a in result.awards] == [200_000, 80_000, 72_000, 64_800]
    # Only then the contributions: box 5's stake.
    assert result.closing == 648_000 - 64_800 + 50


def test_top_up_after_each_award_before_the_next() -> None:
    entries = [entry("1", Category.ROYAL_FLUSH), entry("2", Category.STRAIGHT_FLUSH)]
    result = settle_pool(900_000, entries, RATES, HALF, SEED)
    royal, sf = result.awards
    assert (royal.amount, royal.top_up) == (900_000, SEED)
    assert (sf.pool_before, sf.amount, sf.top_up) == (SEED, 250_000, 250_000)
    assert result.closing == SEED


def test_awards_round_down_and_the_fraction_stays_in_the_pool() -> None:
    result = settle_pool(1_000_007, [entry("1", Category.STRAIGHT)], RATES, HALF, SEED)
    assert result.awards[0].amount == 100_000  # 100,000.7 rounded down
    assert result.closing == 900_007


def test_contributions_round_down_with_a_rounding_unit() -> None:
    result = settle_pool(
        1_000_000, [entry("1", Category.PAIR, stake=101)], RATES, Fraction(3, 10), SEED
    )
    (c,) = result.contributions
    # 101 x 0.3 = 30.3 -> 30 to the pool; 101 x 0.7 = 70.7 -> 70 to the house; 1 unit rounding.
    assert (c.to_pool, c.to_house, c.rounding) == (30, 70, 1)
    assert result.closing == 1_000_030


def test_contributions_come_after_awards() -> None:
    """A contribution of this round never enlarges this round's award."""
    entries = [entry("1", Category.PAIR), entry("2", Category.STRAIGHT)]
    result = settle_pool(1_000_000, entries, RATES, HALF, SEED)
    assert result.awards[0].amount == 100_000
    assert result.closing == 900_000 + 50


def test_an_opening_balance_below_the_seed_is_topped_up_first() -> None:
    result = settle_pool(0, [entry("1", Category.STRAIGHT)], RATES, HALF, SEED)
    assert result.opening_top_up == SEED
    assert result.awards[0].amount == 50_000
    assert result.closing == SEED  # 450,000 topped back up


def test_custom_percentages_from_config() -> None:
    cfg = HoldemBonusConfig(pool_percent={"flush": "0.25", "royal_flush": "1"})
    result = settle_pool(1_000_000, [entry("1", Category.STRAIGHT)], cfg.pool_rates, HALF, SEED)
    assert result.awards == ()  # this table pays no straight
    result = settle_pool(1_000_000, [entry("1", Category.FLUSH)], cfg.pool_rates, HALF, SEED)
    assert result.awards[0].amount == 250_000
