"""Ledger fixtures: every test runs on SQLite and on PostgreSQL (a fresh schema per test).

PostgreSQL is the server this machine starts (127.0.0.1:5432, database `test`, trust auth) or
`QIPAI_TEST_PG_URL`. Without it the PostgreSQL half is skipped with the reason; under CI=true it
fails (`require_service`).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from qipai.ledger import Ledger
from qipai.ledger import db as dbm
from tests.conftest import port_open, require_service

PG_URL = os.environ.get("QIPAI_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")

_pg_ok: bool | None = None


def postgres_available() -> bool:
    global _pg_ok
    if _pg_ok is None:
        _pg_ok = False
        if port_open("127.0.0.1", 5432):
            try:
                engine = create_engine(PG_URL)
                with engine.connect() as conn:
                    conn.execute(text("SELECT 1"))
                engine.dispose()
                _pg_ok = True
            except Exception:
                _pg_ok = False
    return _pg_ok


BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]

LedgerFactory = Callable[[], Ledger]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    if request.param == "postgresql":
        require_service(postgres_available(), f"PostgreSQL ({PG_URL})")
    return str(request.param)


TABLES = (
    "round_players, round_log, rounds, holds, entries, transactions, accounts, users, table_leases"
)


@pytest.fixture(scope="session")
def pg_schema() -> Iterator[str]:
    """One PostgreSQL schema for this test run (migrated once, dropped at the end); each test
    starts from empty tables."""
    require_service(postgres_available(), f"PostgreSQL ({PG_URL})")
    schema = f"qipai_t_{uuid.uuid4().hex[:12]}"
    Ledger.open(PG_URL, schema=schema).close()
    yield schema
    engine = create_engine(PG_URL)
    dbm.drop_schema(engine, schema)
    engine.dispose()


@pytest.fixture
def ledger_factory(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[Callable[[], Ledger]]:
    """Opens (more) Ledger objects on this test's own database: a SQLite file in tmp_path, or
    the run's PostgreSQL schema emptied for this test."""
    opened: list[Ledger] = []
    schema: str | None = None
    if backend == "postgresql":
        schema = request.getfixturevalue("pg_schema")
        engine = dbm.create(PG_URL, schema=schema)
        with engine.begin() as conn:
            conn.execute(text(f"TRUNCATE {TABLES} RESTART IDENTITY CASCADE"))
        engine.dispose()
        url = PG_URL
    else:
        url = str(tmp_path / "ledger.sqlite3")

    def factory() -> Ledger:
        ledger = Ledger.open(url, schema=schema)
        opened.append(ledger)
        return ledger

    yield factory
    for ledger in opened:
        ledger.close()


@pytest.fixture
def ledger(ledger_factory: Callable[[], Ledger]) -> Ledger:
    return ledger_factory()


@pytest.fixture
def funded(ledger: Ledger) -> Ledger:
    """alice and bob with 10,000 each in their wallets and 1,000 each at table t1."""
    for user in ("alice", "bob"):
        ledger.create_user(user)
        ledger.deposit(user, 10_000, "seed")
        ledger.buy_in(user, "t1", 1_000, "seed")
    return ledger
