"""Ownership and fencing between two table hosts on one PostgreSQL (in one test process, on a
virtual clock, so every step is deterministic): a host whose lease lapsed and was taken over
can neither journal, settle nor save the table's layout, and the new owner resumes the open
round from the journal (same round, same seed, same seats, the journaled bet)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import text

from qipai.ledger import Ledger
from qipai.tables.ports import LeaseLost, ManualClock
from tests.cluster.inproc import TwoHosts, lapse

pytestmark = pytest.mark.postgres


def log_size(ledger: Ledger, round_id: str) -> int:
    info: dict[str, Any] = ledger.round(round_id)
    return len(info["log"])


def test_a_lapsed_table_is_taken_over_and_its_former_owner_is_fenced(
    two_hosts: TwoHosts,
) -> None:
    a, b, ledger, _clock = two_hosts
    for player in ("alice", "bob"):
        a.adapter.deposit(player, 1000, f"d-{player}")
    table = a.room.create_table("toy")
    table.sit("alice", "alice", 100)
    table.sit("bob", "bob", 100)
    table.tick()
    assert table.record is not None
    round_id, seed = table.record.round_id, table.record.seed_hex
    assert table.act("alice", {"type": "bet", "amount": 3}, "c-1")["type"] == "ack"
    before = ledger.lease(table.id)
    assert before is not None and before.owner == "host-a"

    # a live lease is never taken
    assert b.ownership.take_over() == []

    lapse(ledger, table.id)
    assert b.ownership.take_over() == [table.id]
    after = ledger.lease(table.id)
    assert after is not None and after.owner == "host-b" and after.epoch == before.epoch + 1
    moved = b.room.tables[table.id]
    assert moved.record is not None and moved.record.round_id == round_id
    assert moved.record.seed_hex == seed  # the same deal: resumed, not dealt again
    assert moved.seating.seat_of("alice") == "A" and moved.seating.seat_of("bob") == "B"
    assert moved.round is not None and moved.round.view(None)["bets"] == {"A": 3}
    assert b.metrics.takeovers._value.get() == 1

    # the former owner wakes up: its action is refused (nothing journaled) ...
    journaled = log_size(ledger, round_id)
    reply = table.act("bob", {"type": "bet", "amount": 5}, "c-2")
    assert reply["type"] == "error" and reply["code"] == "table_moved"
    assert log_size(ledger, round_id) == journaled
    assert table.lost and a.fenced == 1
    # ... its layout save is refused ...
    with pytest.raises(LeaseLost):
        a.layouts.save_table(table.id, table.layout())
    # ... and its settlement too: nothing of the round is written by the stale host
    with pytest.raises(LeaseLost):
        a.adapter.void_round(round_id, "stale host")
    assert ledger.round(round_id)["status"] == "open"

    # its next lease pass notices and drops the table
    a.ownership.renew()
    assert table.id not in a.room.tables and a.metrics.lost._value.get() == 1

    # the new owner plays the round on and settles it once
    assert moved.act("bob", {"type": "bet", "amount": 5}, "c-2")["type"] == "ack"
    assert moved.act("bob", {"type": "bet", "amount": 5}, "c-2").get("duplicate") is True
    clock = b.room.clock
    assert isinstance(clock, ManualClock)
    for _ in range(40):
        clock.advance(1.0)
        b.room.run_due()
        if ledger.round(round_id)["status"] != "open":
            break
    assert ledger.round(round_id)["status"] == "settled"
    assert ledger.audit(replay=False).ok  # (the toy game is not the ledger's to replay)


def test_a_released_lease_is_taken_over_at_once_and_a_closed_table_is_left_alone(
    two_hosts: TwoHosts,
) -> None:
    a, b, _ledger, _clock = two_hosts
    a.adapter.deposit("alice", 1000, "d-alice")
    kept = a.room.create_table("toy")
    kept.sit("alice", "alice", 100)
    closed = a.room.create_table("toy")
    a.room.close(closed.id)
    a.room._release(kept.id)  # a drain: the host gives its tables up
    a.room._release(closed.id)
    resumed = b.ownership.take_over()
    assert resumed == [kept.id]
    assert b.room.tables[kept.id].seating.seat_of("alice") == "A"
    assert closed.id in b.ownership.ignored and closed.id not in b.room.tables
    assert b.ownership.take_over() == []


def money(ledger: Ledger) -> tuple[dict[str, int], int]:
    """Every account's balance and the number of transactions."""
    with ledger.engine.connect() as conn:
        balances = {
            str(n): int(b) for n, b in conn.execute(text("SELECT name, balance FROM accounts"))
        }
        count = int(conn.execute(text("SELECT count(*) FROM transactions")).scalar_one())
    return balances, count


