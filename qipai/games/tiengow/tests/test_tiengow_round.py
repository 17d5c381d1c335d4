"""The Tien Gow game (docs/rules/tiengow.md): deal, turns, tricks, 栋, 结, 尊钱, two-栋 rule, hidden discards."""

from __future__ import annotations

import json
from typing import Any

import pytest

from qipai.core.errors import IllegalAction, InvalidInput, OutOfTurn, WrongPhase
from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.core.tiles import parse_tile
from qipai.games import game_package
from qipai.games.tiengow.config import TienGowConfig
from qipai.games.tiengow.round import TienGowRound

from .helpers import SEATS, discard, ids, make_round, play

# Stacks that no game can exhaust: the cap (docs/rules/tiengow.md) changes nothing.
RICH = 10**9

HANDS = {
    "E": "5-6 5-6 6-6 1-1 4-4 1-3 3-3 2-2",
    "S": "6-6 1-1 4-6 4-6 1-6 4-5 2-6 2-5",
    "W": "5-5 5-5 4-4 1-3 3-3 3-6 3-5 3-4",
    "N": "2-2 1-6 1-5 1-5 1-4 2-3 2-4 1-2",
}


def snapshot(round_: TienGowRound) -> str:
    return json.dumps(
        [round_.view(None), *[round_.view(s) for s in SEATS], len(round_.log)], sort_keys=True
    )


def seeded(n: int, context: dict[str, Any] | None = None) -> TienGowRound:
    seats = [Seat(s, RICH) for s in SEATS]
    return TienGowRound.start(TienGowConfig(), seats, Rng(n.to_bytes(32, "big")), context)


def test_package_exports_round_and_config() -> None:
    package = game_package("tiengow")
    assert package.ROUND is TienGowRound and package.CONFIG is TienGowConfig
    config = TienGowConfig(base=50, wen_zun=True, zun_units=2, turn_seconds=15)
    assert TienGowConfig.from_json(config.to_json()) == config
    for bad in ({"base": 0}, {"wen_zun": "yes"}, {"zun_units": -1}, {"nonsense": 1}):
        with pytest.raises(InvalidInput):
            TienGowConfig.from_json(bad)


def test_deal_eight_each_four_at_a_time_counter_clockwise_from_the_banker() -> None:
    round_ = seeded(1, {"banker": "W", "banker_streak": 1})
    order = ["W", "N", "E", "S"]
    for k, seat in enumerate(order):
        assert sorted(round_.hands[seat]) == [
            *range(4 * k, 4 * k + 4),
            *range(16 + 4 * k, 20 + 4 * k),
        ]
    assert sorted(round_.deck) == sorted(seeded(2).deck)  # the 32 tiles, shuffled
    assert round_.deck != seeded(2).deck
    assert round_.turn == "W" and round_.awaiting() == ["W"] and round_.deadline_s == 15.0


def test_first_banker_is_random_and_context_keeps_the_bank() -> None:
    bankers = {seeded(n).banker for n in range(40)}
    assert bankers == set(SEATS)
    assert seeded(3, {"banker": "N", "banker_streak": 3}).multiplier == 4
    with pytest.raises(InvalidInput):
        seeded(3, {"banker": "X"})
    with pytest.raises(InvalidInput):
        TienGowRound.start(TienGowConfig(), [Seat("A"), Seat("B")], Rng(b"\x00" * 32))
    # A misspelt or half context would silently lose the 连庄 multiplier: refused instead.
    with pytest.raises(InvalidInput, match="unknown"):
        seeded(3, {"banker": "N", "streak": 3})
    with pytest.raises(InvalidInput, match="banker_streak"):
        seeded(3, {"banker_streak": 3})


