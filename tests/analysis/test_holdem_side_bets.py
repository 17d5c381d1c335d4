"""Hold'em Bonus bonus and pool bets: exact figures against hand-countable lines."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from qipai.games.holdem_bonus import analysis as hr
from qipai.poker import FIVE_CARD_COUNTS, Category

HOLES = math.comb(52, 2)  # 1,326


def _probs(table: str) -> dict[int, Fraction]:
    """Probability by net per unit (lines have distinct odds)."""
    return {int(o.net): o.probability for o in hr.bonus_figures(table).outcomes}


@pytest.mark.parametrize("table", ["source", "with-small-pairs"])
def test_bonus_lines_are_hand_counted(table: str) -> None:
    p = _probs(table)
    # AA: 6 of 1,326 hole pairs; the dealer then holds the other two aces in 1 of C(50, 2)
    assert p[1000] == Fraction(6, HOLES) * Fraction(1, 1225) == Fraction(1, 270725)
    assert p[30] == Fraction(6, HOLES) * Fraction(1224, 1225)
    assert p[25] == Fraction(4, HOLES)  # AK suited
    assert p[20] == Fraction(8, HOLES)  # AQ, AJ suited
    assert p[15] == Fraction(12, HOLES)  # AK offsuit
    assert p[10] == Fraction(18, HOLES)  # KK, QQ, JJ
    assert p[5] == Fraction(24, HOLES)  # AQ, AJ offsuit
    small = Fraction(54, HOLES) if table == "with-small-pairs" else Fraction(0)
    assert p.get(3, Fraction(0)) == small  # 22..TT: 9 ranks × 6 pairs
    assert sum(p.values()) == 1


def test_bonus_returns() -> None:
    src = hr.bonus_figures("source")
    wsp = hr.bonus_figures("with-small-pairs")
    won = (
        Fraction(1000, 270725)
        + 30 * Fraction(6 * 1224, HOLES * 1225)
        + Fraction(25 * 4 + 20 * 8 + 15 * 12 + 10 * 18 + 5 * 24, HOLES)
    )
    assert src.ev == won - Fraction(HOLES - 72, HOLES)
    assert wsp.ev == won + Fraction(3 * 54, HOLES) - Fraction(HOLES - 72 - 54, HOLES)
    assert round(float(wsp.house_edge) * 100, 2) == 8.54  # published: "about 8 %"
    assert round(float(src.house_edge) * 100, 2) == 24.83


RATES = {
    Category.STRAIGHT: Fraction(1, 10),
    Category.FLUSH: Fraction(2, 10),
    Category.FULL_HOUSE: Fraction(3, 10),
    Category.FOUR_OF_A_KIND: Fraction(4, 10),
    Category.STRAIGHT_FLUSH: Fraction(5, 10),
    Category.ROYAL_FLUSH: Fraction(1),
}


def test_pool_table_counts_and_break_even() -> None:
    table, facts, _balance, _notes = hr.pool_table()
    labels = {c.label: c for c in Category}
    assert {labels[row[0]]: row[1] for row in table.rows} == {c: FIVE_CARD_COUNTS[c] for c in RATES}
    total = math.comb(52, 5)
    h = Fraction(10200 * 1 + 5108 * 2 + 3744 * 3 + 624 * 4 + 36 * 5 + 4 * 10, 10 * total)
    assert facts["pool: expected share of the pool won per pool stake (α)"] == h
    assert facts["pool: break-even pool at the default stake 100 (minor units)"] == 100 / h


def test_pool_return_breaks_even_at_stake_over_alpha() -> None:
    h = Fraction(10200 * 1 + 5108 * 2 + 3744 * 3 + 624 * 4 + 36 * 5 + 4 * 10, 10 * 2598960)
    stake = 100
    p_star = stake / h
    # below the break-even pool the bet loses, above it wins (awards are rounded down)
    assert hr.pool_return(math.floor(p_star) - 1, stake, RATES) < 1
    assert hr.pool_return(math.ceil(p_star) + 10, stake, RATES) > 1
    # a pool of 1000 stakes: every share is a whole number of minor units, return = h·P/s
    pool = 1000 * stake
    assert hr.pool_return(pool, stake, RATES) == h * pool / stake
    # rounding down: a pool of 15 pays the straight floor(1.5) = 1, not 1.5
    assert hr.pool_return(15, 1, {Category.STRAIGHT: Fraction(1, 10)}) == Fraction(10200, 2598960)


def test_pool_seed_is_below_break_even_and_a_high_seed_is_warned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from qipai.games.holdem_bonus import config as cfg_module

    _t, facts, _b, notes = hr.pool_table()
    cfg = cfg_module.HoldemBonusConfig()
    breakeven = facts[f"pool: break-even pool at the default stake {cfg.pool_stake} (minor units)"]
    assert cfg.pool_seed < breakeven and not notes
    at_seed = facts[
        f"pool: player return at the default seed {cfg.pool_seed} "
        f"(stake {cfg.pool_stake}, awards rounded down)"
    ]
    assert at_seed == hr.pool_return(cfg.pool_seed, cfg.pool_stake, dict(cfg.pool_rates)) < 1

    class HighSeed(cfg_module.HoldemBonusConfig):
        def __init__(self) -> None:
            super().__init__(pool_seed=500_000)

    monkeypatch.setattr(cfg_module, "HoldemBonusConfig", HighSeed)
    _t, _f, _b, high = hr.pool_table()
    assert len(high) == 1 and "above the break-even pool" in high[0]
