"""Table leases and fencing: a compare-and-set claim raises the epoch, and every round write under
a stale epoch is refused inside its own transaction (docs/ledger.md §6)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from sqlalchemy import text

from qipai.core.protocol import HOUSE, Posting, RecordedAction, RoundResult, Seat
from qipai.core.rng import new_seed
from qipai.ledger import Fenced, Ledger, LedgerError
from tests.ledger.conftest import PG_URL


def test_claim_renew_release(ledger: Ledger) -> None:
    assert ledger.lease("t1") is None
    epoch = ledger.claim_table("t1", "host-a", 30)
    assert epoch == 1
    lease = ledger.lease("t1")
    assert lease is not None and lease.owner == "host-a" and lease.epoch == 1 and lease.held
    assert ledger.claim_table("t1", "host-b", 30) is None  # live lease of another host
    assert ledger.renew("t1", "host-a", 1, 30)
    assert not ledger.renew("t1", "host-b", 1, 30)
    assert not ledger.renew("t1", "host-a", 2, 30)
    assert not ledger.release("t1", "host-b", 1)
    assert ledger.release("t1", "host-a", 1)
    released = ledger.lease("t1")
    assert released is not None and released.owner is None and not released.held
    assert ledger.claim_table("t1", "host-b", 30) == 2
    assert not ledger.renew("t1", "host-a", 1, 30)  # the old owner's epoch is gone
    # the same host claiming again fences its earlier self
    assert ledger.claim_table("t1", "host-b", 30) == 3
    assert [(x.table_id, x.epoch) for x in ledger.leases()] == [("t1", 3)]


def test_a_lapsed_lease_can_be_claimed(ledger: Ledger) -> None:
    assert ledger.claim_table("t1", "host-a", 0.05) == 1
    lease = ledger.lease("t1")
    assert lease is not None
    while ledger.lease("t1").held:  # type: ignore[union-attr]
        time.sleep(0.02)  # waiting for the lease to lapse (no timing is asserted)
    assert ledger.claim_table("t1", "host-b", 30) == 2
    lease = ledger.lease("t1")
    assert lease is not None and lease.owner == "host-b" and lease.held


def test_bad_lease_arguments(ledger: Ledger) -> None:
    with pytest.raises(LedgerError, match="ttl_s"):
        ledger.claim_table("t1", "host-a", 0)
    with pytest.raises(LedgerError, match="ttl_s"):
        ledger.claim_table("t1", "host-a", True)
    with pytest.raises(LedgerError, match="host"):
        ledger.claim_table("t1", "", 5)
    with pytest.raises(LedgerError, match="table"):
        ledger.claim_table("bad:id", "host-a", 5)
    assert ledger.leases() == []


def _open(ledger: Ledger, fence: tuple[str, int] | None, table: str = "t1") -> str:
    return ledger.open_round(
        table_id=table,
        game="coin",
        config={},
        seats=[Seat("P1", 1_000)],
        players={"P1": "alice"},
        seed=new_seed(),
        holds={"P1": 100},
        fence=fence,
    )


def _result() -> RoundResult:
    return RoundResult((Posting("P1", 50), Posting(HOUSE, -50)))


def test_every_round_write_checks_the_fence(funded: Ledger) -> None:
    old = funded.claim_table("t1", "host-a", 30)
    assert old is not None
    rid = _open(funded, ("t1", old))
    funded.append(rid, RecordedAction("P1", {"type": "bet"}), fence=("t1", old))
    funded.append_groups(rid, [([RecordedAction("P1", {"type": "x"})], None)], fence=("t1", old))
    other = _open(funded, ("t1", old))
    new = funded.claim_table("t1", "host-a", 30)  # e.g. the host restarted
    assert new == old + 1
    before = funded.balances()
    log_len = len(funded.round(rid)["log"])
    stale = ("t1", old)
    with pytest.raises(Fenced, match="stale"):
        _open(funded, stale)
    with pytest.raises(Fenced):
        funded.append(rid, RecordedAction("P1", {"type": "bet"}), fence=stale)
    with pytest.raises(Fenced):
        funded.append_groups(rid, [([RecordedAction("P1", {"type": "x"})], None)], fence=stale)
    with pytest.raises(Fenced):
        funded.settle_round(rid, _result(), fence=stale)
    with pytest.raises(Fenced):
        funded.void_round(other, "no", fence=stale)
    # nothing changed
    assert funded.balances() == before
    assert len(funded.round(rid)["log"]) == log_len
    assert funded.round(rid)["status"] == "open" and funded.round(other)["status"] == "open"
    # the current epoch writes; a fence for another table or an unclaimed one is refused
    funded.settle_round(rid, _result(), fence=("t1", new))
    with pytest.raises(Fenced, match="for table 't2'"):
        funded.void_round(other, "no", fence=("t2", new))
    with pytest.raises(Fenced, match="no lease"):
        _open(funded, ("t9", 1), table="t9")
    funded.void_round(other, "table moved", fence=("t1", new))
    assert funded.audit(replay=False).ok


def test_unfenced_writes_still_work(funded: Ledger) -> None:
    """Callers that pass no fence (SQLite, one process) are unaffected by leases."""
    funded.claim_table("t1", "host-a", 30)
    rid = _open(funded, None)
    funded.settle_round(rid, _result())
    assert funded.round(rid)["status"] == "settled"


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_a_claim_waits_for_a_writer_that_passed_the_fence(
    backend: str, ledger_factory: Callable[[], Ledger]
) -> None:
    """PostgreSQL: a write that checked the fence holds the lease row shared until it commits,
    so a concurrent claim waits for it — the stale owner's write cannot land after the claim.
    (SQLite serializes every writer on the database lock.)"""
    writer, claimer = ledger_factory(), ledger_factory()
    for user in ("alice",):
        writer.create_user(user)
        writer.deposit(user, 10_000, "seed")
        writer.buy_in(user, "t1", 1_000, "seed")
    epoch = writer.claim_table("t1", "host-a", 0.2)
    assert epoch is not None
    inside, go_on = threading.Event(), threading.Event()

    def pause(point: str) -> None:
        if point == "before_commit" and not inside.is_set():
            inside.set()
            assert go_on.wait(30)

    writer.fault = pause
    errors: list[BaseException] = []
    rid: list[str] = []

    def write() -> None:
        try:
            rid.append(_open(writer, ("t1", epoch)))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    w = threading.Thread(target=write)
    w.start()
    assert inside.wait(30)
    while claimer.lease("t1").held:  # type: ignore[union-attr]
        time.sleep(0.02)  # the writer's lease lapses while it is paused
    claimed: list[int | None] = []
    c = threading.Thread(target=lambda: claimed.append(claimer.claim_table("t1", "host-b", 30)))
    c.start()
    # the claim must be waiting on the writer's lock, not done
    probe = Ledger.open(PG_URL, schema=writer.schema, migrate=False)
    try:  # the pg_stat_activity probe: wait until the claim either finished or waits on a lock
        for _ in range(3000):
            with probe.engine.connect() as conn:
                waiting = conn.execute(
                    text(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                        "AND (query LIKE 'INSERT INTO table_leases%' "
                        "OR query LIKE 'SELECT 1 FROM table_leases%FOR UPDATE')"  # (the claim's lock)
                    )
                ).scalar_one()
            if waiting or claimed:
                break
            time.sleep(0.01)
        claimed_while_writing = list(claimed)
    finally:
        probe.close()
        go_on.set()  # (also when the assertions below fail: never leave the writer paused)
    assert not claimed_while_writing, "the claim went through while a fenced write was open"
    assert waiting == 1
    w.join(30)
    c.join(30)
    assert not errors and rid
    assert claimed == [epoch + 1]
    writer.fault = lambda point: None
    # the round the old owner opened committed before the claim; its next write is fenced
    with pytest.raises(Fenced):
        writer.settle_round(rid[0], _result(), fence=("t1", epoch))
    claimer.settle_round(rid[0], _result(), fence=("t1", epoch + 1))


def test_renew_many_renews_only_this_hosts_current_leases(ledger: Ledger) -> None:
    a1 = ledger.claim_table("t1", "host-a", 30)
    a2 = ledger.claim_table("t2", "host-a", 30)
    b3 = ledger.claim_table("t3", "host-b", 30)
    assert a1 and a2 and b3
    before = {x.table_id: x.expires_at for x in ledger.leases()}
    renewed = ledger.renew_many("host-a", {"t1": a1, "t2": a2 + 1, "t3": b3, "t9": 1}, 60)
    assert renewed == {"t1"}  # t2: a stale epoch; t3: another host's; t9: no lease
    after = {x.table_id: x.expires_at for x in ledger.leases()}
    assert after["t1"] > before["t1"] and after["t2"] == before["t2"]
    assert after["t3"] == before["t3"]
    assert ledger.renew_many("host-a", {}, 60) == set()
