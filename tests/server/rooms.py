"""A card room with operator authority over a SQLite file or a fresh PostgreSQL schema (the
`room` fixture: import it into a test module)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from qipai.server.app import create_app
from qipai.server.settings import Settings
from qipai.tables.table import Timing
from tests.conftest import require_service
from tests.ledger.conftest import postgres_available

SETTINGS = {"signup_rate": "1000/minute"}


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def room(
    request: pytest.FixtureRequest, tmp_path: Path, room_settings: dict[str, object]
) -> Iterator[tuple[TestClient, str]]:
    """The app over a SQLite file or a fresh PostgreSQL schema; yields (client, backend)."""
    settings = Settings(**{**SETTINGS, **room_settings})  # type: ignore[arg-type]
    if request.param == "postgresql":
        require_service(postgres_available(), "PostgreSQL")
        from tests.cluster.hosts import room_database

        with room_database() as url:
            app = create_app(url, settings=settings, timing=Timing(0.02, 0.1, 1.0))
            with TestClient(app) as client:
                yield client, "postgresql"
        return
    app = create_app(str(tmp_path / "room.db"), settings=settings, timing=Timing(0.02, 0.1, 1.0))
    with TestClient(app) as client:
        yield client, "sqlite"


@pytest.fixture
def room_settings() -> dict[str, object]:
    """More settings of the room (a test module overrides this fixture)."""
    return {}
