"""Ledger fixtures: every test runs on SQLite and on PostgreSQL (a fresh schema per run, emptied
for each test).

PostgreSQL is the server this machine starts (127.0.0.1:5432, database `test`, trust auth) or
`QIPAI_TEST_PG_URL`. Without it the PostgreSQL half is skipped with the reason; under CI=true it
fails (`require_service`). As in production, the schema belongs to an owner role that migrates
(`qipai_owner`) and the ledger runs as an application role (`qipai_app`) that cannot UPDATE or
DELETE the append-only tables nor change the schema (`.ci/run` creates both roles; so does
`pg_roles` when they are missing). `pg_database()` gives other tests such a schema too.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from qipai.ledger import Ledger
from qipai.ledger import db as dbm
from tests.conftest import PG_URL, pg_port_open, require_service

OWNER_ROLE = "qipai_owner"
APP_ROLE = "qipai_app"
OWNER_URL = make_url(PG_URL).set(username=OWNER_ROLE, password=None).render_as_string(False)
APP_URL = make_url(PG_URL).set(username=APP_ROLE, password=None).render_as_string(False)

_pg_ok: bool | None = None


def postgres_available() -> bool:
    global _pg_ok
    if _pg_ok is None:
        _pg_ok = False
        if pg_port_open():
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
    "round_players, round_log, round_ends, hold_closures, seed_reveals, rounds, holds, entries,"
    " transactions, accounts, users, table_leases, chain_heads"
)


def ensure_roles() -> None:
    """The owner and application roles (cluster-wide; `.ci/run` makes them too)."""
    engine = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    database = make_url(PG_URL).database
    try:
        with engine.connect() as conn:
            for role in (OWNER_ROLE, APP_ROLE):
                if conn.execute(
                    text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": role}
                ).first():
                    continue
                with contextlib.suppress(DBAPIError):  # created meanwhile by a parallel run
                    conn.execute(text(f"CREATE ROLE {role} LOGIN"))
            with contextlib.suppress(DBAPIError):  # a parallel run granted it at the same moment
                conn.execute(text(f'GRANT CREATE ON DATABASE "{database}" TO {OWNER_ROLE}'))
    finally:
        engine.dispose()


@contextlib.contextmanager
def pg_database(prefix: str = "qipai_t") -> Iterator[tuple[str, str, str]]:
    """A fresh schema owned by the owner role, migrated by it, with the application role granted
    its privileges: yields (app URL, owner URL, schema); dropped afterwards. Open the ledger as
    `Ledger.open(app_url, schema=schema)`."""
    require_service(postgres_available(), f"PostgreSQL ({PG_URL})")
    ensure_roles()
    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_URL)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}" AUTHORIZATION {OWNER_ROLE}'))
    try:
        Ledger.open(OWNER_URL, schema=schema, app_role=APP_ROLE).close()
        yield APP_URL, OWNER_URL, schema
    finally:
        dbm.drop_schema(admin, schema)
        admin.dispose()


@pytest.fixture(scope="session")
def pg_schema() -> Iterator[str]:
    """One PostgreSQL schema for this test run (migrated once, dropped at the end); each test
    starts from empty tables."""
    with pg_database() as (_, _, schema):
        yield schema


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
        engine = dbm.create(OWNER_URL, schema=schema)
        with engine.begin() as conn:
            conn.execute(text(f"TRUNCATE {TABLES} RESTART IDENTITY CASCADE"))
        engine.dispose()
        url = APP_URL
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