def test_source_trick_axe_pair_beaten_by_plum_pair() -> None:
    # Source: 莊家先出斧頭對；第二家無任何比斧頭對大的文對，必需墊兩隻；第三家出梅花對；第四家墊牌
    # → 第三家贏了兩棟牌，並有權於下一圈先出牌.
    r = make_round(HANDS)
    play(r, "E", "5-6 5-6")
    legal = r.legal_actions("S")
    assert [spec.type for spec in legal] == ["discard"]  # 红头十 pair is lower: no beat
    assert legal[0].options["count"] == 2 and len(legal[0].options["choices"]) == 28
    discard(r, "S", "4-6 2-5")
    plays = r.legal_actions("W")[0].options["plays"]
    assert plays == [ids(r, "W", "5-5 5-5")]
    play(r, "W", "5-5 5-5")
    assert [s.type for s in r.legal_actions("N")] == ["discard"]  # 大头六 pair is lower
    discard(r, "N", "1-5 1-5")
    assert r.dong == {"E": 0, "S": 0, "W": 2, "N": 0}
    assert r.turn == "W" and r.trick.leader == "W"
    assert r.tricks[0].winner == "W"


def test_turns_go_counter_clockwise_and_nobody_acts_early() -> None:
    # 上家不打，下家不垫: a player acts only after the previous one.
    r = make_round(HANDS)
    before = snapshot(r)
    with pytest.raises(OutOfTurn):
        discard(r, "S", "4-6")
    assert snapshot(r) == before
    play(r, "E", "6-6")
    assert r.turn == "S"
    with pytest.raises(OutOfTurn):
        discard(r, "W", "3-4")


@pytest.mark.parametrize(
    ("seat", "action", "error"),
    [
        ("E", {"type": "discard", "tiles": [0]}, IllegalAction),  # the leader must lead
        ("E", {"type": "play", "tiles": []}, InvalidInput),
        ("E", {"type": "play", "tiles": [99]}, InvalidInput),  # tile ids are 0-31
        ("E", {"type": "play", "tiles": [True]}, InvalidInput),
        ("E", {"type": "play", "tiles": "0"}, InvalidInput),
        ("E", {"type": "pass", "tiles": [0]}, InvalidInput),
        ("E", {"tiles": [0]}, InvalidInput),
        ("E", {"type": "play", "tiles": [0], "tile": [1]}, InvalidInput),  # a stray field
    ],
)
def test_refusals_change_nothing(seat: str, action: dict[str, Any], error: type[Exception]) -> None:
    r = make_round(HANDS)
    before = snapshot(r)
    with pytest.raises(error):
        r.act(seat, action)
    assert snapshot(r) == before


def test_bad_plays_are_refused_and_change_nothing() -> None:
    r = make_round(HANDS)
    before = snapshot(r)
    with pytest.raises(IllegalAction, match="nine kinds"):
        play(r, "E", "6-6 1-1")  # not a play
    e_ids = ids(r, "E", "6-6")
    with pytest.raises(InvalidInput):
        r.act("E", {"type": "play", "tiles": e_ids + e_ids})
    assert snapshot(r) == before
    play(r, "E", "1-1")
    before = snapshot(r)
    with pytest.raises(IllegalAction, match="does not beat"):
        play(r, "S", "1-1")  # equal does not beat: the first played holds
    with pytest.raises(IllegalAction, match="does not beat"):
        play(r, "S", "4-5")  # a military single cannot beat a civil single
    with pytest.raises(IllegalAction, match="1 tile"):
        discard(r, "S", "4-6 4-6")
    with pytest.raises(IllegalAction, match="not in your hand"):
        r.act("S", {"type": "discard", "tiles": ids(r, "E", "2-2")})
    assert snapshot(r) == before
    play(r, "S", "6-6")
    assert r.trick.entries[r.trick.best].seat == "S"


def run_singles(r: TienGowRound, e_leads: list[str], keep: dict[str, str]) -> None:
    """E leads these singles; everyone else discards its lowest tile not in `keep`."""
    for tile in e_leads:
        play(r, "E", tile)
        for seat in ("S", "W", "N"):
            kept = [parse_tile(t) for t in keep.get(seat, "").split()]
            spare = [i for i in sorted(r.hands[seat]) if r.deck[i] not in kept]
            r.act(seat, {"type": "discard", "tiles": spare[:1]})


