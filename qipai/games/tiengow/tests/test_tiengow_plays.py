"""The nine kinds of play (docs/rules/tiengow.md#kinds-of-play): every 1–4-tile subset, and each sentence of the source."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from qipai.core.tiles import Tile, full_set, parse_tiles
from qipai.games.tiengow.plays import (
    Kind,
    Play,
    beats,
    classify,
    legal_beats,
    legal_discards,
    legal_leads,
    may_win_last_trick,
)

# An independent table of every play, written out by hand from docs/rules/tiengow.md#kinds-of-play (not generated from
# the implementation's tables): pips -> (kind, rank within kind, 0 = highest).
C, M, CP, MP, MX = Kind.CIVIL, Kind.MILITARY, Kind.CIVIL_PAIR, Kind.MILITARY_PAIR, Kind.MIXED_PAIR
SU, TC, TM, F4 = Kind.SUPREME, Kind.THREE_CIVIL, Kind.THREE_MILITARY, Kind.FOUR
EXPECTED: dict[str, tuple[Kind, int]] = {
    # 文牌: 天 地 人 鹅 梅 长三 板凳 虎头 红头十 高脚七 大头六
    "6-6": (C, 0), "1-1": (C, 1), "4-4": (C, 2), "1-3": (C, 3), "5-5": (C, 4), "3-3": (C, 5),
    "2-2": (C, 6), "5-6": (C, 7), "4-6": (C, 8), "1-6": (C, 9), "1-5": (C, 10),
    # 武牌: 九 (4-5 = 3-6) 八 (2-6 = 3-5) 七 (2-5 = 3-4) 大鸡六 2-4, 五 (1-4 = 2-3), 细鸡六 1-2
    "4-5": (M, 0), "3-6": (M, 0), "2-6": (M, 1), "3-5": (M, 1), "2-5": (M, 2), "3-4": (M, 2),
    "2-4": (M, 3), "1-4": (M, 4), "2-3": (M, 4), "1-2": (M, 5),
    # 文对
    "6-6 6-6": (CP, 0), "1-1 1-1": (CP, 1), "4-4 4-4": (CP, 2), "1-3 1-3": (CP, 3),
    "5-5 5-5": (CP, 4), "3-3 3-3": (CP, 5), "2-2 2-2": (CP, 6), "5-6 5-6": (CP, 7),
    "4-6 4-6": (CP, 8), "1-6 1-6": (CP, 9), "1-5 1-5": (CP, 10),
    # 武对: 杂九 杂八 杂七 杂五
    "4-5 3-6": (MP, 0), "2-6 3-5": (MP, 1), "2-5 3-4": (MP, 2), "1-4 2-3": (MP, 3),
    # 文武: 天九 地八 人七 鹅五
    "6-6 4-5": (MX, 0), "6-6 3-6": (MX, 0), "1-1 2-6": (MX, 1), "1-1 3-5": (MX, 1),
    "4-4 2-5": (MX, 2), "4-4 3-4": (MX, 2), "1-3 1-4": (MX, 3), "1-3 2-3": (MX, 3),
    # 至尊
    "2-4 1-2": (SU, 0),
    # 三文
    "6-6 6-6 4-5": (TC, 0), "6-6 6-6 3-6": (TC, 0), "1-1 1-1 2-6": (TC, 1),
    "1-1 1-1 3-5": (TC, 1), "4-4 4-4 2-5": (TC, 2), "4-4 4-4 3-4": (TC, 2),
    "1-3 1-3 1-4": (TC, 3), "1-3 1-3 2-3": (TC, 3),
    # 三武
    "6-6 4-5 3-6": (TM, 0), "1-1 2-6 3-5": (TM, 1), "4-4 2-5 3-4": (TM, 2), "1-3 1-4 2-3": (TM, 3),
    # 四文武
    "6-6 6-6 4-5 3-6": (F4, 0), "1-1 1-1 2-6 3-5": (F4, 1), "4-4 4-4 2-5 3-4": (F4, 2),
    "1-3 1-3 1-4 2-3": (F4, 3),
}  # fmt: skip


def key(tiles: list[Tile] | tuple[Tile, ...]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles))


TABLE = {key(parse_tiles(k)): v for k, v in EXPECTED.items()}


def P(text: str, wen_zun: bool = False) -> Play:
    play = classify(parse_tiles(text), wen_zun)
    assert play is not None, text
    return play


@pytest.mark.parametrize("wen_zun", [False, True])
def test_every_subset_of_the_32_tiles_has_the_kind_of_the_independent_table(wen_zun: bool) -> None:
    tiles = full_set()
    seen: Counter[tuple[Kind, int]] = Counter()
    count = 0
    for size in range(1, 5):
        for subset in combinations(range(32), size):
            faces = [tiles[i] for i in subset]
            play = classify(faces, wen_zun)
            expected = TABLE.get(key(faces))
            count += 1
            if expected is None:
                assert play is None, faces
                continue
            assert play is not None, faces
            assert (play.kind, play.rank) == expected, faces
            assert play.size == size
            is_wen_zun = wen_zun and key(faces) == key(parse_tiles("1-5 1-5"))
            assert play.wen_zun == is_wen_zun
            assert play.zun == (play.kind is Kind.SUPREME or is_wen_zun)
            seen[expected] += 1
    assert count == 32 + 496 + 4960 + 35960
    # Every entry of the table is reachable (civil pairs and 三文/四文武 in several copies).
    assert set(seen) == set(TABLE.values())


ALL_PLAYS = [P(k) for k in EXPECTED]


def beaters_of(text: str, wen_zun: bool = False) -> set[str]:
    target = P(text, wen_zun)
    return {k for k in EXPECTED if beats(P(k, wen_zun), target)}


def test_di_ba_is_beaten_only_by_tian_jiu() -> None:
    # Source: 如果上家出地八的話，玩家只能以天九來壓，而不能用雙天或雜九來攻擊
    assert beaters_of("1-1 2-6") == {"6-6 4-5", "6-6 3-6"}
    assert not beats(P("6-6 6-6"), P("1-1 2-6"))
    assert not beats(P("4-5 3-6"), P("1-1 2-6"))


def test_za_ba_pair_is_beaten_only_by_za_jiu_pair() -> None:
    # Source: 雜八對只能用雜九對而不是天九或雙天來打
    assert beaters_of("2-6 3-5") == {"4-5 3-6"}
    assert not beats(P("6-6 4-5"), P("2-6 3-5"))
    assert not beats(P("6-6 6-6"), P("2-6 3-5"))


def test_three_civil_di_ba_cannot_beat_three_military_goose_five() -> None:
    # Source: 三文和三武為不同組合，即使地八比和五大，「三文地八」亦不能壓「三武和五」
    assert P("1-1 1-1 2-6").kind is Kind.THREE_CIVIL
    assert P("1-3 1-4 2-3").kind is Kind.THREE_MILITARY
    assert not beats(P("1-1 1-1 2-6"), P("1-3 1-4 2-3"))
    assert beats(P("1-1 2-6 3-5"), P("1-3 1-4 2-3"))  # 三武地八 does


def test_only_the_same_kind_beats() -> None:
    for new in ALL_PLAYS:
        for best in ALL_PLAYS:
            if beats(new, best):
                assert new.kind is best.kind and new.rank < best.rank


def test_beats_is_exactly_same_kind_and_strictly_higher_in_the_independent_table() -> None:
    # Both directions, every pair of plays, ranks from the hand-written table (文尊 off):
    # docs/rules/tiengow.md#kinds-of-play "only the same kind can beat it", "strictly higher", 至尊 "nothing beats it".
    for text_new, (kind_new, rank_new) in EXPECTED.items():
        for text_best, (kind_best, rank_best) in EXPECTED.items():
            want = kind_new is kind_best and rank_new < rank_best
            assert beats(P(text_new), P(text_best)) == want, (text_new, text_best)


def test_equal_plays_do_not_beat_the_first_played_holds() -> None:
    for text_a, text_b in [
        ("6-6", "6-6"),
        ("4-5", "3-6"),
        ("6-6 4-5", "6-6 3-6"),
        ("1-1 1-1 2-6", "1-1 1-1 3-5"),
    ]:
        assert not beats(P(text_a), P(text_b)) and not beats(P(text_b), P(text_a))
    for play in ALL_PLAYS:
        assert not beats(play, play)


def test_higher_of_the_same_kind_beats() -> None:
    assert beats(P("6-6"), P("1-1"))
    assert beats(P("1-5"), P("1-5")) is False
    assert beats(P("4-5"), P("2-6"))  # 九 beats 八
    assert beats(P("2-4"), P("1-4"))  # 大鸡六 beats 五
    assert beats(P("2-3"), P("1-2"))  # 五 beats 细鸡六 (counts as three)
    assert beats(P("6-6 6-6 4-5 3-6"), P("1-1 1-1 2-6 3-5"))


def test_civil_and_military_singles_are_different_kinds() -> None:
    assert not beats(P("6-6"), P("1-2"))
    assert not beats(P("4-5"), P("1-5"))


def test_supreme_is_unbeatable_and_its_tiles_make_no_military_pair() -> None:
    supreme = P("2-4 1-2")
    assert supreme.kind is Kind.SUPREME and supreme.zun
    assert not any(beats(p, supreme) for p in ALL_PLAYS)
    assert classify(parse_tiles("2-4 1-4")) is None


def test_wen_zun_off_big_head_six_pair_is_the_lowest_civil_pair() -> None:
    pair = P("1-5 1-5")
    assert pair.kind is Kind.CIVIL_PAIR and not pair.zun and pair.name == "双大头六"
    civil_pairs = [p for p in ALL_PLAYS if p.kind is Kind.CIVIL_PAIR and p != pair]
    assert all(beats(p, pair) for p in civil_pairs)
    assert not any(beats(pair, p) for p in civil_pairs)


def test_wen_zun_on_beats_every_civil_pair_but_high_seven_pair_beats_it() -> None:
    # Source: 文尊-一對銅錘(拎冧六)，先出為大，除了高腳七對外無牌可打 (optional rule)
    wen = P("1-5 1-5", wen_zun=True)
    assert wen.wen_zun and wen.zun and wen.name == "文尊"
    assert beaters_of("1-5 1-5", wen_zun=True) == {"1-6 1-6"}
    for text in EXPECTED:
        other = P(text, wen_zun=True)
        if other.kind is Kind.CIVIL_PAIR and text != "1-5 1-5":
            assert beats(wen, other) == (text != "1-6 1-6"), text
    assert not beats(wen, P("6-6 4-5", wen_zun=True))


def hand_of(text: str) -> list[tuple[int, Tile]]:
    return list(enumerate(parse_tiles(text)))


def test_legal_leads_are_exactly_the_subsets_in_the_table() -> None:
    hand = hand_of("6-6 6-6 4-5 3-6 1-2 2-4 1-5 1-5")
    leads = legal_leads(hand)
    expected = set()
    for size in range(1, 5):
        for subset in combinations(hand, size):
            if key([t for _, t in subset]) in TABLE:
                expected.add(tuple(i for i, _ in subset))
    assert {ids for ids, _ in leads} == expected
    names = {p.name for _, p in leads}
    assert {"四天九", "三文天九", "三武天九", "天九", "杂九", "至尊", "双天", "双大头六"} <= names


def test_legal_beats_same_size_kind_and_strictly_higher() -> None:
    hand = hand_of("6-6 1-1 4-4 2-6 3-5 4-5 1-2 2-4")
    assert {ids for ids, _ in legal_beats(hand, P("4-4"))} == {(0,), (1,)}
    assert {ids for ids, _ in legal_beats(hand, P("1-1 2-6"))} == {(0, 5)}  # only 天九
    assert legal_beats(hand, P("2-4 1-2")) == []
    assert {ids for ids, _ in legal_beats(hand, P("1-3 1-4 2-3"))} == {(1, 3, 4)}  # 三武地八


def test_legal_discards_are_any_tiles_of_the_trick_size() -> None:
    hand = hand_of("6-6 1-1 4-4 2-6 3-5 4-5 1-2 2-4")
    for size, count in [(1, 8), (2, 28), (3, 56), (4, 70)]:
        discards = legal_discards(hand, size)
        assert len(discards) == len(set(discards)) == count


def test_two_dong_rule_predicate() -> None:
    assert not may_win_last_trick(0, 1)  # no 栋 after seven tiles: must discard the last one
    assert may_win_last_trick(0, 2)  # none after six: the last two as a combination may win
    assert may_win_last_trick(1, 1)
    hand = hand_of("6-6")
    assert legal_beats(hand, P("1-1"), last_trick=True, dong=0) == []
    assert legal_beats(hand, P("1-1"), last_trick=True, dong=1) == [((0,), P("6-6"))]
    pair = hand_of("6-6 6-6")
    assert legal_beats(pair, P("1-1 1-1"), last_trick=True, dong=0) == [((0, 1), P("6-6 6-6"))]
