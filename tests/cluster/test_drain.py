"""An operator's drain, step by step (two table hosts in one test process on one PostgreSQL, a
virtual clock): the drained host opens and takes over no table, gives a table between rounds up
at once and a table mid-round only once that round settled (settled by it, once), and the other
host claims both by the normal takeover path with their seats, the journal intact."""

from __future__ import annotations

import pytest

from qipai.tables.errors import HostDraining
from tests.cluster.inproc import TwoHosts, lapse

pytestmark = pytest.mark.postgres


def test_a_drained_host_hands_its_tables_over_at_round_boundaries(
    two_hosts: TwoHosts,
) -> None:
    a, b, ledger, clock = two_hosts
    for player in ("alice", "bob", "carol"):
        a.adapter.deposit(player, 1000, f"d-{player}")
    busy = a.room.create_table("toy")  # a round runs, a bet journaled
    busy.sit("alice", "alice", 100)
    busy.sit("bob", "bob", 100)
    busy.tick()
    assert busy.record is not None
    round_id = busy.record.round_id
    assert busy.act("alice", {"type": "bet", "amount": 3}, "c-1")["type"] == "ack"
    idle = a.room.create_table("toy")  # between rounds: one person waits for another
    idle.sit("carol", "carol", 100)
    idle.tick()
    assert idle.record is None
    epochs = {t: ledger.lease(t).epoch for t in (busy.id, idle.id)}  # type: ignore[union-attr]

    assert a.room.hand_over() == sorted([busy.id, idle.id])
    a.ownership.draining = True
    a.room.run_due()
    a.ownership.renew()  # (its lease thread's work: renewing what it still runs)

    # between rounds: given up at once (layout saved, lease released); mid-round: kept
    assert idle.id not in a.room.tables and idle.lost
    assert busy.id in a.room.tables and not busy.lost
    released = ledger.lease(idle.id)
    assert released is not None and not released.held
    held = ledger.lease(busy.id)
    assert held is not None and held.held and held.owner == "host-a"

    # the drained host opens nothing, seats nobody anywhere new, takes nothing over
    with pytest.raises(HostDraining):
        a.room.create_table("toy")
    with pytest.raises(HostDraining):
        a.room.automatch("dave", "dave", "toy", 100)
    lapse(ledger, idle.id)
    assert a.ownership.take_over() == []

    # the other host claims the released table by the normal takeover path
    assert b.ownership.take_over() == [idle.id]
    moved_idle = b.room.tables[idle.id]
    assert moved_idle.seating.seat_of("carol") == "A"
    after = ledger.lease(idle.id)
    assert after is not None and after.owner == "host-b" and after.epoch == epochs[idle.id] + 1

    # the running round ends on the drained host (settled there, once), then it is given up
    assert busy.act("bob", {"type": "bet", "amount": 4}, "c-2")["type"] == "ack"
    a.room.wake(busy.id)  # (as `Room.call` does after an action)
    for _ in range(60):
        if busy.id not in a.room.tables:
            break
        clock.advance(1.0)
        a.ownership.renew()
        a.room.run_due()
    assert busy.id not in a.room.tables
    assert ledger.round(round_id)["status"] == "settled"
    assert [r for r in ledger.open_rounds(busy.id)] == []
    assert b.ownership.take_over() == [busy.id]
    moved = b.room.tables[busy.id]
    assert moved.seating.seat_of("alice") == "A" and moved.seating.seat_of("bob") == "B"
    assert moved.record is None  # nothing to resume: no round was left open
    assert ("alice", "c-1") in moved.journal.client_ids  # the journal's client ids came along

    # the new owner plays on: a new round, not the drained host's
    for _ in range(10):
        clock.advance(1.0)
        b.room.run_due()
        if moved.record is not None:
            break
    assert moved.record is not None and moved.record.round_id != round_id
    assert ledger.audit(replay=False).ok  # (the toy game is not the ledger's to replay)
