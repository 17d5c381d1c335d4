"""Alembic migrations create exactly the schema the code uses, on both databases, and run both
ways; `--db` / QIPAI_DATABASE_URL / the platformdirs default resolve as documented."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from qipai.ledger import Ledger
from qipai.ledger import db as dbm
from qipai.ledger.schema import WRITER_CHECKED_REFERENCES, metadata
from tests.conftest import require_service
from tests.ledger.conftest import PG_URL, postgres_available


def _compared(dialect: str) -> Any:
    """Compare the ledger's own tables (other migration branches — the card room's, the
    authority's — create tables of their own in the same database), and on PostgreSQL leave out
    the foreign keys migration 0004 replaced with the writer's own checks (they stay declared,
    and SQLite keeps them)."""
    unchecked = {(t, c) for t, c, _, _ in WRITER_CHECKED_REFERENCES}

    def include(obj: Any, name: str | None, type_: str, reflected: bool, other: Any) -> bool:
        table = name if type_ == "table" else getattr(getattr(obj, "table", None), "name", None)
        if (
            type_ == "foreign_key_constraint"
            and dialect == "postgresql"
            and (table, next(iter(obj.column_keys))) in unchecked
        ):
            return False
        return table is None or table in metadata.tables

    return include


def test_migrated_schema_matches_the_metadata(ledger: Ledger) -> None:
    with ledger.engine.connect() as conn:
        context = MigrationContext.configure(
            conn, opts={"compare_type": True, "include_object": _compared(ledger.dialect)}
        )
        diff = compare_metadata(context, metadata)
        heads = set(context.get_current_heads())
    assert diff == []
    assert heads == dbm.head_revisions()


def test_postgresql_storage_parameters_match_the_metadata(ledger: Ledger) -> None:
    """(Alembic's comparison does not look at storage parameters.) The tables updated in place
    leave room in their pages for their rows' next versions (migration 0006)."""
    if ledger.dialect != "postgresql":
        pytest.skip("storage parameters are PostgreSQL's")
    with ledger.engine.connect() as conn:
        found = {
            name: sorted(options or [])
            for name, options in conn.exec_driver_sql(
                "SELECT c.relname, c.reloptions FROM pg_class c "
                "WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'"
            )
        }
    declared = {
        name: sorted(f"{k}={v}" for k, v in table.dialect_options["postgresql"]["with"].items())
        if table.dialect_options["postgresql"]["with"]
        else []
        for name, table in metadata.tables.items()
    }
    assert {n: found[n] for n in declared} == declared
    assert declared["accounts"] == ["fillfactor=10"]


@pytest.mark.parametrize(
    "backend_name", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
)
def test_downgrade_and_upgrade_again(backend_name: str, tmp_path: Path) -> None:
    schema = None
    if backend_name == "postgresql":
        require_service(postgres_available(), f"PostgreSQL ({PG_URL})")
        schema = f"qipai_m_{uuid.uuid4().hex[:12]}"
        ledger = Ledger.open(PG_URL, schema=schema)
    else:
        ledger = Ledger.open(str(tmp_path / "m.sqlite3"))
    try:
        ledger.create_user("alice")
        with ledger.engine.begin() as conn:
            command.downgrade(dbm.alembic_config(conn), "base")
        assert set(inspect(ledger.engine).get_table_names()) <= {"alembic_version"}
        dbm.migrate(ledger.engine)
        assert {"accounts", "entries", "rounds"} <= set(inspect(ledger.engine).get_table_names())
        ledger.create_user("bob")
        assert ledger.balances() == {"wallet:bob": 0}
    finally:
        ledger.close()
        if schema is not None:
            dbm.drop_schema(create_engine(PG_URL), schema)


def test_database_url_resolution(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(dbm.ENV_URL, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert dbm.resolve_url(None) == f"sqlite:///{tmp_path / 'data' / 'qipai' / 'qipai.sqlite3'}"
    assert dbm.resolve_url("x.db").startswith("sqlite:////") and dbm.resolve_url("x.db").endswith(
        "/x.db"
    )
    assert dbm.resolve_url("postgresql+psycopg://u@h/d") == "postgresql+psycopg://u@h/d"
    monkeypatch.setenv(dbm.ENV_URL, "postgresql+psycopg://env@h/d")
    assert dbm.resolve_url(None) == "postgresql+psycopg://env@h/d"
    assert dbm.resolve_url(str(tmp_path / "given.db")) == f"sqlite:///{tmp_path / 'given.db'}"
    with pytest.raises(ValueError, match="unsupported database"):
        dbm.create("mysql://u@h/d")


def test_postgresql_commit_durability_is_chosen_by_qipai_pg_sync(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """QIPAI_PG_SYNC sets the ledger connections' synchronous_commit (a schema or a URL's own
    options are kept beside it); unset, the server's setting applies; a bad value is refused."""
    require_service(postgres_available(), f"PostgreSQL ({PG_URL})")

    def shown(url: str, schema: str | None = None) -> tuple[str, str]:
        engine = dbm.create(url, schema=schema)
        try:
            with engine.connect() as conn:
                return (
                    str(conn.exec_driver_sql("SHOW synchronous_commit").scalar()),
                    str(conn.exec_driver_sql("SHOW search_path").scalar()),
                )
        finally:
            engine.dispose()

    monkeypatch.delenv("QIPAI_PG_SYNC", raising=False)
    server = shown(PG_URL)[0]
    monkeypatch.setenv("QIPAI_PG_SYNC", "off")
    assert shown(PG_URL, "some_schema") == ("off", "some_schema")
    assert shown(f"{PG_URL}?options=-csearch_path%3Dfrom_url") == ("off", "from_url")
    monkeypatch.setenv("QIPAI_PG_SYNC", "on")
    assert shown(PG_URL)[0] == "on"
    monkeypatch.delenv("QIPAI_PG_SYNC")
    assert shown(PG_URL)[0] == server
    monkeypatch.setenv("QIPAI_PG_SYNC", "sometimes")
    with pytest.raises(ValueError, match="QIPAI_PG_SYNC must be one of on, off"):
        dbm.create(PG_URL)
