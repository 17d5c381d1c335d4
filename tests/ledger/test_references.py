"""References without foreign keys (migration 0004): on PostgreSQL the ledger's append-only rows
reference their parents through the writer's one statement, which refuses itself when a parent
is missing, and `qipai audit` checks every such reference on both databases; accounts are never
deleted. (SQLite keeps its foreign keys: the edits below are made with them off, as someone
with the file could.)"""

from __future__ import annotations

import dataclasses
import sqlite3

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from qipai.core.protocol import Event
from qipai.ledger import Ledger
from qipai.ledger import chain as chain_mod
from qipai.ledger import db as dbm
from qipai.ledger.errors import UnknownRound
from qipai.ledger.schema import WRITER_CHECKED_REFERENCES
from tests.ledger.conftest import PG_URL
from tests.ledger.helpers import play_coin
from tests.ledger.tamper import tampering, triggers_dropped
from tests.ledger.test_tamper import audit

PLAYERS = {"P1": "alice", "P2": "bob"}


def _edit(ledger: Ledger, sql: str) -> None:
    """Write past the triggers (and, on SQLite, with its foreign keys off)."""
    if ledger.dialect == "postgresql":
        with tampering(ledger) as conn:
            conn.execute(text(sql))
        return
    path = ledger.engine.url.database
    assert path
    raw = sqlite3.connect(path)
    try:
        raw.execute("PRAGMA foreign_keys=OFF")
        raw.execute(sql)
        raw.commit()
    finally:
        raw.close()


ORPHANS = [
    (
        "INSERT INTO entries (tx_id, account_id, amount, balance_after, created_at) "
        "SELECT tx_id, 999999, 0 + 5, 5, created_at FROM entries ORDER BY id DESC LIMIT 1",
        "entries.account_id names accounts that do not exist: 999999",
    ),
    (
        "INSERT INTO hold_closures (hold_id, tx_id, status, captured, closed_at) "
        "SELECT 999999, tx_id, 'captured', 0, closed_at FROM hold_closures LIMIT 1",
        "hold_closures.hold_id names holds that do not exist: 999999",
    ),
    (
        "INSERT INTO round_log (round_id, seq, kind, seat, payload, visible_to, client_id, "
        "created_at, chain, chain_seq, mac) SELECT 'ghost', 1, kind, seat, payload, visible_to, "
        "NULL, created_at, NULL, NULL, NULL FROM round_log LIMIT 1",
        "round_log.round_id names rounds that do not exist: ghost",
    ),
    (
        "INSERT INTO round_players (round_id, seat, user_id, account, start_balance, opened_at) "
        "SELECT round_id, 'P9', 'nobody', account, 0, opened_at FROM round_players LIMIT 1",
        "round_players.user_id names users that do not exist: nobody",
    ),
]


@pytest.mark.parametrize(("sql", "expect"), ORPHANS, ids=["entry", "closure", "log", "player"])
def test_audit_names_a_reference_to_nothing(funded: Ledger, sql: str, expect: str) -> None:
    ledger = funded
    play_coin(ledger, {"P1": 10, "P2": 20}, PLAYERS)
    assert audit(ledger)[0] == 0
    _edit(ledger, sql)
    code, output = audit(ledger)
    assert code == 1 and expect in output, output


def test_every_reference_the_writer_checks_is_audited() -> None:
    """The audit's list is the migration's: a reference left out of one is in neither."""
    from importlib import import_module

    migration = import_module("qipai.ledger.migrations.versions.0004_references_in_statements")
    assert set(migration.DROPPED) == set(WRITER_CHECKED_REFERENCES)


def test_the_statement_refuses_a_journal_record_of_a_round_that_is_not_there(
    funded: Ledger,
) -> None:
    """A process whose cache believes in a round the database does not have (a bug, or a row
    gone) cannot journal into it: the statement's own check refuses (PostgreSQL; SQLite's foreign
    key does), the careful retry names it, and nothing is written."""
    ledger = funded
    rid, _ = play_coin(ledger, {"P1": 10}, {"P1": "alice"}, settle=False)
    cache = ledger.cache
    chain = chain_mod.table_chain("t1")
    real = cache.tables[chain].rounds[rid]
    cache.keep(chain, dataclasses.replace(real, id="ghost", holds={}))
    with pytest.raises((UnknownRound, DBAPIError)):
        ledger.append("ghost", Event("x", {}))
    with ledger.engine.connect() as conn:
        rows = conn.execute(text("SELECT count(*) FROM round_log WHERE round_id = 'ghost'"))
        assert rows.scalar_one() == 0
    assert audit(ledger)[0] == 0


def test_accounts_are_never_deleted(ledger: Ledger) -> None:
    """Every other parent of a ledger row is append-only; an account's row is refused DELETE by
    a trigger, and on PostgreSQL the card room's role may not DELETE it at all."""
    ledger.create_user("carol")
    delete = text("DELETE FROM accounts WHERE name = 'wallet:carol'")
    if ledger.dialect == "postgresql":
        # the application role
        with pytest.raises(DBAPIError, match="permission denied"), ledger.engine.begin() as conn:
            conn.execute(delete)
        owner = dbm.create(PG_URL, schema=ledger.schema)
        try:
            with pytest.raises(DBAPIError, match="never deleted"), owner.begin() as conn:
                conn.execute(delete)
        finally:
            owner.dispose()
    else:
        with pytest.raises(DBAPIError, match="never deleted"), ledger.engine.begin() as conn:
            conn.execute(delete)
    assert "wallet:carol" in ledger.balances()


def test_a_missing_no_delete_trigger_is_reported(ledger: Ledger) -> None:
    ledger.create_user("carol")
    assert audit(ledger)[0] == 0
    with triggers_dropped(ledger, "accounts", "no_delete"):
        code, output = audit(ledger)
    assert code == 1 and "trigger accounts_no_delete is missing" in output, output
