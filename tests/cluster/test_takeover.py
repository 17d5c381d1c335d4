"""Takeover at scale, two table hosts on one PostgreSQL: the host's renewals go on while it
resumes a dead host's tables (they have a thread of their own), the resumes run in parallel,
and money left in a table stack with no seat (a buy-in whose seat was refused because the
lease was lost in between) goes back to the player's wallet when the table is taken over."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from sqlalchemy import text

from qipai.server.adoption import Prepared
from qipai.server.room import Room
from qipai.tables.errors import TableMoved
from qipai.tables.table import Table
from tests.cluster.hosts import wait_for
from tests.cluster.inproc import TwoHosts, lapse

pytestmark = pytest.mark.postgres


def test_renewals_never_wait_behind_resumes_and_resumes_run_in_parallel(
    two_hosts: TwoHosts, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, ledger, _clock = two_hosts
    own = b.room.create_table("toy")  # a table of b's own, whose lease b must keep renewing
    dead = [a.room.create_table("toy") for _ in range(3)]  # a's host dies
    for table in dead:
        lapse(ledger, table.id)
    in_flight = threading.Barrier(3, timeout=60)  # all three resumes at once, or none
    go_on = threading.Event()
    resuming: list[str] = []
    adopt = b.room.adopt

    def slow_adopt(self: Room, table_id: str, prepared: Prepared | None = None) -> Table | None:
        in_flight.wait()  # a resume waits for the others: they must run side by side
        resuming.append(table_id)
        go_on.wait(60)  # ... and takes long (a journal replay of a busy table)
        return adopt(table_id, prepared)

    monkeypatch.setattr(b.room, "adopt", slow_adopt.__get__(b.room))
    renewed: list[int] = []
    line = b.ownership.line
    assert line is not None  # renewals on connections of their own (lease_line.py)
    renew_many = line.renew_many

    def counted(*args: Any, **kwargs: Any) -> Any:
        renewed.append(1)
        return renew_many(*args, **kwargs)

    monkeypatch.setattr(line, "renew_many", counted)
    b.ownership.renew_s = 0.05
    b.ownership.start()
    try:
        wait_for("three resumes in flight", lambda: len(resuming) == 3, timeout=60)
        before = len(renewed)
        # every resume is stuck; the host's own lease is renewed all the same
        wait_for("renewals while resuming", lambda: len(renewed) >= before + 3, timeout=60)
        assert not go_on.is_set()
        lease = ledger.lease(own.id)
        assert lease is not None and lease.owner == "host-b" and lease.held
        go_on.set()
        wait_for("the dead host's tables resumed", lambda: all(t.id in b.room.tables for t in dead))
    finally:
        go_on.set()
        b.ownership.stop()
    assert not in_flight.broken
    assert b.metrics.takeovers._value.get() == 3


def test_a_stack_no_layout_seats_goes_back_to_the_wallet_on_takeover(
    two_hosts: TwoHosts,
) -> None:
    """Money in a table stack that no saved layout seats (a buy-in committed without its seat:
    a ledger that saves layouts apart from buy-ins, or a host that died in between) goes back
    to the player's wallet when another host takes the table over (a cash-out in the ledger,
    fenced by the new owner's lease); alice, seated, keeps her seat and her stack."""
    a, b, ledger, _clock = two_hosts
    for player in ("alice", "bob"):
        a.adapter.deposit(player, 1000, f"d-{player}")
    table = a.room.create_table("toy")
    table.sit("alice", "alice", 100)
    a.adapter.buy_in("bob", table.id, 300, "bob-without-a-seat")  # no layout with it
    lapse(ledger, table.id)
    assert b.ownership.take_over() == [table.id]
    moved = b.room.tables[table.id]
    assert moved.seating.seat_of("bob") is None and moved.seating.seat_of("alice") == "A"
    assert ledger.stack("bob", table.id) == 0
    assert ledger.wallet("bob") == 1000  # the 300 came back
    assert ledger.stack("alice", table.id) == 100 and ledger.wallet("alice") == 900
    assert b.ownership.strays == {table.id: {"bob": 300}}
    assert b.metrics.stray_cashouts._value.get() == 1
    # idempotent: the same table taken over again by the same epoch returns nothing twice
    assert b.ownership.return_strays(table.id) == {}
    assert ledger.audit(replay=False).ok


def test_a_seat_and_its_buy_in_are_one_transaction_so_a_takeover_leaves_no_stray(
    two_hosts: TwoHosts,
) -> None:
    """The buy-in and the layout that seats the player are one transaction
    (`seat_flows.paid_with_layout`), fenced by the lease: there is no layout save after the
    buy-in for a takeover to fall before (before, the buy-in committed, b took over, a's
    layout save was refused and bob's 300 sat in a stack no layout seated until b returned
    it). A takeover before the transaction refuses both: bob keeps his money, no stray."""
    a, b, ledger, _clock = two_hosts
    for player in ("alice", "bob", "carol"):
        a.adapter.deposit(player, 1000, f"d-{player}")
    table = a.room.create_table("toy")
    table.sit("alice", "alice", 100)
    save = a.layouts.save_table
    taken: list[str] = []

    def taken_over_first(table_id: str, data: Any) -> None:
        """A takeover between the buy-in's commit and a separate save of the layout."""
        if not taken and any(s.get("player") == "bob" for s in data.get("seats", [])):
            lapse(ledger, table_id)
            taken.extend(b.ownership.take_over())
        save(table_id, data)

    a.layouts.save_table = taken_over_first  # type: ignore[method-assign]
    assert table.sit("bob", "bob", 300) == "B"
    assert taken == []  # no layout saved apart from the buy-in
    saved = a.layouts.load_table(table.id)
    assert saved is not None and {s.get("player") for s in saved["seats"]} >= {"alice", "bob"}
    assert ledger.stack("bob", table.id) == 300 and ledger.wallet("bob") == 700
    # a takeover before the transaction: nothing of carol's seat is written, her money stays
    lapse(ledger, table.id)
    assert b.ownership.take_over() == [table.id]  # a does not know yet
    with pytest.raises(TableMoved):
        table.sit("carol", "carol", 300)
    assert table.seating.seat_of("carol") is None  # a's table did not keep the seat either
    moved = b.room.tables[table.id]
    assert moved.seating.seat_of("carol") is None and moved.seating.seat_of("bob") == "B"
    assert ledger.stack("carol", table.id) == 0 and ledger.wallet("carol") == 1000
    assert b.ownership.strays == {}
    assert ledger.audit(replay=False).ok


