"""Editing a ledger database behind the ledger's back, as someone with direct access to it
would: past the append-only triggers (an attacker who can change the schema) and, on PostgreSQL,
as the superuser rather than the card room's role."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from sqlalchemy import Connection, text

from qipai.ledger import Ledger
from qipai.ledger import db as dbm


@contextlib.contextmanager
def tampering(ledger: Ledger, *, keep_triggers_off: bool = False) -> Iterator[Connection]:
    """A transaction in which UPDATE and DELETE of append-only tables go through; the triggers
    are back afterwards (unless `keep_triggers_off`: the edit that drops them)."""
    if ledger.dialect == "postgresql":
        from tests.ledger.conftest import PG_URL

        engine = dbm.create(PG_URL, schema=ledger.schema)
        try:
            with engine.begin() as conn:
                conn.execute(text("SET LOCAL session_replication_role = replica"))
                yield conn
        finally:
            engine.dispose()
        return
    with ledger.engine.begin() as conn:
        saved = conn.execute(
            text("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
        ).all()
        for name, _ in saved:
            conn.execute(text(f'DROP TRIGGER "{name}"'))
        yield conn
        if not keep_triggers_off:
            for _, sql in saved:
                conn.execute(text(sql))


@contextlib.contextmanager
def triggers_dropped(ledger: Ledger, table: str, kind: str = "append_only") -> Iterator[None]:
    """A table's trigger(s) `<table>_<kind>…` removed (and put back afterwards: a PostgreSQL
    test schema outlives the test)."""
    if ledger.dialect == "postgresql":
        from tests.ledger.conftest import PG_URL

        engine = dbm.create(PG_URL, schema=ledger.schema)
        try:
            with engine.begin() as conn:
                definition = conn.execute(
                    text(
                        "SELECT pg_get_triggerdef(t.oid) FROM pg_trigger t "
                        "JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgname = :n "
                        "AND c.relnamespace = current_schema()::regnamespace"
                    ),
                    {"n": f"{table}_{kind}"},
                ).scalar_one()
                conn.execute(text(f"DROP TRIGGER {table}_{kind} ON {table}"))
            yield
        finally:
            with engine.begin() as conn:
                conn.execute(text(str(definition)))
            engine.dispose()
        return
    with ledger.engine.begin() as conn:
        found = conn.execute(
            text(
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = :t "
                "AND name LIKE :n"
            ),
            {"t": table, "n": f"{table}_{kind}%"},
        ).all()
        saved = [str(sql) for _, sql in found]
        for name, _ in found:
            conn.execute(text(f'DROP TRIGGER "{name}"'))
    try:
        yield
    finally:
        with ledger.engine.begin() as conn:
            for sql in saved:
                conn.execute(text(sql))
