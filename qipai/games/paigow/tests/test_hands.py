"""Pai Gow hands: the exhaustive 496 × 496 comparison with an independently written ordering,
and the source's statements one by one (docs/rules/paigow.md#hand-order, source/paigow-tiengow.zh.txt 牌型大小)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from qipai.core.errors import InvalidInput
from qipai.core.tiles import Tile, full_set, parse_tile
from qipai.games.paigow.hands import HAND_CLASSES, Hand, outcome, parse_hand

# ---- an independent ordering, written straight from the docs/rules/paigow.md#single-tile-order text with pips as strings ----

# docs/rules/paigow.md#single-tile-order single-tile order, high to low; a 杂 kind's two tiles share a place.
SINGLE_ORDER = [
    {"6-6"}, {"1-1"}, {"4-4"}, {"1-3"}, {"5-5"}, {"3-3"}, {"2-2"}, {"5-6"}, {"4-6"}, {"1-6"},
    {"1-5"}, {"4-5", "3-6"}, {"2-6", "3-5"}, {"2-5", "3-4"}, {"1-4", "2-3"}, {"2-4"}, {"1-2"},
]  # fmt: skip
CIVIL = ["6-6", "1-1", "4-4", "1-3", "5-5", "3-3", "2-2", "5-6", "4-6", "1-6", "1-5"]
MILITARY = ["4-5", "3-6", "2-6", "3-5", "2-5", "3-4", "1-4", "2-3", "2-4", "1-2"]


def place(pips: str) -> int:
    return next(i for i, group in enumerate(SINGLE_ORDER) if pips in group)


def named_order(high_nine: str) -> list[list[tuple[str, str]]]:
    """docs/rules/paigow.md#hand-order hand order (named hands only), each as its list of forms."""
    sevens = ["1-6", "2-5", "3-4"]
    order: list[list[tuple[str, str]]] = [[("1-2", "2-4")]]  # 至尊宝
    order += [[(t, t)] for t in CIVIL]  # 双天 … 双零霖
    order += [[("4-5", "3-6")], [("2-6", "3-5")], [("2-5", "3-4")], [("1-4", "2-3")]]  # 杂 pairs
    order += [[("6-6", n) for n in ("4-5", "3-6")]]  # 天王
    order += [[("1-1", n) for n in ("4-5", "3-6")]]  # 地王
    order += [[("6-6", e) for e in ("4-4", "2-6", "3-5")]]  # 天杠
    order += [[("1-1", e) for e in ("4-4", "2-6", "3-5")]]  # 地杠
    order += [[("6-6", s) for s in (sevens if high_nine == "any-seven" else ["2-5"])]]  # 天高九
    order += [[("1-1", s) for s in (sevens if high_nine == "any-seven" else ["1-6"])]]  # 地高九
    return order


def ref_points(a: str, b: str) -> int:
    def values(p: str) -> list[int]:
        if p in ("1-2", "2-4"):
            return [
                3,
                6,
            ]  # docs/rules/paigow.md#ding-three-and-er-si: 丁三 and 二四 each count 3 or 6
        lo, hi = p.split("-")
        return [int(lo) + int(hi)]

    return max((x + y) % 10 for x in values(a) for y in values(b))


def ref_named_index(a: str, b: str, high_nine: str) -> int | None:
    key = sorted((a, b))
    for i, forms in enumerate(named_order(high_nine)):
        if any(sorted(f) == key for f in forms):
            return i
    return None


RefKey = tuple[int | None, int, list[int]]


def ref_key(hand: tuple[str, str], high_nine: str) -> RefKey:
    """What the reference comparison looks at: named index, points, tile places."""
    return ref_named_index(*hand, high_nine), ref_points(*hand), sorted(place(t) for t in hand)


def ref_compare(r1: RefKey, r2: RefKey) -> int:
    """+1 when hand 1 is better, -1 when hand 2 is, 0 for equal hands (the tie policy decides)."""
    (n1, p1, k1), (n2, p2, k2) = r1, r2
    if n1 is not None or n2 is not None:
        if n1 is None:
            return -1
        if n2 is None:
            return 1
        return (n1 < n2) - (n1 > n2)  # lower index = higher hand; forms of one hand are equal
    if p1 != p2:
        return 1 if p1 > p2 else -1
    if p1 == 0:
        return 0  # both 0 points: equal
    # k = [place of the higher tile, place of the lower tile] by single-tile order
    return (k1 < k2) - (k1 > k2)


def all_hands() -> list[tuple[str, str]]:
    """The 496 hands: 496 = C(32, 2), the unordered pairs of the 32 *physical* tiles (the two copies
    of a civil tile are distinct objects). As tile kinds that is 221 distinct hands: 55 civil-civil
    kinds × 4 + 110 civil-military × 2 + 45 military-military × 1 + 11 civil pairs × 1 = 496."""
    tiles = [t for t in CIVIL for _ in range(2)] + MILITARY
    assert len(tiles) == 32
    return [(tiles[i], tiles[j]) for i, j in itertools.combinations(range(32), 2)]


