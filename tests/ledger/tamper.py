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


def drop_triggers(ledger: Ledger, table: str) -> None:
    """Remove a table's append-only trigger(s) for good."""
    if ledger.dialect == "postgresql":
        from tests.ledger.conftest import PG_URL

        engine = dbm.create(PG_URL, schema=ledger.schema)
        try:
            with engine.begin() as conn:
                conn.execute(text(f"DROP TRIGGER {table}_append_only ON {table}"))
        finally:
            engine.dispose()
        return
    with ledger.engine.begin() as conn:
        for verb in ("update", "delete"):
            conn.execute(text(f"DROP TRIGGER {table}_append_only_{verb}"))
