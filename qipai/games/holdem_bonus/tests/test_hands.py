"""Every line of the bonus pay table (docs/rules/holdem-bonus.md#bonus), under both presets."""

from __future__ import annotations

import pytest

from qipai.core.cards import parse_cards
from qipai.games.holdem_bonus.hands import BonusLine, bonus_line, pool_category
from qipai.poker import Category

DEALER_XX = parse_cards("2c 7d")


@pytest.mark.parametrize(
    ("hole", "dealer", "line", "odds"),
    [
        ("As Ad", "Ac Ah", BonusLine.ACES_VS_ACES, 1000),  # AA and dealer AA 1000:1
        ("As Ad", "Ac Kh", BonusLine.ACES, 30),  # dealer holds one ace only
        ("As Ad", "2c 7d", BonusLine.ACES, 30),
        ("As Ks", "2c 7d", BonusLine.AK_SUITED, 25),
        ("Kh Ah", "2c 7d", BonusLine.AK_SUITED, 25),
        ("As Qs", "2c 7d", BonusLine.AQ_AJ_SUITED, 20),
        ("Jd Ad", "2c 7d", BonusLine.AQ_AJ_SUITED, 20),
        ("As Kd", "2c 7d", BonusLine.AK_OFFSUIT, 15),
        ("Kc Kd", "2c 7d", BonusLine.KK_QQ_JJ, 10),
        ("Qc Qd", "2c 7d", BonusLine.KK_QQ_JJ, 10),
        ("Jc Jd", "2c 7d", BonusLine.KK_QQ_JJ, 10),
        ("As Qd", "2c 7d", BonusLine.AQ_AJ_OFFSUIT, 5),
        ("Jc Ad", "2c 7d", BonusLine.AQ_AJ_OFFSUIT, 5),
    ],
)
def test_bonus_lines(hole: str, dealer: str, line: BonusLine, odds: int) -> None:
    for table in ("source", "with-small-pairs"):
        got = bonus_line(parse_cards(hole), parse_cards(dealer), table)  # type: ignore[arg-type]
        assert got is line
        assert got.odds == odds


@pytest.mark.parametrize("hole", ["As Td", "Ah 2h", "Ks Qs", "Kd Qc", "7c 2d", "Ts 9s"])
def test_no_bonus_line(hole: str) -> None:
    for table in ("source", "with-small-pairs"):
        assert bonus_line(parse_cards(hole), DEALER_XX, table) is None  # type: ignore[arg-type]


@pytest.mark.parametrize("rank", ["2", "3", "4", "5", "6", "7", "8", "9", "T"])
def test_small_pairs_pay_only_under_their_preset(rank: str) -> None:
    hole = parse_cards(f"{rank}c {rank}d")
    assert bonus_line(hole, DEALER_XX, "source") is None
    line = bonus_line(hole, DEALER_XX, "with-small-pairs")
    assert line is BonusLine.SMALL_PAIR and line.odds == 3


def test_aces_before_the_dealer_shows_read_as_30() -> None:
    assert bonus_line(parse_cards("As Ad"), None) is BonusLine.ACES


@pytest.mark.parametrize(
    ("hole", "flop", "category"),
    [
        ("9c Td", "Jh Qs Kc", Category.STRAIGHT),
        ("2h 9h", "Jh 4h Kh", Category.FLUSH),
        ("Kc Kd", "Kh 4s 4c", Category.FULL_HOUSE),
        ("4d 4h", "Kh 4s 4c", Category.FOUR_OF_A_KIND),
        ("9h Th", "Jh Qh Kh", Category.STRAIGHT_FLUSH),
        ("Ah Th", "Jh Qh Kh", Category.ROYAL_FLUSH),
        ("Ac Ad", "Ah 7s 2c", Category.THREE_OF_A_KIND),
    ],
)
def test_pool_hand_is_exactly_hole_plus_flop(hole: str, flop: str, category: Category) -> None:
    assert pool_category(parse_cards(hole), parse_cards(flop)).category is category
