"""The road (牌路) markers, its compact form, and the bots' choices being legal."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.cards import parse_card
from qipai.core.errors import InvalidInput
from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.games.pokdeng import PokDengConfig, PokDengRound
from qipai.games.pokdeng.bots import RandomBot, SensibleBot
from qipai.games.pokdeng.hands import Hand, evaluate
from qipai.games.pokdeng.road import (
    Road,
    RoadCell,
    RoadRow,
    road_cell,
    road_counts,
    road_row,
    road_view,
    row_code,
)


def h(text: str) -> Hand:
    a, b = (parse_card(t) for t in text.split())
    return evaluate(a, b)


@pytest.mark.parametrize(
    ("player", "banker", "code", "color"),
    [
        ("Ac 7h", "Ad 4h", "W", "blue"),  # 8 beats 5, plain
        ("3d 2d", "3d Ah", "Wr", "blue"),  # won with a suited hand: ring
        ("Kd Ah", "Tc Td", "Lr", "grey"),  # lost to a special pair: ring
        ("Kd Ah", "3h Kd", "L", "grey"),
        ("4d 4h", "3d 4h", "Wrp", "blue"),  # a pair: ring and the yellow dot
        ("3d 3h", "9c 9d", "Lrp", "grey"),  # lost (6 v 8) to a pair, own pair: dot
        ("3d 2h", "Ad 4h", "T", "green"),
        ("3d 2d", "Ad 4d", "Tr", "green"),  # tie with a suited hand
    ],
)
def test_cells(player: str, banker: str, code: str, color: str) -> None:
    cell = road_cell(h(player), h(banker))
    assert cell.code == code and cell.color == color
    assert RoadCell.from_code(code) == cell


def test_rows_and_road_round_trip() -> None:
    hands = {p: h("Ac 7h") for p in ("P1", "P2", "P3", "P4", "P5")} | {"B": h("Tc Td")}
    hands["P3"] = h("9c 9d")
    row = road_row(hands)
    assert row.code() == row_code(hands) == "W,W,Wrp,W,W,p"  # 8 beats 7.4
    road = Road([row, RoadRow.from_code("W,T,L,Wrp,Tr,-")])
    assert Road.decode(road.encode()).rows == road.rows
    assert road.counts("P1") == {"win": 2, "lose": 0, "tie": 0}
    assert road.counts("P2") == {"win": 1, "lose": 0, "tie": 1}
    assert road.to_json()["rows"][1]["cells"]["P4"] == {
        "result": "win",
        "color": "blue",
        "ring": True,
        "pair": True,
    }
    assert Road.decode("").rows == []
    assert road_view(road.encode()) == {"code": road.encode(), "counts": road.to_json()["counts"]}
    assert road_view("") == {"code": "", "counts": Road().to_json()["counts"]}
    for bad in ("W,W,W,W,W", "W,W,W,W,W,x", "X,W,W,W,W,-", "W,W,W,W,W,-;", 3):
        with pytest.raises(InvalidInput):
            Road.decode(bad)


def test_round_view_carries_the_shoe_road() -> None:
    config = PokDengConfig()
    seats = [Seat("a", 1000)]
    seed = bytes(32)
    first = PokDengRound.start(config, seats, Rng(seed))
    first.expire()
    second = PokDengRound.start(config, seats, Rng(seed), first.next_round().context)
    code = second.view("a")["road"]["code"]
    assert code == first.road.encode() and len(Road.decode(code).rows) == 1  # before this deal
    second.expire()
    road = second.view("a")["road"]
    assert Road.decode(road["code"]).rows == second.road.rows and len(second.road.rows) == 2
    assert second.result().details["road"] == second.road.rows[1].code()
    assert road["counts"] == second.road.to_json()["counts"]


def rows_from_spelled_out(road: dict[str, Any]) -> list[RoadRow]:
    """The rows a spelled-out road (`Road.to_json()`, the view's form before the compact code)
    describes, read field by field (the colour must agree with the result)."""
    out = []
    for row in road["rows"]:
        cells = []
        for p in ("P1", "P2", "P3", "P4", "P5"):
            c = row["cells"][p]
            assert c["color"] == {"win": "blue", "lose": "grey", "tie": "green"}[c["result"]]
            cells.append(RoadCell(c["result"], c["ring"], c["pair"]))
        out.append(RoadRow(tuple(cells), row["banker_pair"]))
    return out


def test_the_compact_road_says_what_the_spelled_out_road_said() -> None:
    # A road as the view used to spell it, and the compact code the view now sends instead.
    spelled = {
        "rows": [
            {
                "cells": {
                    "P1": {"result": "win", "color": "blue", "ring": True, "pair": False},
                    "P2": {"result": "lose", "color": "grey", "ring": False, "pair": False},
                    "P3": {"result": "tie", "color": "green", "ring": False, "pair": False},
                    "P4": {"result": "win", "color": "blue", "ring": True, "pair": True},
                    "P5": {"result": "lose", "color": "grey", "ring": False, "pair": True},
                },
                "banker_pair": False,
            },
            {
                "cells": {
                    "P1": {"result": "tie", "color": "green", "ring": True, "pair": True},
                    "P2": {"result": "win", "color": "blue", "ring": False, "pair": False},
                    "P3": {"result": "lose", "color": "grey", "ring": True, "pair": False},
                    "P4": {"result": "lose", "color": "grey", "ring": False, "pair": False},
                    "P5": {"result": "win", "color": "blue", "ring": False, "pair": True},
                },
                "banker_pair": True,
            },
        ],
        "counts": {
            "P1": {"win": 1, "lose": 0, "tie": 1},
            "P2": {"win": 1, "lose": 1, "tie": 0},
            "P3": {"win": 0, "lose": 1, "tie": 1},
            "P4": {"win": 1, "lose": 1, "tie": 0},
            "P5": {"win": 1, "lose": 1, "tie": 0},
        },
    }
    code = "Wr,L,T,Wrp,Lp,-;Trp,W,Lr,L,Wp,p"
    assert Road(rows_from_spelled_out(spelled)).encode() == code
    assert Road.decode(code).to_json() == spelled
    assert road_view(code) == {"code": code, "counts": spelled["counts"]}


@settings(max_examples=10, deadline=None)
@given(mode=st.sampled_from(["classic", "banker-player"]), seed=st.binary(min_size=32, max_size=32))
def test_a_whole_shoe_of_views_round_trips(mode: str, seed: bytes) -> None:
    # Every view of a shoe, before and after its deal: the compact road decodes to the rows of
    # the shoe so far, and re-encoding those rows (as the spelled-out JSON described them) gives
    # the same code back.
    config = PokDengConfig(mode=mode)  # type: ignore[arg-type]
    context = None
    dealt: list[RoadRow] = []
    while True:
        round_ = PokDengRound.start(config, [Seat("a", 10**6)], Rng(seed), context)
        for round_dealt in (False, True):
            if round_dealt:
                round_.expire()
                dealt.append(round_.road.rows[-1])
            road = round_.view(None)["road"]
            rows = Road.decode(road["code"]).rows
            assert rows == dealt == round_.road.rows
            assert rows_from_spelled_out(Road(rows).to_json()) == rows
            assert Road(rows).encode() == road["code"]
            assert road["counts"] == Road(rows).to_json()["counts"]
        following = round_.next_round()
        if not following.reuse_seed:
            break
        context = following.context
    assert len(dealt) > 20  # a whole shoe: 416 cards, 13 a round, the cut card 52–104 from the end


@settings(max_examples=30, deadline=None)
@given(
    mode=st.sampled_from(["classic", "banker-player"]),
    seed=st.binary(min_size=32, max_size=32),
    stacks=st.lists(st.integers(0, 10**6), min_size=1, max_size=4),
)
def test_bots_only_choose_legal_actions(mode: str, seed: bytes, stacks: list[int]) -> None:
    config = PokDengConfig(mode=mode)  # type: ignore[arg-type]
    seats = [Seat(f"s{i}", stack) for i, stack in enumerate(stacks)]
    round_ = PokDengRound.start(config, seats, Rng(seed))
    rng = Rng(seed).fork("bots")
    for i, seat in enumerate(seats):
        bot = RandomBot() if i % 2 else SensibleBot()
        action = bot.choose(round_.view(seat.id), round_.legal_actions(seat.id), rng)
        round_.act(seat.id, action)  # raises if the bot chose anything illegal
        if isinstance(bot, SensibleBot):
            assert all(not spot.endswith("pair") for spot in round_.view(seat.id)["me"]["bets"])
    assert round_.finished  # every bot confirmed, so the cards are dealt


def test_sensible_bot_sits_out_when_it_cannot_cover_the_hold() -> None:
    config = PokDengConfig()
    round_ = PokDengRound.start(config, [Seat("poor", 150)], Rng(bytes(32)))
    action = SensibleBot().choose(round_.view("poor"), round_.legal_actions("poor"), Rng(bytes(32)))
    assert action == {"type": "done"}


@settings(max_examples=30, deadline=None)
@given(
    rows=st.lists(
        st.tuples(
            st.lists(
                st.sampled_from(["W", "L", "T", "Wr", "Lp", "Trp", "Wrp"]), min_size=5, max_size=5
            ),
            st.sampled_from(["p", "-"]),
        ),
        max_size=30,
    )
)
def test_incremental_road_counts_equal_a_full_decode(rows: list[tuple[list[str], str]]) -> None:
    codes = [",".join([*cells, bp]) for cells, bp in rows]
    for k in range(len(codes) + 1):  # the way a shoe grows: each text extends the previous one
        text = ";".join(codes[:k])
        assert road_counts(text) == Road.decode(text).to_json()["counts"]
        assert road_view(text)["code"] == text


@pytest.mark.parametrize("bad", ["W,W,W,W,W", "W,W,W,W,W,-;X,W,W,W,W,-", "W,W,W,W,W,-;"])
def test_road_counts_refuse_a_bad_road(bad: str) -> None:
    road_counts("W,W,W,W,W,-")  # cached: the bad texts extending it must still be refused
    with pytest.raises(InvalidInput):
        road_counts(bad)


@settings(max_examples=200, deadline=None)
@given(ids=st.lists(st.integers(0, 51), min_size=12, max_size=12))
def test_fast_row_code_equals_the_road_row(ids: list[int]) -> None:
    from qipai.core.cards import Card

    names = ("P1", "P2", "P3", "P4", "P5", "B")
    hands = {
        n: evaluate(Card.from_id(ids[i]), Card.from_id(ids[i + 6])) for i, n in enumerate(names)
    }
    assert row_code(hands) == road_row(hands).code()


def test_road_counts_is_safe_from_many_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """The card room's table threads share the counts cache; evicting its oldest entry from
    two threads at once raised KeyError and suspended a table (seen under load)."""
    import sys
    import threading

    from qipai.games.pokdeng import road as road_mod

    monkeypatch.setattr(road_mod, "_COUNTS_CACHE_SIZE", 1)
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    failures: list[BaseException] = []
    rows = ["W,W,W,W,W,-", "L,L,L,L,L,p", "T,T,T,T,T,-", "Wr,Lr,W,L,T,-"]

    def hammer(seed: int) -> None:
        try:
            for i in range(800):
                text = ";".join(rows[(seed + i + k) % 4] for k in range(1 + (i % 7)))
                road_mod.road_counts(text)
        except BaseException as exc:
            failures.append(exc)

    try:
        threads = [threading.Thread(target=hammer, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(old)
    assert failures == []
