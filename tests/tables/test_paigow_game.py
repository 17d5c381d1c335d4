"""A Pai Gow game is two rounds on one seed (docs/rules/paigow.md#the-game: "a player may leave or rematch only
after both"): the table never lets a game be broken in two by a seat standing up."""

from __future__ import annotations

import itertools
import json

import pytest
from helpers import fresh_ledger

from qipai.core.rng import Rng
from qipai.tables import games
from qipai.tables.ledger_adapter import LedgerAdapter
from qipai.tables.ports import ManualClock, MemoryTableRepo
from qipai.tables.table import GameInProgress, Table, TableError, Timing


def _table() -> tuple[Table, LedgerAdapter, ManualClock, MemoryTableRepo]:
    info = games.get("paigow")
    ledger, clock, repo = fresh_ledger(), ManualClock(), MemoryTableRepo()
    table = Table("pg", info, ledger, clock, repo=repo, timing=Timing(0.5, 2.0))
    ledger.deposit("alice", 10**6, "d-alice")
    table.sit("alice", "Alice", info.default_buy_in)
    table.fill_with_bots()
    return table, ledger, clock, repo


def _run_until(table: Table, clock: ManualClock, done: object, limit: int = 4000) -> None:
    for _ in range(limit):
        if callable(done) and done():
            return
        clock.advance(0.5)
        table.tick()
    raise AssertionError("the table did not get there")


def _between_rounds(table: Table, clock: ManualClock) -> None:
    """Play round 1 with alice silent (she is disconnected: the defaults act for her)."""
    _run_until(table, clock, lambda: table.round is not None)
    _run_until(table, clock, lambda: table.round is None)
    assert table.units.carry_seed is not None and table.units.carry_context["round"] == 2


def test_standing_up_between_the_two_rounds_is_refused_and_changes_nothing() -> None:
    table, ledger, clock, repo = _table()
    _between_rounds(table, clock)
    first = table.last_record
    assert first is not None
    before = (json.dumps(table.layout()), json.dumps(repo.tables["pg"]))
    money = (ledger.wallet("alice"), ledger.stack("alice", "pg"))
    with pytest.raises(GameInProgress) as err:
        table.leave("alice")
    assert err.value.code == "game_in_progress"
    bot_seat = next(s.seat for s in table.seating.seats.values() if s.bot)
    with pytest.raises(GameInProgress):
        table.remove_bot(bot_seat)
    assert (json.dumps(table.layout()), json.dumps(repo.tables["pg"])) == before
    assert (ledger.wallet("alice"), ledger.stack("alice", "pg")) == money
    # round 2 goes on: the same seed, the context of round 1's next_round(), the same seats
    _run_until(table, clock, lambda: table.round is not None)
    second = table.record
    assert second is not None
    assert second.seed_hex == first.seed_hex and second.commitment == first.commitment
    assert second.context == {"round": 2, "seats": [s for s, _, _ in first.seats]}
    assert [s for s, _, _ in second.seats] == [s for s, _, _ in first.seats]
    _run_until(table, clock, lambda: table.round is None)
    # after both rounds alice may stand up at once, and the next game has a fresh seed
    assert table.units.carry_seed is None
    assert table.leave("alice") is not None
    assert table.seating.seat_of("alice") is None


def test_leaving_during_round_one_waits_for_the_end_of_the_game() -> None:
    table, ledger, clock, _ = _table()
    _run_until(table, clock, lambda: table.round is not None)
    first = table.record
    assert first is not None
    assert table.leave("alice") is None  # after the game, not after this round
    bot_seat = next(s.seat for s in table.seating.seats.values() if s.bot)
    table.remove_bot(bot_seat)  # likewise deferred
    _run_until(table, clock, lambda: table.round is None)
    assert table.seating.seat_of("alice") == "E" and table.seating.seats[bot_seat].bot is not None
    _run_until(table, clock, lambda: table.round is not None)
    second = table.record
    assert second is not None
    assert second.seed_hex == first.seed_hex and second.context["round"] == 2
    assert {p for _, p, _ in second.seats} == {p for _, p, _ in first.seats}
    _run_until(table, clock, lambda: table.round is None)
    assert table.seating.seat_of("alice") is None and table.seating.seats[bot_seat].player is None
    assert ledger.stack("alice", "pg") == 0
    assert len(table.results) == 2


@pytest.mark.parametrize("schedule", range(3))
def test_no_sequence_of_requests_breaks_a_game_in_two(schedule: int) -> None:
    """Whatever alice and the bots' owner ask, at any moment: every round 2 is dealt from its
    round 1's seed to round 1's players, and no round 1 is followed by another round 1."""
    table, _ledger, clock, _ = _table()
    info = table.game
    pick = Rng(f"schedule-{schedule}".encode() * 4)
    rounds: list[tuple[int, str, str, list[str]]] = []
    step = 0
    while len(rounds) < 6 and step < 20_000:
        step += 1
        clock.advance(0.5)
        table.tick()
        rec = table.record
        if rec is not None and (not rounds or rounds[-1][1] != rec.round_id):
            number = int(rec.context.get("round", 1))
            rounds.append((number, rec.round_id, rec.seed_hex, [p for _, p, _ in rec.seats]))
        what = pick.randbelow(8)
        bots = [s.seat for s in table.seating.seats.values() if s.bot]
        try:
            if what == 0:
                table.leave("alice")
            elif what == 1:
                table.sit("alice", "Alice", info.default_buy_in)
            elif what == 2 and bots:
                table.remove_bot(bots[pick.randbelow(len(bots))])
            elif what == 3:
                table.fill_with_bots()
        except TableError:  # refused mid-game, not seated, or the table is full
            pass
    assert len(rounds) >= 4
    for prev, cur in itertools.pairwise(rounds):
        if prev[0] == 1:
            assert cur[0] == 2, "round 1 was followed by a fresh game"
            assert cur[2] == prev[2], "round 2 was not dealt from round 1's seed"
            assert cur[3] == prev[3], "round 2 was dealt to other players"
        else:
            assert cur[0] == 1