def test_no_dong_after_seven_tiles_must_discard_the_last_one() -> None:
    r = make_round(HANDS)
    run_singles(r, ["5-6", "5-6", "6-6", "4-4", "1-3", "3-3", "2-2"], {"S": "6-6"})
    assert r.dong["S"] == 0 and r.dong["E"] == 7
    play(r, "E", "1-1")  # the last trick: S's 天 would beat 地, but S holds no 栋
    assert r.view("S")["last_trick"] is True
    assert [spec.type for spec in r.legal_actions("S")] == ["discard"]
    before = snapshot(r)
    with pytest.raises(IllegalAction, match="two-栋"):
        play(r, "S", "6-6")
    assert snapshot(r) == before
    discard(r, "S", "6-6")
    discard(r, "W", r_tile(r, "W"))
    discard(r, "N", r_tile(r, "N"))
    assert r.finished and r.winner == "E" and r.dong["E"] == 8


def r_tile(r: TienGowRound, seat: str) -> str:
    return str(r.deck[r.hands[seat][0]])


def test_one_dong_after_seven_may_win_the_last_trick() -> None:
    r = make_round(HANDS)
    play(r, "E", "2-2")
    play(r, "S", "1-1")  # S takes one 栋 and leads
    discard(r, "W", "3-4")
    discard(r, "N", "1-4")
    play(r, "S", "1-6")
    discard(r, "W", "3-5")
    discard(r, "N", "2-3")
    play(r, "E", "5-6")  # 虎头 beats 高脚七; E leads the rest
    run_singles(r, ["5-6", "6-6", "4-4", "1-3", "3-3"], {"S": "6-6"})
    play(r, "E", "1-1")
    assert r.dong["S"] == 1
    assert r.legal_actions("S")[0].options["plays"] == [ids(r, "S", "6-6")]
    play(r, "S", "6-6")
    discard(r, "W", r_tile(r, "W"))
    discard(r, "N", r_tile(r, "N"))
    assert r.winner == "S" and r.dong == {"E": 6, "S": 2, "W": 0, "N": 0}
    # E banker loses with 6 栋 (入二, not multiplied); W and N 空栋.
    assert r.result().details["units"] == {"E": 2, "S": 8, "W": -5, "N": -5}


def test_none_after_six_may_win_the_last_two_as_a_combination() -> None:
    r = make_round(HANDS)
    run_singles(r, ["6-6", "1-1", "4-4", "1-3", "3-3", "2-2"], {"W": "5-5 5-5"})
    assert r.dong == {"E": 6, "S": 0, "W": 0, "N": 0}
    play(r, "E", "5-6 5-6")
    discard(r, "S", " ".join(str(r.deck[i]) for i in r.hands["S"]))
    assert [s.type for s in r.legal_actions("W")] == ["play", "discard"]
    play(r, "W", "5-5 5-5")  # 0 栋 + 2 = 2: allowed
    discard(r, "N", " ".join(str(r.deck[i]) for i in r.hands["N"]))
    assert r.finished and r.winner == "W"
    details = r.result().details
    assert details["dong"] == {"E": 6, "S": 0, "W": 2, "N": 0}
    # E banker loses with 6 栋: 入二, paid unmultiplied; S and N 空栋 pay 5 each.
    assert details["units"] == {"E": 2, "S": -5, "W": 8, "N": -5}
    assert r.next_round().context == {"banker": "W", "banker_streak": 1}


def test_finished_game_refuses_moves_and_unfinished_has_no_result() -> None:
    r = make_round(HANDS)
    with pytest.raises(WrongPhase):
        r.result()
    with pytest.raises(WrongPhase):
        r.next_round()
    while not r.finished:
        r.expire()
    assert r.phase == "finished" and r.turn is None and r.awaiting() == []
    assert r.deadline_s is None and r.legal_actions("E") == []
    with pytest.raises(WrongPhase):
        r.expire()
    with pytest.raises(WrongPhase):
        r.act("E", {"type": "play", "tiles": [0]})


