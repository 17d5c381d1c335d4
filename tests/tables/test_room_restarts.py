"""The room on the real ledger (SQLite and PostgreSQL): a `client_id` seen before a
restart is never applied again after it (docs/protocol.md), also once its round settled; a
player whose last socket closed is away after one silent round (docs/rules/common.md "Decision (away)")."""

from __future__ import annotations

import helpers  # registers the toy game

from qipai.ledger import Ledger
from qipai.server.room import Connection, Room
from qipai.tables.ledger_adapter import LedgerAdapter
from qipai.tables.ports import ManualClock, MemoryTableRepo
from qipai.tables.table import Table, Timing

assert helpers.TOY


def _room(url: str, schema: str | None, repo: MemoryTableRepo, clock: ManualClock) -> Room:
    return Room(LedgerAdapter(Ledger.open(url, schema=schema)), repo, clock, Timing(0.5, 1.0))


def _finish_round(table: Table, clock: ManualClock) -> None:
    number = table.number
    for _ in range(100):
        if table.last_result is not None and table.last_result["number"] == number:
            return
        clock.advance(1)
        table.tick()
    raise AssertionError("the round never finished")


def test_client_ids_seen_before_a_restart_are_not_applied_again(
    database: tuple[str, str | None],
) -> None:
    url, schema = database
    repo, clock = MemoryTableRepo(), ManualClock()
    first = _room(url, schema, repo, clock)
    ledger = first.ledger
    assert isinstance(ledger, LedgerAdapter)
    table = first.create_table("toy")
    for p in ("alice", "bob"):
        ledger.deposit(p, 1000, f"d-{p}")
        table.sit(p, p, 100)
        table.connect(p)  # listening (a silent seat without a client would go away)
    first.run_due()
    assert table.round is not None
    assert table.act("alice", {"type": "bet", "amount": 7}, "settled-bet")["duplicate"] is False
    _finish_round(table, clock)  # that round settled: its client ids live only in the journal
    clock.advance(2)
    table.tick()
    assert table.round is not None  # the next round is open
    assert table.act("alice", {"type": "bet", "amount": 3}, "open-bet")["duplicate"] is False
    ledger.ledger.close()

    again = _room(url, schema, repo, clock)  # the process restarts
    again.recover()
    back = again.tables[table.id]
    assert back.round is not None and back.round.view(None)["bets"] == {"A": 3}
    # a client that never heard its acks retries both: neither is applied a second time
    for client_id, amount in (("settled-bet", 7), ("open-bet", 3)):
        reply = back.act("alice", {"type": "bet", "amount": amount}, client_id)
        assert reply == {"type": "ack", "client_id": client_id, "duplicate": True}
    assert back.round.view(None)["bets"] == {"A": 3}
    assert back.journal.count == 1
    # alice's ids are hers alone: bob's action with one of them is applied
    assert back.act("bob", {"type": "bet", "amount": 2}, "open-bet")["duplicate"] is False
    assert back.round.view(None)["bets"] == {"A": 3, "B": 2}
    again.ledger.ledger.close()  # type: ignore[attr-defined]


def test_a_player_whose_last_socket_closed_is_away_after_one_silent_round(
    database: tuple[str, str | None],
) -> None:
    url, schema = database
    repo, clock = MemoryTableRepo(), ManualClock()
    room = _room(url, schema, repo, clock)
    ledger = room.ledger
    assert isinstance(ledger, LedgerAdapter)
    table = room.create_table("toy")
    conns = {}
    for p in ("alice", "bob", "carol"):
        ledger.deposit(p, 1000, f"d-{p}")
        table.sit(p, p, 100)
        conns[p] = [Connection(p), Connection(p)]  # two tabs each
        for conn in conns[p]:
            room.attach(conn)
            room.subscribe(conn, table.id)
    room.detach(conns["bob"][0])  # one tab of two closed: still listening
    assert "bob" in table.seating.connected
    room.detach(conns["bob"][1])  # the browser closed
    assert "bob" not in table.seating.connected
    bob = table.seating.seat_of("bob")
    assert bob is not None
    room.run_due()
    assert table.round is not None
    for p in ("alice", "carol"):
        table.act(p, {"type": "bet", "amount": 1}, f"{p}-bet")
    _finish_round(table, clock)
    assert table.seating.seats[bob].away
    clock.advance(2)
    table.tick()
    assert table.round is not None and bob not in table.round.seat_ids()
    ledger.ledger.close()
