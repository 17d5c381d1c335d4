"""Pok Deng hands against the independent oracle: every ordered two-card hand of an 8-deck shoe."""

from __future__ import annotations

from collections import Counter

import pytest

from qipai.core.cards import parse_card
from qipai.games.pokdeng.hands import RANK_VALUES, evaluate, rank_text
from qipai.games.pokdeng.tests.oracle import ALL_CARDS, oracle_hand


def test_every_ordered_two_card_hand_matches_the_rule_text() -> None:
    """52 × 52 ordered hands, identical cards included (8 decks allow them)."""
    seen = 0
    for c1 in ALL_CARDS:
        for c2 in ALL_CARDS:
            hand = evaluate(parse_card(c1), parse_card(c2))
            want = oracle_hand(c1, c2)
            got = {
                "points": hand.points,
                "rank": hand.rank_text,
                "suited": hand.suited,
                "pair": hand.pair,
                "double": hand.double,
            }
            assert got == want, (c1, c2)
            assert [str(c) for c in hand.cards] == [c1, c2]
            seen += 1
    assert seen == 52 * 52


def test_rank_counts_over_all_ordered_hands() -> None:
    """Counted by hand from the definitions, as a second check of the table's shape."""
    counts = Counter(
        evaluate(parse_card(a), parse_card(b)).rank_text for a in ALL_CARDS for b in ALL_CARDS
    )
    assert counts["7.5"] == 4 * 2  # A and K of one suit, either order
    assert counts["7.4"] == 4 * 16  # A, 5, 6, 10 pairs: 4 × 4 ordered suit choices
    assert counts["7.3"] == 12 * 12  # any two of the 12 picture cards
    assert counts["7.2"] == 2 * 4 * 12  # a ten and a picture card, either order
    # suited zero: non-picture, same suit, points 0, not a special pair: A9, 28, 37, 46 suited
    # (both orders), and 10-10 / 5-5 suited are special pairs instead.
    assert counts["7.1"] == 4 * 2 * 4
    assert sum(counts.values()) == 52 * 52


@pytest.mark.parametrize(
    ("cards", "rank", "double"),
    [
        (
            "Kc Kd",
            "7.3",
            True,
        ),  # docs/rules/pokdeng.md#points-and-ranks: K-K is royals (7.3), not a special pair
        ("Tc Td", "7.4", True),  # source ex.4: banker 10♣10♦ is 7.4
        ("2c 2d", "4", True),  # a pair of 2 is not special, but still a double hand
        ("9s 9h", "8", True),  # 9-9 = 18 → 8 points, ranks 8
        ("As 9s", "7.1", True),  # suited zero
        ("As 9d", "0", False),
        ("4s 6s", "7.1", True),  # suited zero from two number cards
        ("5s 5s", "7.4", True),  # identical cards (8 decks): a special pair outranks 7.1
        ("Js 5s", "5", True),  # a picture card cannot make suited zero
        ("Ad Kd", "7.5", True),  # source ex.7
        ("Ad Kh", "1", False),
        ("Ad 8d", "9", True),  # source ex.8
        ("6s 4h", "0", False),  # source ex.7/8 banker
        ("Qd Th", "7.2", True),
    ],
)
def test_named_examples(cards: str, rank: str, double: bool) -> None:
    a, b = (parse_card(t) for t in cards.split())
    hand = evaluate(a, b)
    assert hand.rank_text == rank and hand.double is double
    assert evaluate(b, a).rank == hand.rank


def test_rank_order_is_the_source_order() -> None:
    # 9 > 8 > 7.5 > 7.4 > 7.3 > 7.2 > 7.1 > 7 > 6 > … > 0
    texts = [rank_text(r) for r in sorted(RANK_VALUES, reverse=True)]
    assert texts == [
        "9",
        "8",
        "7.5",
        "7.4",
        "7.3",
        "7.2",
        "7.1",
        "7",
        "6",
        "5",
        "4",
        "3",
        "2",
        "1",
        "0",
    ]


def test_names() -> None:
    hand = evaluate(parse_card("Ah"), parse_card("Kh"))
    assert hand.name == "lion suited" and hand.name_zh == "狮子同花"
    assert evaluate(parse_card("2h"), parse_card("3d")).name == "5 points"
    assert evaluate(parse_card("2h"), parse_card("9d")).name == "1 point"  # not "1 points"