def test_a_stale_host_moves_no_money_even_when_the_claim_lands_just_before_its_write(
    two_hosts: TwoHosts,
) -> None:
    """Buy-in, cash-out, journal append, settlement and seed reveal of a former owner are
    refused by the epoch check inside their own transaction: the new owner's claim commits after any check the
    stale host could make beforehand and just before its write (the writer's entry is wrapped),
    and still nothing is written."""
    from qipai.core.protocol import Posting, RoundResult
    from qipai.ledger.accounts import HOUSE
    from qipai.ledger.accounts import stack as stack_account
    from qipai.tables.ports import JournalEntry

    a, b, ledger, _clock = two_hosts
    for player in ("carol", "dave"):
        a.adapter.deposit(player, 1000, f"d-{player}")
    table = a.room.create_table("toy")
    table.sit("carol", "carol", 100)
    table.sit("dave", "dave", 100)
    table.tick()
    assert table.record is not None
    round_id = table.record.round_id
    assert table.act("carol", {"type": "bet", "amount": 3}, "c-1")["type"] == "ack"
    stale_epoch = a.adapter.epochs[table.id]

    writer = a.ledger.writer
    run = writer.run
    claimed: list[int] = []

    def claim_first(op: Any) -> Any:
        """The takeover commits in the window between the stale host's checks and its write."""
        if not claimed:
            lapse(ledger, table.id)
            assert b.adapter.claim(table.id, 3.0)
            claimed.append(b.adapter.epochs[table.id])
        return run(op)

    writer.run = claim_first  # type: ignore[method-assign]
    before, journaled = money(ledger), log_size(ledger, round_id)
    try:
        with pytest.raises(LeaseLost):
            a.adapter.buy_in("dave", table.id, 50, "late-buy-in")
        assert claimed == [stale_epoch + 1]
        with pytest.raises(LeaseLost):
            a.adapter.cash_out("carol", table.id, "late-cash-out")
        with pytest.raises(LeaseLost):
            a.adapter.bot_buy_in("bot-late", table.id, 50, "late-bot")
        with pytest.raises(LeaseLost):
            a.adapter.bot_cash_out("bot-late", table.id, "late-bot-out")
        with pytest.raises(LeaseLost):
            a.adapter.append(round_id, JournalEntry(9, "B", {"type": "bet", "amount": 5}, "c-9"))
        result = RoundResult((Posting(stack_account("carol", table.id), 7), Posting(HOUSE, -7)))
        with pytest.raises(LeaseLost):
            a.adapter.settle_round(round_id, result, pool_id="toy", reveal_seed=False)
        # nor may it reveal the seed of the deal unit the new owner plays on
        with pytest.raises(LeaseLost):
            a.adapter.reveal(str(ledger.round(round_id)["seed_commitment"]))
    finally:
        writer.run = run  # type: ignore[method-assign]
    assert a.fenced == 7
    assert ledger.round(round_id)["seed_revealed"] is False
    after_balances, after_count = money(ledger)
    # (the bot's user row may exist now: ensure_user; no account moved, no transaction added)
    assert after_count == before[1]
    assert {k: v for k, v in after_balances.items() if k in before[0]} == before[0]
    assert all(v == 0 for k, v in after_balances.items() if k not in before[0])
    assert log_size(ledger, round_id) == journaled
    assert ledger.round(round_id)["status"] == "open"
    # the new owner's writes pass under its epoch
    held = ledger.stack("dave", table.id)
    b.adapter.buy_in("dave", table.id, 50, "new-owner-buy-in")
    assert ledger.stack("dave", table.id) == held + 50


def test_renewals_and_fenced_writes_do_not_wait_for_each_other_but_a_claim_waits(
    two_hosts: TwoHosts,
) -> None:
    """The fence holds the lease row `FOR KEY SHARE` until the write commits: the renewal of
    all of a host's leases (every second) neither waits for a write in flight nor holds one up
    (with `FOR SHARE` the card room's writes queued behind each renewal), and a claim, which
    raises the epoch, still waits for the write. Each wait is caught by `lock_timeout`."""
    from sqlalchemy.exc import OperationalError

    from qipai.ledger import leases

    a, _b, ledger, _clock = two_hosts
    table = a.room.create_table("toy")
    epoch = a.adapter.epochs[table.id]
    quick = "SET LOCAL lock_timeout = '3s'"
    with ledger.engine.connect() as writer, ledger.engine.connect() as other:
        with writer.begin():  # a fenced write in flight (its transaction not committed yet)
            leases.check_fence(writer, (table.id, epoch), table.id)
            with other.begin():
                other.execute(text(quick))
                assert leases.renew_many(other, "host-a", {table.id: epoch}, 3.0) == {table.id}
            with pytest.raises(OperationalError, match="lock timeout"), other.begin():
                other.execute(text(quick))
                leases.claim(other, table.id, "host-b", 3.0)
        with other.begin():  # a renewal in flight does not hold up a fenced write either
            assert leases.renew_many(other, "host-a", {table.id: epoch}, 3.0) == {table.id}
            with writer.begin():
                writer.execute(text(quick))
                leases.check_fence(writer, (table.id, epoch), table.id)
    lease = ledger.lease(table.id)
    assert lease is not None and lease.owner == "host-a" and lease.epoch == epoch
