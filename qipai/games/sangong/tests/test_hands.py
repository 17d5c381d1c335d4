"""San Gong hands (rules/en.md): the exhaustive ranking of all 22,100 three-card hands, the
tie-break examples, and the type counts worked out by hand."""

from __future__ import annotations

import doctest
from collections import Counter
from itertools import combinations, pairwise
from math import comb

import pytest

from qipai.core.cards import parse_cards
from qipai.core.errors import InvalidInput
from qipai.games.sangong import hands as hands_module
from qipai.games.sangong import payout
from qipai.games.sangong import round as round_module
from qipai.games.sangong.hands import ALL_HANDS, HandType, all_hands, code_of, evaluate


def _hand(text: str) -> hands_module.Hand:
    return evaluate(parse_cards(text))


# ----- the three tie-break examples of rules/en.md ------------------------------------------------
def test_two_court_cards_beat_none_at_equal_points() -> None:
    # 7♠ K♥ Q♦ (双公 7) beats 7♥ 10♣ 10♦ (散牌 7: tens are not 公)
    high, low = _hand("7s Kh Qd"), _hand("7h Tc Td")
    assert (high.points, high.courts) == (7, 2)
    assert (low.points, low.courts) == (7, 0)
    assert high.beats(low) and not low.beats(high)


def test_same_courts_same_top_rank_the_suit_decides() -> None:
    # 9♥ J♠ 10♣ beats 9♠ J♥ 10♦: both 单公 9, the top card a J in both, J♠ beats J♥
    high, low = _hand("9h Js Tc"), _hand("9s Jh Td")
    assert (high.type, high.courts, low.type, low.courts) == (HandType.POINTS_9, 1) * 2
    assert str(high.top) == "Js" and str(low.top) == "Jh"
    assert high.beats(low) and not low.beats(high)


def test_three_of_a_kind_beats_three_court_cards() -> None:
    # Q♣ Q♦ Q♥ (三条) beats K♠ K♥ Q♠ (三公)
    high, low = _hand("Qc Qd Qh"), _hand("Ks Kh Qs")
    assert high.type is HandType.THREE_OF_A_KIND and low.type is HandType.THREE_COURT
    assert high.beats(low)


def test_the_worked_example_hands() -> None:
    assert _hand("3s 5h Kc").label["zh"] == "单公 8点"
    assert _hand("4d 5c Ts").type is HandType.POINTS_9
    assert _hand("Js Qh Kd").type is HandType.THREE_COURT
    assert _hand("2c 3d Th").points == 5


# ----- exhaustive: all 22,100 hands -------------------------------------------------------------
_RANKS = "A23456789TJQK"  # San Gong order, low to high


def _by_rule(cards: tuple[object, ...]) -> tuple[int, int, int, int]:
    """The rule text, written again from rules/en.md without the module's key: (type, courts,
    top rank, top suit), higher wins."""
    ranks = [_RANKS.index(str(c)[0]) + 1 for c in cards]
    suits = ["dchs".index(str(c)[1]) for c in cards]
    courts = sum(r >= 11 for r in ranks)
    points = sum(r if r <= 9 else 0 for r in ranks) % 10
    if len(set(ranks)) == 1:
        kind = 11
    elif courts == 3:
        kind = 10
    else:
        kind = points
    top = max(zip(ranks, suits, strict=True))
    return kind, courts, top[0], top[1]


@pytest.fixture(scope="module")
def every_hand() -> list[hands_module.Hand]:
    return [evaluate(cards) for cards in all_hands()]


def test_there_are_22100_hands_with_distinct_keys(
    every_hand: list[hands_module.Hand],
) -> None:
    assert len(every_hand) == ALL_HANDS == comb(52, 3) == 22_100
    # a total order: no two distinct hands are equal
    assert len({h.key for h in every_hand}) == ALL_HANDS


def test_the_key_orders_hands_as_the_rules_do(every_hand: list[hands_module.Hand]) -> None:
    ordered = sorted(every_hand, key=lambda h: h.key)
    rules = [_by_rule(h.cards) for h in ordered]
    # the rules' comparison never disagrees with the key (it may only leave ties: hands that
    # share their top card, which cannot meet at one table)
    assert rules == sorted(rules)
    for a, b in pairwise(ordered):
        if _by_rule(a.cards) == _by_rule(b.cards):
            assert a.top == b.top


def test_disjoint_hands_are_never_equal_under_the_rules(
    every_hand: list[hands_module.Hand],
) -> None:
    # two hands of one deck have different top cards, so the rule text decides every pairing
    by_rule: dict[tuple[int, int, int, int], list[frozenset[object]]] = {}
    for h in every_hand:
        by_rule.setdefault(_by_rule(h.cards), []).append(frozenset(h.cards))
    for group in by_rule.values():
        for a, b in combinations(group, 2):
            assert a & b


def test_type_counts(every_hand: list[hands_module.Hand]) -> None:
    counts = Counter(h.type for h in every_hand)
    # 三条: 13 ranks × C(4,3); 三公: C(12,3) court triples less the 3 × 4 court trips
    assert counts[HandType.THREE_OF_A_KIND] == 13 * 4 == 52
    assert counts[HandType.THREE_COURT] == comb(12, 3) - 12 == 208
    # points, by rank multisets weighted by the ways to pick suits, trips and 三公 left out
    expected: Counter[int] = Counter()
    for a, b, c in combinations(range(13 + 2), 3):  # stars and bars: ranks with repeats
        ranks = (a, b - 1, c - 2)
        if ranks[0] == ranks[2]:
            continue
        if all(r >= 10 for r in ranks):
            continue
        ways = 1
        for r in set(ranks):
            ways *= comb(4, ranks.count(r))
        expected[sum(r + 1 if r < 9 else 0 for r in ranks) % 10] += ways
    for p in range(10):
        assert counts[HandType(p)] == expected[p]
    assert {p: counts[HandType(p)] for p in range(10)} == {
        0: 2160, 1: 2208, 2: 2160, 3: 2208, 4: 2160,
        5: 2208, 6: 2160, 7: 2208, 8: 2160, 9: 2208,
    }  # fmt: skip


def test_card_codes_follow_the_rules_order() -> None:
    order = [code_of(c) for c in parse_cards("Ad Ac Ah As 2d Td Jd Qd Kd Kc Kh Ks")]
    assert order == sorted(order) and len(set(order)) == len(order)


@pytest.mark.parametrize("text", ["As Kd", "As Kd Qh Jc", "As As Kd"])
def test_a_hand_is_three_distinct_cards(text: str) -> None:
    with pytest.raises(InvalidInput):
        _hand(text)


@pytest.mark.parametrize("module", [hands_module, payout, round_module])
def test_doctests(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0