def test_a_table_host_shares_commits_with_more_table_threads_and_writer_lanes(
    database: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/scaling.md: a table host runs 32 table threads and 4 ledger writer lanes unless
    QIPAI_TABLE_WORKERS / QIPAI_PG_WRITERS say otherwise."""
    from qipai.cluster.node import host_capacity
    from qipai.cluster.settings import ClusterSettings
    from qipai.ledger import Ledger
    from qipai.ledger.book import Lanes, Writer

    url, schema = database
    monkeypatch.delenv("QIPAI_PG_WRITERS", raising=False)
    ledger = Ledger.open(url, schema=schema)
    try:
        assert host_capacity(ClusterSettings(), ledger, None) == 32
        assert isinstance(ledger.writer, Lanes) and len(ledger.writer.lanes) == 4
        assert host_capacity(ClusterSettings(), ledger, 6) == 6  # QIPAI_TABLE_WORKERS wins
    finally:
        ledger.close()
    monkeypatch.setenv("QIPAI_PG_WRITERS", "1")
    ledger = Ledger.open(url, schema=schema)
    try:
        host_capacity(ClusterSettings(), ledger, None)
        assert isinstance(ledger.writer, Writer)
    finally:
        ledger.close()


def test_a_pass_claims_its_tables_in_one_statement_and_renews_them_until_resumed(
    two_hosts: TwoHosts, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lapsed tables of a pass are claimed in ONE statement (`Ledger.claim_tables`: each
    epoch raised, as one claim each raised it; before, one claim transaction per table), and
    a table claimed but not resumed yet is renewed with the host's own (a pass of hundreds of
    tables outlasts a lease): while the first resume is held, every claimed table is among
    the leases the host renews, and the old owner's writes are fenced."""
    a, b, ledger, _clock = two_hosts
    dead = [a.room.create_table("toy") for _ in range(4)]
    epochs = {t.id: a.adapter.epochs[t.id] for t in dead}
    for table in dead:
        lapse(ledger, table.id)
    one_by_one: list[str] = []
    claim_table = b.ledger.claim_table
    monkeypatch.setattr(
        b.ledger,
        "claim_table",
        lambda table_id, *args, **kw: (
            one_by_one.append(table_id),
            claim_table(table_id, *args, **kw),
        )[1],
    )
    renewing: list[set[str]] = []
    adopt = b.room.adopt

    def adopt_seeing_renewals(
        self: Room, table_id: str, prepared: Prepared | None = None
    ) -> Table | None:
        if not renewing:  # the first resume: what would the renewal renew now?
            renewing.append(
                {t for t in b.adapter.epochs if t in b.room.tables or t in b.room.opening}
            )
            b.ownership.renew()
        return adopt(table_id, prepared)

    monkeypatch.setattr(b.room, "adopt", adopt_seeing_renewals.__get__(b.room))
    b.ownership.resume_threads = 1
    taken = b.ownership.take_over()
    assert sorted(taken) == sorted(t.id for t in dead)
    assert one_by_one == []  # no claim of its own per table
    assert renewing[0] >= {t.id for t in dead}
    for table in dead:
        lease = ledger.lease(table.id)
        assert lease is not None and lease.owner == "host-b" and lease.held
        assert lease.epoch == epochs[table.id] + 1
    assert b.room.opening == set()
    with pytest.raises(TableMoved):  # the old owner is fenced
        dead[0].add_bot()


def test_a_host_still_in_the_directory_but_holding_no_lease_takes_no_share(
    two_hosts: TwoHosts,
) -> None:
    """A host killed a moment ago stays in the host directory longer than its leases take to
    lapse, and a replacement holds nothing yet: the share of the lapsed tables is counted over
    the hosts that hold a live lease (and this one), so the survivor takes them all in one
    pass instead of half now and half after the first half is resumed (docs/scaling.md,
    "Takeover")."""
    a, b, ledger, _clock = two_hosts
    with ledger.engine.begin() as conn:  # the earlier tests' tables: held by nobody here
        conn.execute(text("UPDATE table_leases SET owner = NULL WHERE owner = 'earlier-test'"))
    b.room.create_table("toy")  # b holds a live lease
    dead = [a.room.create_table("toy") for _ in range(4)]
    for table in dead:
        lapse(ledger, table.id)
    b.ownership.hosts_alive = lambda: 3  # the directory: b, dead a, a replacement
    assert sorted(b.ownership.take_over()) == sorted(t.id for t in dead)
