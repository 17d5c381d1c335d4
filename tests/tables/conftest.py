from __future__ import annotations

import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tests.conftest import PG_URL, pg_port_open, require_service


def postgres_available() -> bool:
    if not pg_port_open():
        return False
    try:
        from sqlalchemy import create_engine, text

        engine = create_engine(PG_URL)
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        engine.dispose()
        return True
    except Exception:
        return False


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str | None]]:
    """(url, schema) of a fresh ledger database: a SQLite file, or a PostgreSQL schema of its
    own (dropped afterwards) so that parallel runs never meet."""
    if request.param == "sqlite":
        yield str(tmp_path / "ledger.db"), None
        return
    require_service(postgres_available(), f"PostgreSQL ({PG_URL})")
    from sqlalchemy import create_engine

    from qipai.ledger import db as dbm

    schema = f"qipai_tables_{uuid.uuid4().hex[:12]}"
    yield PG_URL, schema
    engine = create_engine(PG_URL)
    dbm.drop_schema(engine, schema)
    engine.dispose()