def test_496_hands_count_and_kinds() -> None:
    hands = all_hands()
    assert len(hands) == 496
    kinds = Counter(tuple(sorted(h)) for h in hands)
    assert len(kinds) == 221
    assert sorted(Counter(kinds.values()).items()) == [(1, 56), (2, 110), (4, 55)]
    assert Counter(str(t) for t in full_set()) == Counter(
        [t for t in CIVIL for _ in range(2)] + MILITARY
    )


@pytest.mark.parametrize("high_nine", ["any-seven", "named"])
def test_exhaustive_496_by_496(high_nine: str) -> None:
    hands = all_hands()
    ours = [parse_hand(list(h), high_nine) for h in hands]  # type: ignore[arg-type]
    refs = [ref_key(h, high_nine) for h in hands]
    checked = 0
    for (h1, e1, r1), (h2, e2, r2) in itertools.product(
        zip(hands, ours, refs, strict=True), repeat=2
    ):
        expect = ref_compare(r1, r2)
        # h1 is the banker, h2 the player.
        want_banker_policy = "player" if expect < 0 else "banker"
        want_push_policy = {1: "banker", 0: "push", -1: "player"}[expect]
        got_b, got_p = outcome(e1, e2, "banker"), outcome(e1, e2, "push")
        if (got_b, got_p) != (want_banker_policy, want_push_policy):
            pytest.fail(f"{h1} (banker) v {h2}: expected {want_push_policy}, got {got_p}/{got_b}")
        checked += 1
    assert checked == 496 * 496


@pytest.mark.parametrize("high_nine", ["any-seven", "named"])
def test_names_ranks_and_points_match_reference(high_nine: str) -> None:
    for h in all_hands():
        hand = parse_hand(list(h), high_nine)  # type: ignore[arg-type]
        named = ref_named_index(*h, high_nine)
        if named is None:
            assert hand.cls.rank == 32 - ref_points(*h)
            assert hand.points == ref_points(*h)
        else:
            assert hand.cls.rank == named + 1
        assert hand.cls.zh and hand.cls.en


# ---- the source's statements, one by one ----------------------------------------------------


def h(text: str, high_nine: str = "any-seven") -> Hand:
    return parse_hand(text, high_nine)  # type: ignore[arg-type]


def test_every_hand_class_has_zh_and_en_names_in_source_order() -> None:
    zh = [c.zh for c in HAND_CLASSES]
    assert zh[:22] == [
        "至尊宝", "双天", "双地", "双人", "双鹅", "双梅", "双长三", "双板凳", "双斧头", "双红头",
        "双高脚", "双零霖", "杂九", "杂八", "杂七", "杂五", "天王", "地王", "天杠", "地杠",
        "天高九", "地高九",
    ]  # fmt: skip
    assert zh[22:] == [
        "九点",
        "八点",
        "七点",
        "六点",
        "五点",
        "四点",
        "三点",
        "二点",
        "一点",
        "零点",
    ]
    # the source's own (traditional) names, in its 牌型大小 order
    source = "至尊寶 雙天 雙地 雙人 雙鵝 雙梅 雙長三 雙板凳 雙斧頭 雙紅頭 雙高腳 雙零霖 雜九 雜八 雜七 雜五"
    source += " 天王 地王 天槓 地槓 天高九 地高九"
    assert [c.zh_hant for c in HAND_CLASSES[:22]] == source.split()
    assert [c.rank for c in HAND_CLASSES] == list(range(1, 33))
    assert len({c.en for c in HAND_CLASSES}) == 32


def test_source_order_chain_is_strict() -> None:
    # 牌型大小: 至尊寶 > 雙天 > … > 雜五 > 天王 > 地王 > 天杠 > 地杠 > 天高九 > 地高九 (then points)
    chain = [
        "1-2 2-4", "6-6 6-6", "1-1 1-1", "4-4 4-4", "1-3 1-3", "5-5 5-5", "3-3 3-3", "2-2 2-2",
        "5-6 5-6", "4-6 4-6", "1-6 1-6", "1-5 1-5", "4-5 3-6", "2-6 3-5", "2-5 3-4", "1-4 2-3",
        "6-6 4-5", "1-1 4-5", "6-6 4-4", "1-1 4-4", "6-6 2-5", "1-1 1-6", "4-6 4-5",
    ]  # fmt: skip
    hands = [h(c) for c in chain]
    for better, worse in itertools.pairwise(hands):
        assert outcome(worse, better, "push") == "player", (better.tiles, worse.tiles)
        assert outcome(better, worse, "push") == "banker"
    assert [x.cls.zh for x in hands[-7:]] == [
        "天王",
        "地王",
        "天杠",
        "地杠",
        "天高九",
        "地高九",
        "九点",
    ]


def test_supreme_is_ding_three_with_er_si_and_counts_nine() -> None:
    # 至尊寶: 丁三配二四, 點數 3+6=9
    hand = h("丁三 二四")
    assert hand.cls.zh == "至尊宝" and hand.points == 9
    assert outcome(h("6-6 6-6"), hand) == "player"


