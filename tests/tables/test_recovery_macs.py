"""Recovery checks a round's MACs before resuming it (SQLite and PostgreSQL): an open round
whose header (or a journal record) was edited in the database after a crash is neither
resumed nor settled nor voided — the table is suspended with the round left open and its
holds in place, the reason naming the broken MAC — while an untouched round resumes (the
negative control)."""

from __future__ import annotations

import helpers  # registers the toy game
import pytest
from sqlalchemy import text

from qipai.ledger import Ledger
from qipai.ledger import db as dbm
from qipai.server.room import Room
from qipai.tables.ledger_adapter import LedgerAdapter
from qipai.tables.ports import ManualClock, MemoryTableRepo
from qipai.tables.table import Timing
from tests.ledger.tamper import tampering

assert helpers.TOY

EDITS = {
    "none": None,
    "header": "UPDATE rounds SET context = '{\"pool\": 1}' WHERE id = :r",
    "journal": 'UPDATE round_log SET payload = \'{"type": "bet", "amount": 70}\' '
    "WHERE round_id = :r AND kind = 'action'",
}


def _room(url: str, schema: str | None, repo: MemoryTableRepo, clock: ManualClock) -> Room:
    return Room(LedgerAdapter(Ledger.open(url, schema=schema)), repo, clock, Timing(0.5, 1.0))


@pytest.mark.parametrize("edit", list(EDITS))
def test_a_round_whose_mac_fails_is_not_resumed(
    database: tuple[str, str | None], edit: str
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
        table.connect(p)
    first.run_due()
    assert table.round is not None and table.record is not None
    round_id = table.record.round_id
    table.act("alice", {"type": "bet", "amount": 7}, "a-bet")
    held = ledger.ledger.balances()
    ledger.ledger.close()  # the process dies mid-round

    sql = EDITS[edit]
    if sql is not None:  # edited past the append-only triggers (tests/ledger/tamper.py)
        if schema is None:
            raw = Ledger.open(url)
            with tampering(raw) as conn:
                assert conn.execute(text(sql), {"r": round_id}).rowcount == 1
            raw.close()
        else:
            engine = dbm.create(url, schema=schema)
            with engine.begin() as conn:
                conn.execute(text("SET LOCAL session_replication_role = replica"))
                assert conn.execute(text(sql), {"r": round_id}).rowcount == 1
            engine.dispose()

    again = _room(url, schema, repo, clock)
    outcome = again.recover()
    back = again.tables[table.id]
    port = again.ledger
    assert isinstance(port, LedgerAdapter)
    if sql is None:
        assert outcome[round_id] == "resumed"
        assert back.suspension is None and back.round is not None
    else:
        assert outcome[round_id] == "suspended", outcome
        assert back.round is None and back.suspension is not None
        assert f"round {round_id} fails its MACs" in back.suspension
        for _ in range(5):  # the table deals nothing and settles nothing
            clock.advance(2)
            back.tick()
        assert back.round is None
        assert port.ledger.round(round_id)["status"] == "open"  # not settled, not voided
        assert port.ledger.balances() == held  # the holds in place, no money moved
    port.ledger.close()
