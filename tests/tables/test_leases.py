"""One owner per table: a second process on the same database does not recover a
live owner's rounds; once the owner is gone it takes the table over, and the old owner can no
longer write for it (every round write is fenced by the lease's epoch)."""

from __future__ import annotations

import time

import helpers  # registers the toy game

from qipai.ledger import Ledger
from qipai.server.room import Room
from qipai.tables.ledger_adapter import LedgerAdapter
from qipai.tables.ports import ManualClock, MemoryTableRepo
from qipai.tables.table import Timing

assert helpers.TOY


def _room(url: str, schema: str | None, repo: MemoryTableRepo, host: str, ttl: float) -> Room:
    ledger = LedgerAdapter(Ledger.open(url, schema=schema), host=host)
    return Room(ledger, repo, ManualClock(), Timing(0.5, 1.0), lease_ttl_s=ttl)


def test_a_second_process_leaves_a_live_owners_rounds_alone(
    database: tuple[str, str | None],
) -> None:
    url, schema = database
    repo = MemoryTableRepo()  # the layouts both processes read (the database's table store)
    first = _room(url, schema, repo, "host-a", 30.0)
    ledger = first.ledger
    assert isinstance(ledger, LedgerAdapter)
    table = first.create_table("toy")
    for p in ("alice", "bob"):
        ledger.deposit(p, 1000, f"d-{p}")
        table.sit(p, p, 100)
    first.run_due()
    assert table.record is not None
    round_id = table.record.round_id
    assert table.act("alice", {"type": "bet", "amount": 3}, "a1")["type"] == "ack"

    second = _room(url, schema, repo, "host-b", 30.0)
    assert second.recover() == {round_id: "owned elsewhere"}
    assert table.id not in second.tables and table.id in second.elsewhere
    second.maintain_leases()  # the owner is alive: nothing is taken
    assert table.id not in second.tables
    # the owner plays on undisturbed
    assert table.act("bob", {"type": "bet", "amount": 2}, "b1")["type"] == "ack"

    ledger.release(table.id)  # the owner went away (its stop releases its leases)
    second.maintain_leases()
    taken = second.tables[table.id]
    assert taken.round is not None and taken.record is not None
    assert taken.record.round_id == round_id
    assert taken.round.view(None)["bets"] == {"A": 3, "B": 2}  # resumed from the journal
    # the old owner's object can no longer write for the table: refused, nothing journaled
    reply = table.act("alice", {"type": "stand"}, "a2")
    assert reply["type"] == "error" and reply["code"] == "table_moved"
    assert table.lost
    assert taken.act("alice", {"type": "stand"}, "a2")["type"] == "ack"
    taken.act("bob", {"type": "stand"}, "b2")
    info = second.ledger.round_info(round_id)
    assert info is not None and info["status"] == "settled"


def test_a_lapsed_lease_is_taken_over_and_fences_the_old_owner(
    database: tuple[str, str | None],
) -> None:
    url, schema = database
    repo = MemoryTableRepo()
    first = _room(url, schema, repo, "host-a", 30.0)
    ledger = first.ledger
    assert isinstance(ledger, LedgerAdapter)
    table = first.create_table("toy")
    for p in ("alice", "bob"):
        ledger.deposit(p, 1000, f"d-{p}")
        table.sit(p, p, 100)
    first.run_due()
    assert table.record is not None
    second = _room(url, schema, repo, "host-b", 30.0)
    second.recover()
    assert table.id in second.elsewhere
    # the first owner stalls: its lease runs out (shortened here, not waited for)
    assert ledger.ledger.renew(table.id, "host-a", ledger.epochs[table.id], 0.2)
    time.sleep(0.5)
    second.maintain_leases()
    assert table.id in second.tables
    first.maintain_leases()  # the old owner learns it lost the table
    assert table.id not in first.tables and table.lost
    assert table.act("alice", {"type": "bet", "amount": 1}, "x")["code"] == "table_moved"
