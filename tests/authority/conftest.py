"""Authority fixtures: a migrated database (SQLite file, or a fresh PostgreSQL schema) and a
manual clock."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine

from qipai.authority import Authority
from qipai.ledger import Ledger
from qipai.ledger import db as dbm
from tests.conftest import require_service
from tests.ledger.conftest import PG_URL, postgres_available


class Clock:
    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


BOTH = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
both_backends = pytest.mark.parametrize("ledger", BOTH, indirect=True)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def ledger(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Ledger]:
    """SQLite; a test module that sets `pytestmark = both_backends` runs on PostgreSQL too
    (the triggers, the chain's lock and the migrations are database-specific)."""
    backend = getattr(request, "param", "sqlite")
    if backend == "postgresql":
        require_service(postgres_available(), f"PostgreSQL ({PG_URL})")
        schema = f"qipai_a_{uuid.uuid4().hex[:12]}"
        opened = Ledger.open(PG_URL, schema=schema)
        try:
            yield opened
        finally:
            opened.close()
            engine = create_engine(PG_URL)
            dbm.drop_schema(engine, schema)
            engine.dispose()
    else:
        opened = Ledger.open(str(tmp_path / "auth.sqlite3"))
        try:
            yield opened
        finally:
            opened.close()


@pytest.fixture
def engine(ledger: Ledger) -> Engine:
    return ledger.engine


@pytest.fixture
def authority(engine: Engine, clock: Clock) -> Authority:
    return Authority(engine, clock=clock)