def test_swap_copper_hammer_six_with_er_si_counts_nine_not_two() -> None:
    # 若獲得一零霖六牌及二四牌,可以視為6+6=12,只有2點;亦可視為6+3=9點
    hand = h("1-5 2-4")
    assert hand.points == 9 and hand.cls.zh == "九点"
    assert hand.values == (6, 3)
    assert h("1-5 1-2").points == 9  # 丁三 as 3 with 零霖六: 9 too
    assert h("6-6 1-2").points == 8  # 丁三 as 6: 12 + 6 = 18 → 8


@pytest.mark.parametrize("other", sorted({str(t) for t in full_set()} - {"1-2", "2-4"}))
def test_er_si_beats_ding_three_when_the_other_tile_is_equal(other: str) -> None:
    # 若兩位玩家各有丁三和二四牌,並且另外一張牌也相同的情況下,持二四牌的玩家獲勝
    with_er_si, with_ding_three = h(f"{other} 2-4"), h(f"{other} 1-2")
    assert with_er_si.points == with_ding_three.points
    assert outcome(with_ding_three, with_er_si, "banker") == "player"
    assert outcome(with_er_si, with_ding_three, "push") == "banker"


def test_named_hand_forms_are_equal() -> None:
    # 天王 = 天王, 地王 = 地王, 天杠 = 天杠 = 天杠, …: the source pictures equal forms
    groups = {
        "天王": ["6-6 4-5", "6-6 3-6"],
        "地王": ["1-1 4-5", "1-1 3-6"],
        "天杠": ["6-6 4-4", "6-6 2-6", "6-6 3-5"],
        "地杠": ["1-1 4-4", "1-1 2-6", "1-1 3-5"],
        "天高九": ["6-6 1-6", "6-6 2-5", "6-6 3-4"],
        "地高九": ["1-1 1-6", "1-1 2-5", "1-1 3-4"],
    }
    for name, forms in groups.items():
        hands = [h(f) for f in forms]
        assert {x.cls.zh for x in hands} == {name}
        for a, b in itertools.permutations(hands, 2):
            assert outcome(a, b, "push") == "push"
            assert outcome(a, b, "banker") == "banker"


def test_king_and_bar_points_as_the_source_states() -> None:
    assert h("6-6 4-5").points == 1  # 天王: 12+9=21, 個位數是1
    assert h("1-1 3-6").points == 1  # 地王: 2+9=11
    assert h("6-6 4-4").points == 0  # 天杠: 12+8=20
    assert h("1-1 2-6").points == 0  # 地杠: 2+8=10
    assert h("6-6 2-5").points == 9  # 天高九: 12+7=19
    assert h("1-1 1-6").points == 9  # 地高九: 2+7=9


def test_high_nine_named_reading() -> None:
    # docs/rules/paigow.md#high-nine Decision: high_nine = named → only 天 + 二五 and 地 + 高脚七
    assert h("6-6 2-5", "named").cls.zh == "天高九"
    assert h("1-1 1-6", "named").cls.zh == "地高九"
    for other in ("6-6 1-6", "6-6 3-4", "1-1 2-5", "1-1 3-4"):
        assert h(other, "named").cls.zh == "九点"
        assert h(other, "any-seven").cls.zh in ("天高九", "地高九")
    # a 9-point hand loses to 地高九 under either reading
    assert outcome(h("1-1 1-6", "named"), h("6-6 3-4", "named")) == "banker"


def test_equal_points_higher_tile_then_lower_tile_then_banker() -> None:
    # docs/rules/paigow.md#equal-hands Decision: equal points → the higher tile, then the lower tile
    assert outcome(h("5-5 4-5"), h("1-3 1-4")) == "player"  # 9 v 9: 鹅 > 梅
    assert outcome(h("2-2 1-4"), h("2-2 4-5"), "push") == "banker"  # 9 v 3: points first
    assert outcome(h("6-6 5-6"), h("6-6 4-5")) == "player"  # 3 v 天王
    assert outcome(h("4-4 1-3"), h("4-4 2-2")) == "banker"  # 2 v 6: points first
    assert outcome(h("5-6 4-4"), h("5-6 2-6")) == "banker"  # 9 v 9, 斧头 equal; 人 > 杂八
    assert outcome(h("2-2 1-4"), h("2-2 2-3"), "push") == "push"  # same 杂 kind: equal
    assert outcome(h("2-2 1-4"), h("2-2 2-3"), "banker") == "banker"


def test_both_zero_points_are_equal_whatever_the_tiles() -> None:
    zero_a, zero_b = h("4-6 5-5"), h("2-2 1-5")
    assert zero_a.points == zero_b.points == 0
    assert outcome(zero_a, zero_b, "banker") == "banker"
    assert outcome(zero_b, zero_a, "banker") == "banker"
    assert outcome(zero_a, zero_b, "push") == "push"


def test_bad_hands_are_refused() -> None:
    with pytest.raises(InvalidInput):
        parse_hand(["4-5", "4-5"])  # one 杂九 4-5 in the set
    with pytest.raises(InvalidInput):
        parse_hand(["6-6"])
    with pytest.raises(InvalidInput):
        parse_hand(["6-6", "7-7"])
    assert parse_tile("天") == Tile(6, 6)
