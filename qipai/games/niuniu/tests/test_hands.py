"""Swap Niu Niu hand types, multipliers and comparison (docs/rules/niuniu.md#hand-types)."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.cards import Card, parse_cards, standard_deck
from qipai.core.errors import InvalidInput
from qipai.games.niuniu.hands import (
    ALL_HANDS,
    HandType,
    all_hand_keys,
    build_all_hand_keys,
    card_code,
    compare,
    evaluate,
    hand_index,
    key_card,
    key_of,
    keys_of,
    points,
    rank_type_table,
    type_counts,
)

H = HandType


def hand(text: str) -> HandType:
    return evaluate(parse_cards(text)).type


@pytest.mark.parametrize(
    ("cards", "kind", "mult"),
    [
        # 五小牛: every card under 5 points and the total ≤ 10, no bull needed.
        ("Ac 2d 3h 2s Ah", H.FIVE_SMALL, 5),
        ("4c 3d Ah As Ad", H.FIVE_SMALL, 5),
        ("Ac Ad Ah As 4c", H.FIVE_SMALL, 5),  # also a bomb: the higher row wins
        ("2c 2d 2h 2s Ac", H.FIVE_SMALL, 5),  # total 9
        ("4c 3d 2h As Ad", H.NO_BULL, 1),  # total 11: not five small, and no triple reaches 10
        # 四炸: four of a rank, no bull needed.
        ("9c 9d 9h 9s Kc", H.BOMB, 4),
        ("Jc Jd Jh Js Qc", H.BOMB, 4),  # also five royals
        ("Jc Jd Jh Js Tc", H.BOMB, 4),  # also four royals
        ("2c 2d 2h 2s 3c", H.BOMB, 4),  # total 11: not five small
        # 五花牛 / 四花牛
        ("Jc Qd Kh Js Qc", H.FIVE_ROYALS, 4),
        ("Jc Qd Kh Js Tc", H.FOUR_ROYALS, 4),
        ("Jc Qd Kh 9s Tc", H.BULL_9, 2),  # three royals and a 10 are not four royals
        ("Jc Qd Kh Ks 9c", H.BULL_9, 2),  # four royals need a 10 as the fifth card
        # Bulls: three cards making a multiple of 10, the other two's sum mod 10.
        ("Kc Qd Th 5s 5c", H.BULL_BULL, 3),
        ("3c 7d Th 9s Ac", H.BULL_BULL, 3),
        ("6s 4c Kh 9d 7c", H.BULL_6, 1),
        ("2c 8h Qs 4s 4h", H.BULL_8, 2),
        ("2c 8h Qs 4s 3h", H.BULL_7, 2),
        ("Ks Qh Td 5c 6d", H.BULL_1, 1),
        # 无牛: no three cards make a multiple of 10.
        ("Ac 2d 4h 6s 8c", H.NO_BULL, 1),
        ("Ac 2d 4h 7s 9c", H.BULL_3, 1),  # A+2+7
        ("Kc Qd 9h 8s 2c", H.BULL_9, 2),  # 8+2+K
    ],
)
def test_types_and_multipliers(cards: str, kind: HandType, mult: int) -> None:
    h = evaluate(parse_cards(cards))
    assert h.type == kind
    assert h.multiplier == mult
    assert key_of(parse_cards(cards)) == h.key


def test_bull_and_point_cards() -> None:
    h = evaluate(parse_cards("2c 8h Qs 4s 4h"))
    assert h.bull_cards is not None and h.point_cards is not None
    assert sum(points(c) for c in h.bull_cards) % 10 == 0
    assert sorted(h.point_cards) == sorted(parse_cards("4s 4h"))
    assert set(h.bull_cards) | set(h.point_cards) == set(h.cards)
    no = evaluate(parse_cards("Ac 2d 4h 6s 8c"))
    assert no.bull_cards is None and no.point_cards is None
    j = h.to_json()
    assert j["zh"] == "牛八" and j["en"] == "bull 8" and j["multiplier"] == 2


def test_names() -> None:
    assert [t.zh for t in HandType][::-1] == (
        [
            "五小牛",
            "四炸",
            "五花牛",
            "四花牛",
            "牛牛",
            "牛九",
            "牛八",
            "牛七",
            "牛六",
            "牛五",
            "牛四",
            "牛三",
            "牛二",
            "牛一",
            "无牛",
        ]
    )


@pytest.mark.parametrize(
    ("winner", "loser"),
    [
        ("Kc 9d 3h 8s 9c", "Qs Jd 3c 7s 9h"),  # 牛九 v 牛九: K > Q
        ("Ac 2d 3h 2s Ah", "Kc Kd Kh Ks Qc"),  # 五小牛 > 四炸
        ("Kc Kd Kh Ks 2c", "Qc Qd Qh Qs 3d"),  # K bomb > Q bomb, whatever the fifth card
        ("2c 2d 2h 2s 3c", "Ac Ad Ah As Kc"),  # A bomb is the lowest bomb (AAAAK is no five small)
        ("Kd Qd Th 5s 5c", "Qs Jh Td 5d 5h"),  # 牛牛 v 牛牛: K > Q
        ("Ks Qd Th 5s 5c", "Kh Jh Td 5d 5h"),  # same top rank: ♠ > ♥
        ("Kh Qd Th 5s 5c", "Kc Jh Td 5d 5h"),  # ♥ > ♣
        ("Kc Qd Th 5s 5c", "Kd Jh Td 5d 5h"),  # ♣ > ♦
        ("Ac 2d 4d 7s 3c", "Kc Qd 9h 8s 4h"),  # 牛七 of low cards beats 无牛 with a K
        ("2c 3d 4h Ks 9c", "Ac 2d 4s 6s 8d"),  # 无牛 v 无牛: K > 8
        ("Ac 2d 4h 6s 8c", "Ac Ad 3h 4h 7d"),  # 无牛 v 无牛: 8 > 7
        ("Kc Qd 9h 8s 4h", "Ac 2d 4h 6s 8c"),  # 无牛 v 无牛: K > 8
    ],
)
def test_comparison(winner: str, loser: str) -> None:
    w, lo = evaluate(parse_cards(winner)), evaluate(parse_cards(loser))
    assert compare(w, lo) == 1 and compare(lo, w) == -1
    assert w.beats(lo) and not lo.beats(w)


def test_same_type_rank_then_suit() -> None:
    a = evaluate(parse_cards("Kc 9d 3h 8s 9c"))
    b = evaluate(parse_cards("Qs Jd 3c 7s 9h"))
    assert a.type == b.type == H.BULL_9
    assert a.top_card == Card(13, 0) and b.top_card == Card(12, 3)


def test_bad_hands_refused() -> None:
    with pytest.raises(InvalidInput):
        evaluate(parse_cards("Ac 2d 3h 4s"))
    with pytest.raises(InvalidInput):
        evaluate(parse_cards("Ac Ac 3h 4s 5d"))
    with pytest.raises(InvalidInput):
        keys_of(np.zeros((3, 4), dtype=np.int64))
    with pytest.raises(InvalidInput):
        keys_of([[0, 1, 2, 3, 52]])


five_cards = st.lists(st.sampled_from(standard_deck()), min_size=5, max_size=5, unique=True)


@settings(max_examples=300, deadline=None)
@given(five_cards)
def test_table_agrees_with_the_readable_evaluator(cards: list[Card]) -> None:
    h = evaluate(cards)
    assert key_of(cards) == h.key
    assert int(all_hand_keys()[hand_index(c.id for c in cards)]) == h.key
    assert key_card(h.key) in cards  # the key card is always one of the hand's cards
    if h.type != H.BOMB:
        assert h.top_card == max(cards, key=card_code)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(standard_deck()), min_size=10, max_size=10, unique=True))
def test_two_hands_from_one_deck_never_tie(cards: list[Card]) -> None:
    a, b = evaluate(cards[:5]), evaluate(cards[5:])
    assert compare(a, b) == -compare(b, a) != 0


# ------------------------------------------------------------------------------------------
# Exhaustive: every one of the 2,598,960 hands, against a second classifier written
# independently (vectorised numpy, explicit enumeration of the ten bull triples).
# ------------------------------------------------------------------------------------------


def _all_hands_colex() -> npt.NDArray[np.int64]:
    """Every 5-card hand as sorted card ids, in colex order (like `all_hand_keys`): the hands
    whose highest card is t come after all hands with a lower highest card."""
    rows = np.zeros((1, 0), dtype=np.int64)  # the one empty combination
    for k in range(1, 6):
        rows = np.concatenate(
            [
                np.hstack([rows[: comb(t, k - 1)], np.full((comb(t, k - 1), 1), t)])
                for t in range(k - 1, 52)
            ]
        )
    return rows


def _second_classifier(ids: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Type of each hand, from the source's table read literally, rows tried from the top."""
    rank = (ids // 4 + 2).astype(np.int16)  # 2..14, 14 = ace
    pts = np.where(rank == 14, 1, np.minimum(rank, 10)).astype(np.int16)
    col = [pts[:, i].copy() for i in range(5)]
    total = pts.sum(axis=1)
    five_small = (pts.max(axis=1) < 5) & (total <= 10)
    # Four of a kind: the middle card of the sorted hand is always one of the four.
    bomb = (rank == rank[:, 2:3]).sum(axis=1) == 4
    royals = ((rank >= 11) & (rank <= 13)).sum(axis=1)
    five_royals = royals == 5
    four_royals = (royals == 4) & (rank == 10).any(axis=1)
    # Best bull over every arrangement: value 10 for 牛牛, else the two cards' sum mod 10.
    best = np.zeros(len(ids), dtype=np.int16)
    for triple in itertools.combinations(range(5), 3):
        i, j = (x for x in range(5) if x not in triple)
        is_bull = (col[triple[0]] + col[triple[1]] + col[triple[2]]) % 10 == 0
        value = (col[i] + col[j]) % 10
        value[value == 0] = 10
        np.maximum(best, np.where(is_bull, value, 0), out=best)
    return np.select(
        [five_small, bomb, five_royals, four_royals],
        [14, 13, 12, 11],
        default=best,
    ).astype(np.int64)


EXPECTED_COUNTS = {
    H.FIVE_SMALL: 776,
    H.BOMB: 608,  # 13 × 48 = 624, less 16 that are five small (AAAA+2/3/4, 2222+A)
    H.FIVE_ROYALS: 768,  # C(12, 5) = 792, less 24 royal bombs
    H.FOUR_ROYALS: 1968,  # C(12, 4) × 4 = 1,980, less 12 JJJJ/QQQQ/KKKK + 10
    H.BULL_BULL: 189008,
    H.BULL_9: 171288,
    H.BULL_8: 168072,
    H.BULL_7: 171288,
    H.BULL_6: 168072,
    H.BULL_5: 177408,
    H.BULL_4: 168072,
    H.BULL_3: 171288,
    H.BULL_2: 168072,
    H.BULL_1: 171288,
    H.NO_BULL: 870984,
}


def test_exhaustive_classification_and_strict_comparison() -> None:
    keys = build_all_hand_keys().astype(np.int64)
    assert keys.shape == (ALL_HANDS,) == (2_598_960,)
    hands = _all_hands_colex()
    kinds = keys // 64
    # 1. Every hand's type agrees with the independent classifier, hence so does every count.
    second = _second_classifier(hands)
    assert np.array_equal(kinds, second)
    counts = {HandType(t): int(n) for t, n in enumerate(np.bincount(second, minlength=15))}
    assert counts == type_counts() == EXPECTED_COUNTS
    assert sum(counts.values()) == ALL_HANDS
    # 2. The tie-break card of every key is in the hand: two hands from one deck share no card,
    #    so they never have equal keys — every pair of distinct dealt hands compares strictly.
    code = keys % 64
    nrank, nsuit = code // 4, code % 4
    core_rank = np.where(nrank == 1, 14, nrank)
    core_suit = np.array([1, 0, 2, 3])[nsuit]
    key_id = (core_rank - 2) * 4 + core_suit
    assert (hands == key_id[:, None]).any(axis=1).all()
    # 3. The tie-break is the rule's: the highest card (K > … > A, then ♠ > ♥ > ♣ > ♦), or for a
    #    bomb all four cards of the key's rank.
    rank = hands // 4 + 2
    niu = np.where(rank == 14, 1, rank) * 4 + np.array([1, 0, 2, 3])[hands % 4]
    bomb = kinds == H.BOMB
    assert np.array_equal(code[~bomb], niu[~bomb].max(axis=1))
    assert ((rank[bomb] == core_rank[bomb][:, None]).sum(axis=1) == 4).all()
    assert np.array_equal(keys, all_hand_keys())


def test_rank_table_ignores_card_order() -> None:
    # The advisor indexes the rank table with kept ranks first, new ranks after: every order of
    # the same five ranks must give the same type (the exhaustive test covers sorted orders).
    table = rank_type_table()
    index = np.arange(13**5)
    digits = np.stack([(index // 13 ** (4 - i)) % 13 for i in range(5)], axis=1)
    ordered = np.sort(digits, axis=1)
    sorted_index = sum(ordered[:, i] * 13 ** (4 - i) for i in range(5))
    assert np.array_equal(table, table[sorted_index])
