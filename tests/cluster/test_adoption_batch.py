"""A takeover pass reads what its adoptions need once per kind for all its tables
(`qipai.server.adoption`, `qipai.tables.batch_reads`): the statements of a pass do not grow
with the number of tables (read per table: ~9 per table, ≈ 1.1 s of wall each on a busy host),
what is read is what the per-table reads give, and a host's start-up recovery claims the
room's tables in one statement and reads their client ids and open rounds at once."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import Engine, event, text

from qipai.server.adoption import prepare
from qipai.tables.journal import Journal
from qipai.tables.ports import ManualClock
from qipai.tables.table import Table
from tests.cluster.inproc import Host, TwoHosts, lapse

pytestmark = pytest.mark.postgres


@contextmanager
def statements(engine: Engine) -> Iterator[list[str]]:
    """Every statement sent through `engine` meanwhile."""
    sent: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        sent.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", count)


def mid_round_tables(host: Host, count: int, tag: str) -> list[Table]:
    """`count` toy tables of `host`, each with two players and a bet journaled (with its
    client id) in an open round."""
    tables = []
    for i in range(count):
        alice, bob = f"{tag}a{i}", f"{tag}b{i}"
        for player in (alice, bob):
            host.adapter.deposit(player, 1000, f"d-{player}")
        table = host.room.create_table("toy")
        table.sit(alice, alice, 100)
        table.sit(bob, bob, 100)
        table.tick()
        assert table.record is not None
        first = table.record.round_id
        # the first round played out: the layout then holds a last result (whose chain head
        # the adoption reads with the other tables')
        assert table.act(alice, {"type": "bet", "amount": 3}, f"p-{tag}{i}")["type"] == "ack"
        assert table.act(bob, {"type": "bet", "amount": 3}, f"q-{tag}{i}")["type"] == "ack"
        table.act(alice, {"type": "stand"}, f"r-{tag}{i}")
        table.act(bob, {"type": "stand"}, f"s-{tag}{i}")
        clock = host.room.clock
        assert isinstance(clock, ManualClock)
        for _ in range(20):
            if table.record is not None and table.record.round_id != first:
                break
            clock.advance(0.5)
            table.tick()
        assert table.record is not None and table.record.round_id != first
        assert table.last_result is not None
        assert table.act(alice, {"type": "bet", "amount": 3}, f"c-{tag}{i}")["type"] == "ack"
        tables.append(table)
    return tables


def take_over_counting(two_hosts: TwoHosts, count: int, tag: str) -> tuple[int, list[Table]]:
    a, b, ledger, _clock = two_hosts
    dead = mid_round_tables(a, count, tag)
    for table in dead:
        lapse(ledger, table.id)
    b.ownership.resume_threads = 1
    with statements(b.ledger.engine) as sent:
        taken = b.ownership.take_over()
    assert sorted(taken) == sorted(t.id for t in dead)
    return len(sent), dead


def test_a_takeover_pass_reads_in_a_constant_number_of_statements(two_hosts: TwoHosts) -> None:
    _a, b, ledger, _clock = two_hosts
    two, _ = take_over_counting(two_hosts, 2, "x")
    seven, dead = take_over_counting(two_hosts, 7, "y")
    # lapsed leases, the claim, the stacks, layouts, client ids, rounds, players, journals (8),
    # and the open rounds' MAC check before any is resumed (docs/ledger.md: their records,
    # chains and accounts, read for all the pass's rounds at once: 16)
    assert two == seven <= 24, (two, seven)
    for old in dead:  # ... and each table resumed mid-round: same round, seed, bet, seats
        moved = b.room.tables[old.id]
        assert old.record is not None and moved.record is not None
        assert moved.record.round_id == old.record.round_id
        assert moved.record.seed_hex == old.record.seed_hex
        assert moved.round is not None and moved.round.view(None)["bets"] == {"A": 3}
        assert [p for p in (moved.seating.seat_of(s) for s in old.seating.humans()) if p]
        assert moved.last_result is not None and moved.last_result.get("chain_head")
    # the client id journaled before the takeover is a duplicate on the new owner
    first = dead[0]
    player = sorted(first.seating.humans())[0]
    again = b.room.tables[first.id].act(player, {"type": "bet", "amount": 3}, "c-y0")
    assert again.get("duplicate") is True
    assert ledger.audit(replay=False).ok


def test_a_takeover_pass_logs_one_line_naming_its_tables(
    two_hosts: TwoHosts, caplog: pytest.LogCaptureFixture
) -> None:
    """A pass's tables are named in its one summary line; nothing per table above DEBUG
    (64 resume threads logging a line each queued on the handler's lock: more than half of
    their wall in a 1,000-client failover, docs/scaling.md, "Takeover")."""
    a, b, ledger, _clock = two_hosts
    dead = mid_round_tables(a, 3, "w")
    for table in dead:
        lapse(ledger, table.id)
    with caplog.at_level(logging.INFO, logger="qipai.cluster.ownership"):
        taken = b.ownership.take_over()
    assert sorted(taken) == sorted(t.id for t in dead)
    lines = [r.getMessage() for r in caplog.records if r.name == "qipai.cluster.ownership"]
    assert len(lines) == 1, lines
    assert lines[0].startswith("takeover pass: 3 tables claimed")
    named = lines[0].split("; 3 resumed: ", 1)[1].split()
    assert sorted(named) == sorted(taken)


def test_the_batched_reads_are_the_per_table_reads(two_hosts: TwoHosts) -> None:
    a, b, _ledger, _clock = two_hosts
    tables = mid_round_tables(a, 3, "z")
    ids = [t.id for t in tables] + ["nosuchtable1"]
    prepared = prepare(b.adapter, b.layouts, ids)
    assert prepared is not None
    for table in tables:
        got = prepared[table.id]
        saved = b.layouts.load_table(table.id)
        assert saved is not None and got.layout is not None
        last = saved["results"][-1]
        head = b.adapter.round_info(last["round_id"])
        assert head is not None and head["chain_head"]
        assert got.layout["results"][-1] == {**last, "chain_head": head["chain_head"]}
        assert {k: v for k, v in got.layout.items() if k != "results"} == {
            k: v for k, v in saved.items() if k != "results"
        }
        assert got.open_rounds == b.adapter.open_rounds(table.id)
        assert got.client_ids == b.adapter.recent_client_ids(table.id, Journal.CLIENT_IDS_KEPT)
        assert got.client_ids  # the bet's client id is there
    missing = prepared["nosuchtable1"]
    assert missing.layout is None and missing.open_rounds == [] and missing.client_ids == []


def test_start_up_recovery_claims_at_once_and_reads_in_constant_statements(
    two_hosts: TwoHosts, database: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A replacement host's start-up recovery (`Room.recover`): one claim statement for
    the room's tables with a lease row (one claim each, 445 in one run, racing
    the survivors' batched takeover), and its reads do not grow with the tables."""
    a, _b, ledger, clock = two_hosts
    sent_for: dict[int, int] = {}
    for count, tag in ((2, "r"), (6, "s")):
        dead = mid_round_tables(a, count, tag)
        for table in dead:
            lapse(ledger, table.id)
        fresh = Host(*database, f"host-new-{tag}", clock)
        try:
            single: list[str] = []
            claim_table = fresh.ledger.claim_table
            monkeypatch.setattr(
                fresh.ledger,
                "claim_table",
                lambda t, *args, _s=single, _c=claim_table, **kw: (
                    _s.append(t),
                    _c(t, *args, **kw),
                )[1],
            )
            with statements(fresh.ledger.engine) as sent:
                outcome = fresh.room.recover()
            assert single == []
            assert {t.id for t in dead} <= set(fresh.room.tables)
            for table in dead:
                assert table.record is not None
                assert outcome[table.record.round_id] == "resumed"
            sent_for[count] = len(sent)
        finally:
            fresh.room.tables.clear()
            fresh.close()
        for table in dead:  # leave them to nobody for the next round of the test
            a.room.tables.pop(table.id, None)
            lapse(ledger, table.id)
        with ledger.engine.begin() as conn:
            conn.execute(
                text(
                    "UPDATE table_leases SET owner = 'earlier-test', "
                    "expires_at = now() + interval '1 day'"
                )
            )
    assert sent_for[2] == sent_for[6], sent_for
