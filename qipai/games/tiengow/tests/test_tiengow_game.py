"""Whole games: 尊钱, silence defaults, replay, 连庄, and discards hidden from everyone else."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.core.tiles import Tile
from qipai.games.tiengow.bots import RandomBot
from qipai.games.tiengow.config import TienGowConfig
from qipai.games.tiengow.round import TienGowRound, lowest_first, silence_order

from .helpers import SEATS, discard, make_round, play
from .test_tiengow_round import HANDS

# Stacks that no game can exhaust: the cap (docs/rules/tiengow.md) changes nothing.
RICH = 10**9


def tile_ids(data: Any) -> set[int]:
    """Every tile id mentioned anywhere in a JSON document ({"id": n, "tile": ...} objects)."""
    found: set[int] = set()
    if isinstance(data, dict):
        if "id" in data and "tile" in data:
            found.add(data["id"])
        for value in data.values():
            found |= tile_ids(value)
    elif isinstance(data, list):
        for value in data:
            found |= tile_ids(value)
    return found


def test_zun_money_at_the_moment_supreme_is_played() -> None:
    r = make_round(HANDS, banker="N")
    events = r.act(
        "N",
        {
            "type": "play",
            "tiles": sorted(i for i in r.hands["N"] if str(r.deck[i]) in ("2-4", "1-2")),
        },
    )
    zun = [e for e in events if e.type == "zun"]
    assert len(zun) == 1 and zun[0].to is None
    assert zun[0].data["payers"] == ["E", "S", "W"] and zun[0].data["amount_each"] == 100
    assert r.view("E")["zun"] == [
        {"seat": "N", "zh": "至尊", "en": "supreme", "units": 1, "trick": 1}
    ]
    assert [s.type for s in r.legal_actions("E")] == ["discard"]  # nothing beats 至尊
    while not r.finished:
        r.expire()
    result = r.result()
    zun_postings = {p.account: p.amount for p in result.postings if p.memo == "tiengow 尊钱"}
    assert zun_postings == {"E": -100, "S": -100, "W": -100, "N": 300}


def test_wen_zun_setting_collects_zun_money() -> None:
    config = TienGowConfig(wen_zun=True, zun_units=2)
    r = make_round(HANDS, banker="N", config=config)
    events = r.act(
        "N", {"type": "play", "tiles": sorted(i for i in r.hands["N"] if str(r.deck[i]) == "1-5")}
    )
    assert [e.data["zh"] for e in events if e.type == "zun"] == ["文尊"]
    # E holds no 双高脚七: 文尊 cannot be beaten by 双虎头.
    assert [s.type for s in r.legal_actions("E")] == ["discard"]
    off = make_round(HANDS, banker="N")
    events = off.act(
        "N",
        {"type": "play", "tiles": sorted(i for i in off.hands["N"] if str(off.deck[i]) == "1-5")},
    )
    assert not [e for e in events if e.type == "zun"]
    assert [s.type for s in off.legal_actions("E")] == ["play", "discard"]


def test_silence_leads_the_lowest_single_then_discards_the_lowest_tiles() -> None:
    r = make_round(HANDS)
    r.expire()  # E leads its lowest single: 虎头 5-6 is lowest in E's hand (docs/rules/paigow.md#single-tile-order order)
    entry = r.trick.entries[0]
    assert [str(r.deck[i]) for i in entry.tiles] == ["5-6"]
    r.expire()  # S discards its lowest tile: 二五 2-5 (杂七)
    assert [str(r.deck[i]) for i in r.trick.entries[1].tiles] == ["2-5"]
    assert r.trick.entries[1].play is None
    play(r, "W", "5-5")
    assert r.trick.entries[r.trick.best].seat == "W"
    hand = r.hand_of("N")
    r.expire()
    # N holds 至尊宝 (2-4 + 1-2), its two lowest tiles: silence keeps them and gives 杂五 up.
    assert r.trick.winner is None and r.tricks[-1].entries[-1].tiles == tuple(
        silence_order(hand, wen_zun=False)[:1]
    )
    assert lowest_first(hand)[:1] != silence_order(hand, wen_zun=False)[:1]
    assert r.turn == "W"


def play_random(
    seed: int, expire_every: int, context: dict[str, Any] | None = None
) -> TienGowRound:
    seats = [Seat(s, RICH) for s in SEATS]
    r = TienGowRound.start(TienGowConfig(), seats, Rng(seed.to_bytes(32, "big")), context)
    bot, rng, step = RandomBot(), Rng(b"bot-stream-0000-" + seed.to_bytes(16, "big")), 0
    while not r.finished:
        seat = r.turn
        assert seat is not None
        if expire_every and step % expire_every == 0:
            r.expire()
        else:
            r.act(seat, bot.choose(r.view(seat), r.legal_actions(seat), rng))
        step += 1
    return r


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.sampled_from([0, 2, 5]))
def test_discards_stay_hidden_from_everyone_else_forever(seed: int, expire_every: int) -> None:
    check_hidden(seed, expire_every)


def check_hidden(seed: int, expire_every: int) -> None:
    """Play a random game; after every move, each viewer's view, history and visible events
    mention only its own hand, face-up plays and its own discards; the result only face-up."""
    seats = [Seat(s, RICH) for s in SEATS]
    r = TienGowRound.start(TienGowConfig(), seats, Rng(seed.to_bytes(32, "big")))
    bot, rng, step = RandomBot(), Rng(b"bot-stream-0000-" + seed.to_bytes(16, "big")), 0
    seen: dict[str | None, set[int]] = {s: set(r.hands[s]) for s in SEATS}
    seen[None] = set()
    while not r.finished:
        seat = r.turn
        assert seat is not None
        if expire_every and step % expire_every == 0:
            events = r.expire()
        else:
            events = r.act(seat, bot.choose(r.view(seat), r.legal_actions(seat), rng))
        step += 1
        face_up = {i for t in [*r.tricks, r.trick] for e in t.entries if e.play for i in e.tiles}
        for viewer in [*SEATS, None]:
            own_discards = {
                i
                for t in [*r.tricks, r.trick]
                for e in t.entries
                if e.play is None and e.seat == viewer
                for i in e.tiles
            }
            allowed = seen[viewer] | face_up | own_discards
            assert tile_ids(r.view(viewer)) <= allowed
            assert tile_ids(r.history_for(viewer)) <= allowed
            for event in events:
                if event.visible_to(viewer):
                    assert tile_ids(event.to_json()) <= allowed
            if viewer is not None:
                assert tile_ids(r.view(viewer)["me"]["hand"]) == set(r.hands[viewer])
    face_up = {i for t in r.tricks for e in t.entries if e.play for i in e.tiles}
    assert tile_ids(r.result().to_json()) <= face_up
    assert tile_ids(r.view(None)) <= face_up
    # Invariants of a finished game.
    assert sum(r.dong.values()) == 8 and r.dong[r.winner or ""] >= 2
    assert sum(p.amount for p in r.result().postings) == 0
    assert not any(r.hands.values())


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([0, 3]))
def test_replay_rebuilds_the_game_exactly(seed: int, expire_every: int) -> None:
    r = play_random(seed, expire_every, {"banker": "S", "banker_streak": 2})
    again = TienGowRound.replay(
        TienGowConfig(),
        [Seat(s, RICH) for s in SEATS],
        seed.to_bytes(32, "big"),
        r.log,
        {"banker": "S", "banker_streak": 2},
    )
    assert json.dumps(again.view(None)) == json.dumps(r.view(None))
    assert again.result() == r.result()
    for s in SEATS:
        assert again.view(s) == r.view(s)


def test_next_round_carries_the_bank_and_the_streak() -> None:
    for seed in range(30):
        r = play_random(seed, 0, {"banker": "E", "banker_streak": 2})
        ctx = r.next_round().context
        assert r.next_round().reuse_seed is False
        if r.winner == "E":
            assert ctx == {"banker": "E", "banker_streak": 3}  # 连庄
            assert r.result().details["multiplier"] == 3
        else:
            assert ctx == {"banker": r.winner, "banker_streak": 1}
    r = make_round(HANDS)
    play(r, "E", "6-6")
    discard(r, "S", "2-5")
    assert r.view("E")["result"] is None


def test_result_breakdown_matches_the_postings() -> None:
    r = play_random(7, 0)
    details = r.result().details
    nets: dict[str, int] = dict.fromkeys(SEATS, 0)
    for line in details["breakdown"]:
        nets[line["from"]] -= line["amount"]
        nets[line["to"]] += line["amount"]
    assert nets == details["net"] == {s: r.result().net(s) for s in SEATS}
    assert r.view("E")["result"]["winner"] == r.winner


def test_silence_keeps_a_whole_supreme_pair_for_last() -> None:
    # N holds 至尊宝 (2-4 + 1-2), the two lowest singles by docs/rules/paigow.md#single-tile-order order: silence gives up
    # 杂五 instead, so a disconnected player never throws away its 尊钱 (docs/rules/tiengow.md#silence).
    r = make_round(HANDS, banker="N")
    r.expire()
    assert [str(r.deck[i]) for i in r.trick.entries[0].tiles] in (["1-4"], ["2-3"])
    assert {str(r.deck[i]) for i in r.hands["N"]} >= {"2-4", "1-2"}


def test_silence_discards_other_tiles_before_a_supreme_pair() -> None:
    r = make_round(HANDS, banker="W")
    play(r, "W", "5-5 5-5")  # 双梅 lead: N must discard two tiles on silence
    r.expire()  # N (after W in E, S, W, N order)
    discarded = [str(r.deck[i]) for i in r.trick.entries[1].tiles]
    assert "1-2" not in discarded and "2-4" not in discarded and len(discarded) == 2


def test_silent_leader_holding_only_a_supreme_pair_leads_it() -> None:
    r = make_round({**HANDS}, banker="N")
    # Give N's six other tiles away by letting N lead them on silence and everyone discard.
    while len(r.hands["N"]) > 2:
        assert r.turn == "N"
        r.expire()
        while r.turn != "N" and not r.finished:
            r.expire()
    assert sorted(str(r.deck[i]) for i in r.hands["N"]) == ["1-2", "2-4"]
    events = r.expire()
    assert [e.data["zh"] for e in events if e.type == "zun"] == ["至尊"]


def test_silence_order_keeps_the_wen_zun_pair_only_when_the_setting_is_on() -> None:
    hand = [(0, Tile(1, 5)), (1, Tile(6, 6)), (2, Tile(1, 5)), (3, Tile(5, 6))]
    # docs/rules/paigow.md#single-tile-order order: 大头六 (1-5) is the lowest civil single.
    assert lowest_first(hand) == [0, 2, 3, 1]
    assert silence_order(hand, wen_zun=False) == [0, 2, 3, 1]
    assert silence_order(hand, wen_zun=True) == [3, 1, 0, 2]
    one = [(0, Tile(1, 5)), (1, Tile(6, 6))]
    assert silence_order(one, wen_zun=True) == [0, 1]
