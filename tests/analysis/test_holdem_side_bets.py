"""Hold'em Bonus bonus and pool bets: exact figures against hand-countable lines."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from qipai.analysis import holdem_bonus as hb
from qipai.poker import FIVE_CARD_COUNTS, Category

HOLES = math.comb(52, 2)  # 1,326


def _probs(table: str) -> dict[int, Fraction]:
    """Probability by net per unit (lines have distinct odds)."""
    return {int(o.net): o.probability for o in hb.bonus_figures(table).outcomes}


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
    src = hb.bonus_figures("source")
    wsp = hb.bonus_figures("with-small-pairs")
    won = (
        Fraction(1000, 270725)
        + 30 * Fraction(6 * 1224, HOLES * 1225)
        + Fraction(25 * 4 + 20 * 8 + 15 * 12 + 10 * 18 + 5 * 24, HOLES)
    )
    assert src.ev == won - Fraction(HOLES - 72, HOLES)
    assert wsp.ev == won + Fraction(3 * 54, HOLES) - Fraction(HOLES - 72 - 54, HOLES)
    assert round(float(wsp.house_edge) * 100, 2) == 8.54  # published: "about 8 %"
    assert round(float(src.house_edge) * 100, 2) == 24.83


def test_pool_hand_counts_are_the_known_five_card_counts() -> None:
    assert hb.five_card_counts() == FIVE_CARD_COUNTS


RATES = {
    Category.STRAIGHT: Fraction(1, 10),
    Category.FLUSH: Fraction(2, 10),
    Category.FULL_HOUSE: Fraction(3, 10),
    Category.FOUR_OF_A_KIND: Fraction(4, 10),
    Category.STRAIGHT_FLUSH: Fraction(5, 10),
    Category.ROYAL_FLUSH: Fraction(1),
}


def test_pool_break_even() -> None:
    total = math.comb(52, 5)
    h = hb.pool_hit_rate(RATES)
    assert h == Fraction(10200 * 1 + 5108 * 2 + 3744 * 3 + 624 * 4 + 36 * 5 + 4 * 10, 10 * total)
    stake = 100
    p_star = stake / h
    # below the break-even pool the bet loses, above it wins (awards are rounded down)
    assert hb.pool_figures(math.floor(p_star) - 1, stake, RATES).ev < 0
    assert hb.pool_figures(math.ceil(p_star) + 10, stake, RATES).ev > 0
    # a pool of exactly 10 × stake × every share's denominator: no rounding, ev = h·P/s − 1
    pool = 1000 * stake
    assert hb.pool_figures(pool, stake, RATES).ev == h * pool / stake - 1


def test_pool_report_uses_the_game_config() -> None:
    from qipai.games.holdem_bonus.config import HoldemBonusConfig

    cfg = HoldemBonusConfig()
    _tables, facts, notes = hb.pool_tables(
        cfg.pool_stake, cfg.contribution_rate, cfg.pool_seed, dict(cfg.pool_rates)
    )
    p_star = facts["pool: break-even pool size P* = stake / h (minor units)"]
    assert p_star == cfg.pool_stake / hb.pool_hit_rate(dict(cfg.pool_rates))
    q = facts["pool: probability of any award (q)"]
    assert q == Fraction(10200 + 5108 + 3744 + 624 + 36 + 4, math.comb(52, 5))
    eq = facts["pool: long-run pool without seed, c·(1−q)·P* (minor units)"]
    assert eq == cfg.contribution_rate * (1 - q) * p_star
    # The default floor is below break-even, so the house keeps an edge at the seed ...
    assert cfg.pool_seed < p_star
    assert not any("is above the break-even pool" in n for n in notes)
    # ... and a table whose seed is above it is warned about.
    _tables, _facts, high = hb.pool_tables(
        cfg.pool_stake, cfg.contribution_rate, 500_000, dict(cfg.pool_rates)
    )
    assert any("is above the break-even pool" in n for n in high)
