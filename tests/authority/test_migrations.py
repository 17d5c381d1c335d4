"""The `authority` migration branch creates exactly the tables `qipai.authority.schema` queries,
and runs down and up again beside the ledger's branch."""

from __future__ import annotations

from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from qipai.authority.schema import metadata
from qipai.ledger import Ledger
from qipai.ledger import db as dbm
from tests.authority.conftest import both_backends

pytestmark = both_backends


def _ours(obj: Any, name: str | None, type_: str, reflected: bool, other: Any) -> bool:
    table = name if type_ == "table" else getattr(getattr(obj, "table", None), "name", None)
    return table is None or table in metadata.tables


def test_migrated_tables_match_the_metadata(ledger: Ledger) -> None:
    with ledger.engine.connect() as conn:
        context = MigrationContext.configure(
            conn, opts={"compare_type": True, "include_object": _ours}
        )
        assert compare_metadata(context, metadata) == []
        assert any(h.startswith("auth_") for h in context.get_current_heads())


def test_the_branch_runs_down_and_up(ledger: Ledger) -> None:
    with ledger.engine.begin() as conn:
        command.downgrade(dbm.alembic_config(conn), "authority@base")
    names = set(inspect(ledger.engine).get_table_names())
    assert not names & set(metadata.tables) and "accounts" in names
    dbm.migrate(ledger.engine)
    assert set(metadata.tables) <= set(inspect(ledger.engine).get_table_names())
