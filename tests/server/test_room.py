"""The room without a network: auto-match (自动配桌) and recovery of every table."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import replace
from typing import TypeVar

import helpers  # registers the toy game
import pytest
from helpers import fresh_ledger, total_money

from qipai.server.room import Room
from qipai.tables import games
from qipai.tables.errors import BuyInRange, Funds
from qipai.tables.ledger_adapter import LedgerAdapter
from qipai.tables.ports import ManualClock, MemoryTableRepo
from qipai.tables.table import Timing
from qipai.tables.terms import TableTerms, default_terms
from tests.loops import run_in_fresh_loop

assert helpers.TOY
T = TypeVar("T")


def make_room(ledger: LedgerAdapter | None = None, repo: MemoryTableRepo | None = None) -> Room:
    return Room(
        ledger or fresh_ledger(), repo or MemoryTableRepo(), ManualClock(), Timing(0.5, 1.0)
    )


def test_automatch_opens_a_table_with_bots_then_seats_the_next_person_there() -> None:
    room = make_room()
    ledger = room.ledger
    assert isinstance(ledger, LedgerAdapter)
    for p in ("alice", "bob", "carol"):
        ledger.deposit(p, 1000, f"d-{p}")
    first = room.automatch("alice", "alice", "toy", 100)
    assert first.seating.seat_of("alice") is not None
    assert len(first.seating.free_seats()) == 1  # bots fill all but one seat, left for a person
    assert any(s.bot for s in first.seating.seats.values())
    second = room.automatch("bob", "bob", "toy", 100)
    assert second is first and first.seating.seat_of("bob") is not None
    # asking again keeps your seat (one seat per player per table)
    assert room.automatch("bob", "bob", "toy", 100) is first
    assert ledger.wallet("bob") == 900
    # the table is full: the next person gets a new table
    third = room.automatch("carol", "carol", "toy", 100)
    assert third is not first and third.seating.seat_of("carol") is not None


def test_automatch_moves_a_lone_player_to_a_livelier_table() -> None:
    room = make_room()
    ledger = room.ledger
    assert isinstance(ledger, LedgerAdapter)
    for p in ("alice", "bob", "carol"):
        ledger.deposit(p, 1000, f"d-{p}")
    busy = room.create_table("toy")
    busy.sit("alice", "alice", 100)
    busy.sit("bob", "bob", 100)
    lonely = room.create_table("toy")
    lonely.sit("carol", "carol", 100)
    lonely.fill_with_bots()
    lonely.remove_bot("C")
    moved = room.automatch("carol", "carol", "toy", 100)
    assert moved is busy and lonely.seating.seat_of("carol") is None
    assert ledger.stack("carol", lonely.id) == 0  # cashed out of the old table


def _house_terms(min_buy_in: int) -> TableTerms:
    return replace(default_terms(games.get("toy")), min_buy_in=min_buy_in)


def test_automatch_reuses_a_table_waiting_with_bots_before_opening_one() -> None:
    room = make_room()
    ledger = room.ledger
    assert isinstance(ledger, LedgerAdapter)
    for p in ("alice", "bob"):
        ledger.deposit(p, 1000, f"d-{p}")
    first = room.automatch("alice", "alice", "toy", 100)
    first.leave("alice")  # no round is running: she stands up at once; the bots wait
    assert not first.seating.humans() and first.seating.free_seats()
    again = room.automatch("bob", "bob", "toy", 100)
    assert again is first and len(room.tables) == 1


def test_a_short_stacked_players_automatch_opens_no_new_table() -> None:
    """docs/rules/common.md#buy-in: a wallet below the template's minimum buy-in is refused with
    `insufficient_funds` before any table is opened (or joined), and so is a buy-in below it."""
    room = make_room()
    ledger = room.ledger
    assert isinstance(ledger, LedgerAdapter)
    terms = _house_terms(500)
    ledger.deposit("alice", 300, "d-alice")
    for _ in range(3):
        with pytest.raises(Funds) as refused:
            room.automatch("alice", "alice", terms, 300)
        assert refused.value.code == "insufficient_funds" and "500" in str(refused.value)
    assert room.tables == {} and ledger.wallet("alice") == 300
    ledger.deposit("alice", 1_000, "d-alice-2")
    with pytest.raises(BuyInRange):
        room.automatch("alice", "alice", terms, 300)  # less than the minimum
    assert room.tables == {}
    # a table waiting with bots is not joined by a player who cannot pay either
    ledger.deposit("bob", 1_000, "d-bob")
    waiting = room.automatch("bob", "bob", terms, 600)
    waiting.leave("bob")
    ledger.deposit("carol", 100, "d-carol")
    with pytest.raises(Funds):
        room.automatch("carol", "carol", terms, 100)
    assert list(room.tables) == [waiting.id] and waiting.seating.seat_of("carol") is None


def test_recover_rebuilds_tables_and_resumes_open_rounds() -> None:
    ledger, repo = fresh_ledger(), MemoryTableRepo()
    room = make_room(ledger, repo)
    for p in ("alice", "bob"):
        ledger.deposit(p, 1000, f"d-{p}")
    table = room.create_table("toy")
    table.sit("alice", "alice", 100)
    table.sit("bob", "bob", 100)
    table.tick()
    assert table.record is not None
    rid = table.record.round_id
    table.act("alice", {"type": "bet", "amount": 3}, "x")
    again = make_room(ledger, repo)
    assert again.recover() == {rid: "resumed"}
    restored = again.tables[table.id]
    assert restored.seating.seat_of("alice") == "A" and restored.round is not None
    assert restored.round.view(None)["bets"] == {"A": 3}


def test_scheduler_ticks_the_longest_overdue_table_first_and_stops_at_its_budget() -> None:
    """Tables are ticked oldest-due first; a pass ends once its budget is spent (zero here:
    one table per pass), so the network is let in between tables however many are due."""
    room = make_room()
    ledger = room.ledger
    assert isinstance(ledger, LedgerAdapter)
    clock = room.clock
    assert isinstance(clock, ManualClock)
    tables = []
    for p in ("alice", "bob", "carol"):
        ledger.deposit(p, 1000, f"d-{p}")
        table = room.create_table("toy")
        table.sit(p, p, 100)
        table.fill_with_bots()
        tables.append(table)
        clock.advance(1.0)  # alice's table has waited longest, carol's least
    ticked: list[str] = []
    for table in tables:
        real = table.tick
        table.tick = lambda real=real, tid=table.id: (ticked.append(tid), real())[1]  # type: ignore[method-assign]
    assert room.run_due(budget_s=0.0) == 1 and ticked == [tables[0].id]
    assert room.run_due(budget_s=0.0) == 1 and ticked[-1] == tables[1].id
    assert room.run_due() == 1 and ticked[-1] == tables[2].id
    assert room.run_due() == 0  # nothing is due until the clock moves
    assert all(t.round is not None for t in tables)  # every table started its round
    room.wake(tables[1].id)  # something happened there: it is due at once
    assert room.run_due() == 1 and ticked[-1] == tables[1].id


def test_subscribing_never_shows_a_countdown_that_already_ran_out() -> None:
    """Under load the scheduler may reach a table after its countdown ran out: the state sent
    on subscribe applies the defaults first instead of offering bets that would be refused."""
    from qipai.server.room import Connection

    room = make_room()
    ledger = room.ledger
    assert isinstance(ledger, LedgerAdapter)
    clock = room.clock
    assert isinstance(clock, ManualClock)
    table = room.create_table("toy")
    for p in ("alice", "bob"):
        ledger.deposit(p, 1000, f"d-{p}")
        table.sit(p, p, 100)
    table.tick()
    assert table.round is not None and table.round.phase == "betting"
    clock.advance(10.5)  # the betting countdown (10 s) ran out; nobody ticked the table
    conn = Connection("alice")
    room.attach(conn)
    room.subscribe(conn, table.id)
    state = conn.queue.get_nowait()
    assert state["round"]["phase"] != "betting"
    assert all(a["type"] != "bet" for a in state["legal"])
    assert table.round.view(None)["bets"] == {"A": 1, "B": 1}  # the defaults, applied once


def test_recovery_of_each_table_is_isolated() -> None:
    """A table whose open round cannot be replayed is suspended with the reason; its stakes
    come back; every other table resumes and plays; nothing raises."""
    from qipai.tables.ports import JournalEntry

    ledger, repo = fresh_ledger(), MemoryTableRepo()
    room = make_room(ledger, repo)
    tables = []
    for i, (a, b) in enumerate((("alice", "bob"), ("carol", "dave"))):
        table = room.create_table("toy", name=f"t{i}")
        for p in (a, b):
            ledger.deposit(p, 1000, f"d-{p}")
            table.sit(p, p, 100)
        table.tick()
        assert table.record is not None
        tables.append(table)
    bad, good = tables
    bad_round = bad.record.round_id  # type: ignore[union-attr]
    ledger.append(bad_round, JournalEntry(1, "A", {"type": "bet", "amount": 999}, None))
    again = make_room(ledger, repo)
    outcome = again.recover()
    assert outcome[bad_round] == "voided"
    assert outcome[good.record.round_id] == "resumed"  # type: ignore[union-attr]
    restored_bad, restored_good = again.tables[bad.id], again.tables[good.id]
    status = restored_bad.public_info()
    assert status["status"] == "suspended" and "could not be resumed" in status["status_reason"]
    assert ledger.stack("alice", bad.id) == 100 and ledger.stack("bob", bad.id) == 100
    assert restored_good.round is not None and restored_good.status().state == "playing"
    restored_good.act("carol", {"type": "bet", "amount": 2}, "c")
    assert restored_good.round.view(None)["bets"] == {"A": 2}


def test_a_layout_that_cannot_be_rebuilt_does_not_stop_the_others() -> None:
    ledger, repo = fresh_ledger(), MemoryTableRepo()
    room = make_room(ledger, repo)
    good = room.create_table("toy")
    repo.save_table("broken", {"table_id": "broken", "game": "no-such-game", "seats": []})
    again = make_room(ledger, repo)
    again.recover()
    assert good.id in again.tables and "broken" not in again.tables
    assert "no-such-game" in again.unrestorable["broken"]


def test_operators_suspend_resume_and_close_through_the_room() -> None:
    room = make_room()
    ledger = room.ledger
    assert isinstance(ledger, LedgerAdapter)
    table = room.create_table("toy")
    for p in ("alice", "bob"):
        ledger.deposit(p, 1000, f"d-{p}")
        table.sit(p, p, 100)
    room.run_due()
    assert table.round is not None
    room.suspend(table.id, "dealer change")
    assert table.public_info()["status"] == "suspended" and table.round is None
    assert room.run_due() == 0 or table.round is None  # a suspended table does not deal
    room.resume(table.id)
    room.run_due()
    assert table.round is not None
    room.close(table.id)
    assert table.public_info()["status"] == "closed"
    assert ledger.wallet("alice") == ledger.wallet("bob") == 1000
    again = make_room(ledger, room.repo)  # type: ignore[arg-type]
    again.recover()
    assert table.id not in again.tables  # a closed table is not rebuilt


def test_room_call_runs_table_work_off_the_event_loop() -> None:
    """With the room started, `await room.call(id, fn)` runs fn in the table's worker thread,
    returns its result or raises its error, and the scheduler ticks tables on its own."""
    from qipai.tables.ports import SystemClock
    from qipai.tables.table import NotSeated

    async def scenario() -> None:
        ledger, repo = fresh_ledger(), MemoryTableRepo()
        room = Room(ledger, repo, SystemClock(), Timing(0.01, 0.05))
        for p in ("alice", "bob"):
            ledger.deposit(p, 1000, f"d-{p}")
        table = room.create_table("toy")
        room.start()
        try:
            loop_thread = threading.get_ident()
            where = await room.call(table.id, lambda t: threading.get_ident())
            assert where != loop_thread
            seat = await room.call(table.id, lambda t: t.sit("alice", "alice", 100))
            assert seat == "A"
            await room.call(table.id, lambda t: t.sit("bob", "bob", 100))
            try:
                await room.call(table.id, lambda t: t.leave("carol"))
            except NotSeated:
                pass
            else:
                raise AssertionError("the table's error did not reach the caller")
            for _ in range(200):  # the scheduler thread starts the round by itself
                if await room.call(table.id, lambda t: t.round is not None):
                    break
                await asyncio.sleep(0.01)
            assert await room.call(table.id, lambda t: t.round is not None)
        finally:
            await room.stop()

    run_in_fresh_loop(scenario)


def test_messages_from_table_threads_reach_the_connection_in_order() -> None:
    from qipai.server.room import Connection
    from qipai.tables.ports import SystemClock

    async def scenario() -> list[str]:
        ledger, repo = fresh_ledger(), MemoryTableRepo()
        room = Room(ledger, repo, SystemClock(), Timing(0.01, 0.05))
        ledger.deposit("alice", 1000, "d")
        table = room.create_table("toy")
        room.start()
        try:
            conn = Connection("alice")
            room.attach(conn)
            await room.watch(conn, table.id)
            await room.call(table.id, lambda t: t.sit("alice", "alice", 100))
            await room.call(table.id, lambda t: t.leave("alice"))
            got = []
            while len(got) < 4:
                msg = await asyncio.wait_for(conn.queue.get(), 5)
                got.append(msg["type"])
            return got
        finally:
            await room.stop()

    kinds = run_in_fresh_loop(scenario)
    assert kinds[0] == "state" and "left" in kinds


def test_messages_keep_their_order_when_a_handler_calls_a_table_on_the_loop() -> None:
    """A state produced on a table thread and handed to the loop must reach the socket before a
    later state produced by a handler that calls the table directly on the loop."""
    from qipai.server.room import Connection
    from qipai.tables.ports import SystemClock

    async def scenario() -> list[int]:
        ledger, repo = fresh_ledger(), MemoryTableRepo()
        room = Room(ledger, repo, SystemClock(), Timing(0.01, 0.05))
        ledger.deposit("alice", 1000, "d")
        table = room.create_table("toy")
        room.start()
        try:
            conn = Connection("alice")
            room.attach(conn)
            conn.tables.add(table.id)
            table.seating.connected.add("alice")
            table.name = "first"
            # produced on another thread: it waits in the outbox for the loop's next turn,
            # which does not come before the handler below runs (no await in between)
            worker = threading.Thread(target=lambda: table.broadcast())
            worker.start()
            worker.join()
            table.name = "second"
            table.broadcast()  # produced on the loop thread itself, later
            await asyncio.sleep(0.05)
            names = []
            while not conn.queue.empty():
                names.append(conn.queue.get_nowait()["table"]["name"])
            return [["first", "second"].index(n) for n in names]
        finally:
            await room.stop()

    order = run_in_fresh_loop(scenario)
    assert order == sorted(order) and set(order) == {0, 1}, order


def test_a_round_whose_table_is_gone_is_voided_by_the_interrupted_game_policy() -> None:
    """docs/rules/common.md#interrupted-games: a Tien Gow round in which a player collected the
    尊钱 (played 至尊), whose table is gone after a crash, is rebuilt from its journal through
    the engine at start-up: stakes returned, and the 尊钱 won so far paid by the house
    (`interrupted_game`), not the stakes alone."""
    ledger = fresh_ledger()
    for n in range(200):  # the first deal whose leader holds 至尊 (both tiles) and may play it
        room = Room(
            ledger,
            MemoryTableRepo(),
            ManualClock(),
            Timing(0.5, 1.0),
            seed_source=lambda n=n: n.to_bytes(32, "big"),  # type: ignore[misc]
        )
        table = room.create_table("tiengow")
        players = [f"p{n}-{i}" for i in range(4)]
        for p in players:
            ledger.deposit(p, 100_000, f"d-{p}")
            table.sit(p, p, 20_000)
        table.tick()
        round_ = table.round
        assert round_ is not None and table.record is not None
        (leader,) = round_.awaiting()
        zun = sorted(i for i in round_.hands[leader] if str(round_.deck[i]) in ("2-4", "1-2"))
        plays = round_.legal_actions(leader)[0].to_json()["plays"]
        if len(zun) == 2 and zun in plays:
            break
    else:
        raise AssertionError("no deal of 200 lets the leader play 至尊")
    who = table.record.player_of(leader)
    table.act(who, {"type": "play", "tiles": zun}, "zun")
    won = round_.won_so_far()
    assert won.get(leader, 0) > 0, (won, table.round is round_, zun, leader)
    round_id = table.record.round_id
    house_before = ledger.ledger.balances().get("house", 0)
    # the process dies; its table's layout is gone: only the journal knows the round
    again = Room(ledger, MemoryTableRepo(), ManualClock(), Timing(0.5, 1.0))
    outcome = again.recover()  # (the deals looked at before are voided too)
    assert outcome[round_id] == "voided" and set(outcome.values()) == {"voided"}
    assert ledger.stack(who, table.id) == 20_000 + won[leader]
    for p in players:
        if p != who:
            assert ledger.stack(p, table.id) == 20_000  # a loser loses nothing
    assert ledger.ledger.balances().get("house", 0) == house_before - won[leader]
    kinds = [e["kind"] for e in ledger.round_info(round_id)["log"]]
    assert kinds.count("action") == 1
    assert total_money(ledger) > 0  # conserved and audited


def test_the_scheduler_is_woken_only_for_what_is_due_before_all_it_waits_for() -> None:
    """A wake that is not due before everything scheduled leaves the scheduler alone: it is
    busy or already waits for an earlier time, and sees the entry then."""
    room = make_room()
    notified: list[float] = []
    real = room._cond.notify

    def counting(n: int = 1) -> None:
        notified.append(room.clock.now())
        real(n)

    room._cond.notify = counting  # type: ignore[method-assign]
    room._schedule("t1", 10.0)  # nothing scheduled: the scheduler must look
    room._schedule("t2", 12.0)  # after t1: it will be seen when t1 is due
    room._schedule("t3", 12.0)
    assert len(notified) == 1
    room._schedule("t4", 5.0)  # before everything: the scheduler must wake earlier
    assert len(notified) == 2
    room._schedule("t2", 11.0)  # earlier than before, but not before t4: no wake
    assert len(notified) == 2
    due = []
    while (table_id := room._pop_due(20.0)) is not None:
        due.append(table_id)
    assert due == ["t4", "t1", "t2", "t3"]


def test_a_call_lets_its_table_look_on_the_same_thread_without_the_scheduler() -> None:
    """After `room.call(id, fn)` the table ticks in the same job, on the worker that ran fn:
    no wake through the scheduler thread and back to a worker (two hand-offs per action)."""
    from qipai.tables.ports import SystemClock

    async def scenario() -> None:
        ledger, repo = fresh_ledger(), MemoryTableRepo()
        room = Room(ledger, repo, SystemClock(), Timing(0.01, 0.05))
        ledger.deposit("alice", 1000, "d-alice")
        table = room.create_table("toy")
        room.start()
        try:
            await asyncio.sleep(0.05)  # the first tick the scheduler gives every table
            ticks: list[int] = []
            wakes: list[str] = []
            real_tick, real_wake = room._tick, room.wake
            room._tick = lambda t: (ticks.append(threading.get_ident()), real_tick(t))[1]  # type: ignore[method-assign]
            room.wake = lambda tid: (wakes.append(tid), real_wake(tid))[1]  # type: ignore[method-assign]
            worker = await room.call(
                table.id, lambda t: (t.sit("alice", "alice", 100), threading.get_ident())[1]
            )
            for _ in range(200):
                if worker in ticks:
                    break
                await asyncio.sleep(0.005)
            assert worker in ticks
            assert table.id not in wakes
        finally:
            await room.stop()

    run_in_fresh_loop(scenario)
