"""The card room's account tables come from Alembic (the `room` branch), match the server's
metadata on both databases, migrate both ways, and adopt a database made by the old
`create_all` (case-duplicate usernames included)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Column, Float, MetaData, String, Table, create_engine, insert, inspect

from qipai.ledger import Ledger
from qipai.ledger import db as dbm
from qipai.server.store import RoomStore, metadata, room_users
from tests.conftest import require_service
from tests.ledger.conftest import PG_URL, postgres_available


def _room_tables(name: str | None, type_: str, _parent: object) -> bool:
    return type_ != "table" or (name or "").startswith("room_")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def ledger(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Ledger]:
    if request.param == "postgresql":
        require_service(postgres_available(), f"PostgreSQL ({PG_URL})")
        schema = f"qipai_room_{uuid.uuid4().hex[:12]}"
        opened = Ledger.open(PG_URL, schema=schema)
        yield opened
        opened.close()
        dbm.drop_schema(create_engine(PG_URL), schema)
    else:
        opened = Ledger.open(str(tmp_path / "room.sqlite3"))
        yield opened
        opened.close()


def test_migrated_room_tables_match_the_metadata(ledger: Ledger) -> None:
    with ledger.engine.connect() as conn:
        context = MigrationContext.configure(
            conn, opts={"compare_type": True, "include_name": _room_tables}
        )
        diff = compare_metadata(context, metadata)
        heads = set(context.get_current_heads())
    assert diff == []
    assert "room_0002" in heads and heads == dbm.head_revisions()


def test_room_branch_down_and_up_again(ledger: Ledger) -> None:
    store = RoomStore(ledger.engine)
    store.create_user("alice", "a-long-pass")
    with ledger.engine.begin() as conn:
        command.downgrade(dbm.alembic_config(conn), "room@base")
    names = set(inspect(ledger.engine).get_table_names())
    assert not {n for n in names if n.startswith("room_")}
    assert {"accounts", "entries"} <= names  # the ledger's branch is untouched
    dbm.migrate(ledger.engine)
    store.create_user("bob", "b-long-pass")
    assert store.credentials("BOB") is not None and store.credentials("alice") is None


def test_an_old_create_all_database_is_adopted(tmp_path: Path) -> None:
    """A database of an older install: the ledger at 0001 and the room tables made by
    `create_all` (no username_key, sessions without idle time) outside Alembic."""
    path = tmp_path / "old.sqlite3"
    engine = dbm.create(f"sqlite:///{path}")
    dbm.migrate(engine, "0001")  # the ledger's branch only
    old = MetaData()
    users = Table(
        "room_users",
        old,
        Column("username", String(32), primary_key=True),
        Column("salt", String(64), nullable=False),
        Column("pw_hash", String(128), nullable=False),
        Column("created_at", Float, nullable=False),
    )
    Table(
        "room_sessions",
        old,
        Column("token_hash", String(64), primary_key=True),
        Column("username", String(32), nullable=False, index=True),
        Column("expires_at", Float, nullable=False),
    )
    Table(
        "room_tables",
        old,
        Column("id", String(32), primary_key=True),
        Column("data", String, nullable=False),
        Column("updated_at", Float, nullable=False),
    )
    old.create_all(engine)
    with engine.begin() as conn:
        conn.execute(
            insert(users),
            [
                {"username": "Good_Name1", "salt": "00", "pw_hash": "x", "created_at": 1.0},
                {"username": "good_name1", "salt": "00", "pw_hash": "y", "created_at": 2.0},
            ],
        )
    engine.dispose()
    ledger = Ledger.open(str(path))
    try:
        with ledger.engine.connect() as conn:
            keys = dict(
                conn.execute(
                    room_users.select().with_only_columns(
                        room_users.c.username, room_users.c.username_key
                    )
                ).all()
            )
        assert keys == {"Good_Name1": "good_name1", "good_name1": "good_name1#good_name1"}
        found = RoomStore(ledger.engine).credentials("GOOD_NAME1")
        assert found is not None and found.username == "Good_Name1"
    finally:
        ledger.close()
