"""Hypothesis: over random games of two rounds, money is conserved, every cap holds, no tile is
dealt twice, and a game replays exactly from (config, seats, seed, actions[, context])."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.protocol import COMMISSION, ROUNDING, Event, RecordedAction, Seat
from qipai.core.rng import Rng
from qipai.core.tiles import Tile, full_set
from qipai.games.paigow import PaigowConfig, PaigowRound

from .helpers import IDS

configs = st.builds(
    PaigowConfig,
    base=st.sampled_from([1, 7, 100, 250]),
    commission=st.sampled_from(["0", "0.05", "0.04", "0.1"]),
    tie_policy=st.sampled_from(["banker", "push"]),
    high_nine=st.sampled_from(["any-seven", "named"]),
)
stacks = st.lists(st.one_of(st.integers(0, 300), st.integers(0, 20_000)), min_size=4, max_size=4)
# per round and seat: a bid (None = silent), a bet (None = silent), whether it signals reveal
seat_moves = st.tuples(
    st.one_of(st.none(), st.integers(0, 4)),
    st.one_of(st.none(), st.integers(1, 5)),
    st.booleans(),
)
round_moves = st.lists(seat_moves, min_size=4, max_size=4)


def check_hidden(r: PaigowRound, events: list[Event]) -> None:
    """Before the reveal, no view or event a seat (or a spectator) gets names another seat's
    tiles: docs/rules/paigow.md#reveal "reveal" comes last (and the undealt tiles are never named)."""
    if r.finished:
        return
    for viewer in [*IDS, None]:
        # Tiles this viewer may see (its own, round 1's in round 2); the two copies of a civil
        # tile share their pips, so those pips are not checked.
        own = {str(t) for t in r.tiles.get(viewer, ())} if viewer else set()
        own |= {str(t) for t in r.seen_tiles}
        hidden = {str(t) for s, ts in r.tiles.items() if s != viewer for t in ts} - own
        hidden |= {str(t) for t in game_shuffle_tail(r)} - own
        seen = json.dumps(r.view(viewer)) + json.dumps(
            [e.to_json() for e in events if e.visible_to(viewer)]
        )
        assert not any(f'"{p}"' in seen for p in hidden), (viewer, r.phase)


def game_shuffle_tail(r: PaigowRound) -> list[Tile]:
    """This round's tiles before the deal (all hidden), or none once they are dealt."""
    return [] if r.tiles else list(r._tiles)


def drive(r: PaigowRound, moves: list[tuple[int | None, int | None, bool]]) -> None:
    check_hidden(r, [])
    for seat, (bid, _, _) in zip(IDS, moves, strict=True):
        if bid is not None:
            check_hidden(r, r.act(seat, {"type": "bid", "multiple": bid}))
    if r.phase == "bid":
        check_hidden(r, r.expire())
    for seat, (_, bet, _) in zip(IDS, moves, strict=True):
        if bet is not None and seat != r.banker:
            check_hidden(r, r.act(seat, {"type": "bet", "multiple": bet}))
    if r.phase == "bet":
        check_hidden(r, r.expire())
    for seat, (_, _, ready) in zip(IDS, moves, strict=True):
        if ready:
            check_hidden(r, r.act(seat, {"type": "reveal"}))
    if r.phase == "reveal":
        r.expire()


def check_round(r: PaigowRound, table: list[int]) -> None:
    result = r.result()
    assert sum(p.amount for p in result.postings) == 0  # money is conserved to the unit
    details = result.details
    total_commission = 0
    for seat, stack in zip(IDS, table, strict=True):
        row = details["seats"][seat]
        # docs/rules/paigow.md#cap cap: nobody wins or loses more than the stack brought into the round
        assert -stack <= row["gross"] <= stack
        assert row["valid_bet"] == abs(row["gross"])  # source: 有效投注額 = 玩家的輸贏值
        if row["gross"] > 0:
            assert 0 <= row["net"] <= row["gross"]
        else:
            assert row["net"] == row["gross"] and row["commission"] == 0
        assert result.net(seat) == row["net"]
        total_commission += row["commission"]
        rate = r.config.commission_rate
        assert row["commission"] == (max(row["gross"], 0) * rate.numerator) // rate.denominator
    assert result.net(COMMISSION) == total_commission
    assert 0 <= result.net(ROUNDING) <= 4
    banker_gross = details["seats"][r.banker]["gross"]
    assert banker_gross == -sum(details["seats"][p]["gross"] for p in r.players())
    # uncapped results are exactly A·X·Y
    if not details["capped"]:
        for pairing in details["pairings"]:
            assert details["seats"][pairing["player"]]["gross"] == pairing["raw"]


@settings(max_examples=60, deadline=None)
@given(
    config=configs,
    table=stacks,
    seed=st.binary(min_size=32, max_size=32),
    moves1=round_moves,
    moves2=round_moves,
)
def test_random_games_of_two_rounds(
    config: PaigowConfig,
    table: list[int],
    seed: bytes,
    moves1: list[tuple[int | None, int | None, bool]],
    moves2: list[tuple[int | None, int | None, bool]],
) -> None:
    seats1 = [Seat(i, s) for i, s in zip(IDS, table, strict=True)]
    r1 = PaigowRound.start(config, seats1, Rng(seed))
    drive(r1, moves1)
    check_round(r1, table)
    table2 = [s + r1.result().net(i) for i, s in zip(IDS, table, strict=True)]
    assert all(s >= 0 for s in table2)
    nxt = r1.next_round()
    assert nxt.reuse_seed
    seats2 = [Seat(i, s) for i, s in zip(IDS, table2, strict=True)]
    r2 = PaigowRound.start(config, seats2, Rng(seed), nxt.context)
    drive(r2, moves2)
    check_round(r2, table2)
    assert all(s + r2.result().net(i) >= 0 for i, s in zip(IDS, table2, strict=True))
    dealt = Counter(t for r in (r1, r2) for ts in r.tiles.values() for t in ts)
    assert sum(dealt.values()) == 16 and dealt <= Counter(full_set())
    assert not r2.next_round().reuse_seed
    # the game replays exactly from its journal, through JSON
    for r, seat_list, context in ((r1, seats1, None), (r2, seats2, nxt.context)):
        log: list[Any] = json.loads(json.dumps([a.to_json() for a in r.log]))
        again = PaigowRound.replay(
            PaigowConfig.from_json(json.loads(json.dumps(config.to_json()))),
            seat_list,
            seed,
            [RecordedAction.from_json(a) for a in log],
            json.loads(json.dumps(context)) if context else None,
        )
        assert again.result() == r.result()
        assert [again.view(s) for s in [*IDS, None]] == [r.view(s) for s in [*IDS, None]]


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(
    config=configs,
    table=stacks,
    seed=st.binary(min_size=32, max_size=32),
    moves1=round_moves,
    moves2=round_moves,
)
def test_random_games_of_two_rounds_long(
    config: PaigowConfig,
    table: list[int],
    seed: bytes,
    moves1: list[tuple[int | None, int | None, bool]],
    moves2: list[tuple[int | None, int | None, bool]],
) -> None:
    test_random_games_of_two_rounds.hypothesis.inner_test(  # type: ignore[attr-defined]
        config, table, seed, moves1, moves2
    )