def test_view_shape_for_the_browser_table() -> None:
    r = make_round(HANDS, streak=2)
    play(r, "E", "6-6")
    discard(r, "S", "2-5")
    view = r.view("S")
    assert view["me"]["id"] == "S" and view["seats"] == SEATS and view["turn"] == "W"
    assert view["banker"] == "E" and view["banker_streak"] == 2 and view["multiplier"] == 3
    hand = view["me"]["hand"]
    assert len(hand) == 7 and {"id", "tile", "zh", "en", "civil"} <= set(hand[0])
    assert view["hand_counts"] == {"E": 7, "S": 7, "W": 8, "N": 8}
    trick = view["trick"]
    assert trick["kind"] == "civil" and trick["best"] == "E" and trick["size"] == 1
    assert trick["entries"][0]["play"]["zh"] == "天"
    assert trick["entries"][1] == {
        "seat": "S",
        "action": "discard",
        "count": 1,
        "tiles": [
            {
                "id": ids_of_discard(r),
                "tile": "2-5",
                "zh": "七",
                "en": "seven",
                "civil": False,
                "order": 13,  # after the 11 civil tiles: 九 11, 八 12, 七 13
            }
        ],
    }
    assert "tiles" not in r.view("W")["trick"]["entries"][1]
    assert "tiles" not in r.view(None)["trick"]["entries"][1]
    assert r.view(None)["me"] is None
    assert view["countdown_s"] == 15.0 and view["last_trick"] is False and view["zun"] == []
    with pytest.raises(OutOfTurn):
        r.view("X")
    # Once finished (module docstring): no trick, no turn, the result without its tricks.
    while not r.finished:
        r.expire()
    done = r.view("S")
    assert done["trick"] is None and done["turn"] is None and done["countdown_s"] is None
    details = r.result().details
    assert done["result"] == {k: v for k, v in details.items() if k != "tricks"}
    assert set(done["result"]) == {
        "winner", "banker", "banker_streak", "multiplier", "base", "dong", "units", "net",
        "raw_net", "capped", "stacks", "breakdown", "next_banker", "next_banker_streak",
    }  # fmt: skip
    assert set(done["result"]["breakdown"][0]) == {
        "from", "to", "units", "base_units", "multiplier", "reason", "amount",
    }  # fmt: skip


def ids_of_discard(r: TienGowRound) -> int:
    return r.trick.entries[1].tiles[0]


def test_beating_is_optional() -> None:
    r = make_round(HANDS)
    play(r, "E", "1-1")
    assert [s.type for s in r.legal_actions("S")] == ["play", "discard"]
    discard(r, "S", "6-6")  # S could beat 地 with 天 but may discard instead
    assert r.trick.entries[r.trick.best].seat == "E"


def test_every_play_has_its_own_english_name() -> None:
    from itertools import combinations

    from qipai.core.tiles import full_set
    from qipai.games.tiengow.plays import classify

    names: dict[tuple[str, int, bool], str] = {}
    tiles = full_set()
    for size in (1, 2, 3, 4):
        for combo in combinations(tiles, size):
            for wen_zun in (False, True):
                play = classify(list(combo), wen_zun)
                if play is not None:
                    names[(play.kind.value, play.rank, play.wen_zun)] = play.name_en
    # 11 civil + 6 military singles, 11 civil pairs + 文尊, 4 military pairs, 4 mixed pairs,
    # 至尊, 4 of each of the three- and four-tile kinds.
    assert len(names) == 11 + 6 + 12 + 4 + 4 + 1 + 12
    assert all(names.values()) and len(set(names.values())) == len(names)
    assert names[("civil_pair", 0, False)] == "pair of heaven"
    assert names[("mixed_pair", 0, False)] == "heaven nine"
