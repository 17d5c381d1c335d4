"""The room without a network: auto-match (自动配桌) and recovery of every table."""

from __future__ import annotations

import helpers  # registers the toy game

from qipai.server.room import Room
from qipai.tables.memory import MemoryLedger
from qipai.tables.ports import ManualClock, MemoryTableRepo
from qipai.tables.table import Timing

assert helpers.TOY


def make_room(ledger: MemoryLedger | None = None, repo: MemoryTableRepo | None = None) -> Room:
    return Room(
        ledger or MemoryLedger(), repo or MemoryTableRepo(), ManualClock(), Timing(0.5, 1.0)
    )


def test_automatch_opens_a_table_with_bots_then_seats_the_next_person_there() -> None:
    room = make_room()
    ledger = room.ledger
    assert isinstance(ledger, MemoryLedger)
    for p in ("alice", "bob", "carol"):
        ledger.deposit(p, 1000, f"d-{p}")
    first = room.automatch("alice", "alice", "toy", 100)
    assert first.seat_of("alice") is not None
    assert len(first.free_seats()) == 1  # bots fill all but one seat, left for a person
    assert any(s.bot for s in first.seats.values())
    second = room.automatch("bob", "bob", "toy", 100)
    assert second is first and first.seat_of("bob") is not None
    # asking again keeps your seat (one seat per player per table)
    assert room.automatch("bob", "bob", "toy", 100) is first
    assert ledger.wallet("bob") == 900
    # the table is full: the next person gets a new table
    third = room.automatch("carol", "carol", "toy", 100)
    assert third is not first and third.seat_of("carol") is not None


def test_automatch_moves_a_lone_player_to_a_livelier_table() -> None:
    room = make_room()
    ledger = room.ledger
    assert isinstance(ledger, MemoryLedger)
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
    assert moved is busy and lonely.seat_of("carol") is None
    assert ledger.stack("carol", lonely.id) == 0  # cashed out of the old table


def test_recover_rebuilds_tables_and_resumes_open_rounds() -> None:
    ledger, repo = MemoryLedger(), MemoryTableRepo()
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
    assert restored.seat_of("alice") == "A" and restored.round is not None
    assert restored.round.view(None)["bets"] == {"A": 3}


def test_scheduler_ticks_the_longest_overdue_table_first_and_stops_at_its_budget() -> None:
    """Tables are ticked oldest-due first; a pass ends once its budget is spent (zero here:
    one table per pass), so the network is let in between tables however many are due."""
    room = make_room()
    ledger = room.ledger
    assert isinstance(ledger, MemoryLedger)
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
    assert isinstance(ledger, MemoryLedger)
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
