"""Issue 14: a table a player opened closes once no person has sat at it for the operator's
`empty_table_close_s` (its bots cashed out, its owner's quota freed, the close in the operator
log); a table with a person seated, and the house's tables, stay."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qipai.authority import Authority, AuthoritySettings
from qipai.authority.lobby import EmptyTables
from qipai.server.app import create_app
from qipai.server.settings import Settings
from qipai.tables.table import Timing
from tests.authority.conftest import Clock
from tests.authority.helpers import signup

TTL = 600.0


@pytest.fixture
def room(tmp_path: Path) -> Iterator[tuple[TestClient, Authority]]:
    settings = Settings(  # type: ignore[call-arg]
        signup_rate="1000/minute",
        authority=AuthoritySettings(empty_table_close_s=TTL, max_open_tables=2),
    )
    app = create_app(str(tmp_path / "room.db"), settings=settings, timing=Timing(0.02, 0.1, 1.0))
    with TestClient(app) as client:
        yield client, app.state.authority


def test_empty_player_tables_close_after_the_operators_idle_time(
    room: tuple[TestClient, Authority],
) -> None:
    client, authority = room
    app: Any = client.app
    live, ledger = app.state.room, app.state.ledger
    assert app.state.empty_tables is not None  # the server runs one (with its real clock)
    clock = Clock(0.0)
    sweeper = EmptyTables(authority, live, clock)
    bob = signup(client, "bob", deposit=50_000)
    r = client.post("/api/automatch", json={"game": "pokdeng", "buy_in": 5_000}, headers=bob)
    house = r.json()["table_id"]  # a house table (nobody's): never closed by the sweep
    client.post(f"/api/tables/{house}/leave", headers=bob)
    empty = client.post("/api/tables", json={"game": "pokdeng"}, headers=bob).json()["id"]
    seated = client.post("/api/tables", json={"game": "niuniu"}, headers=bob).json()["id"]
    assert client.post(f"/api/tables/{seated}/sit", json={"buy_in": 5_000}, headers=bob).is_success
    third = client.post("/api/tables", json={"game": "paigow"}, headers=bob)
    assert third.status_code == 429  # two open at once: the quota

    assert sweeper.sweep() == []
    clock.advance(TTL - 1)
    assert sweeper.sweep() == []
    clock.advance(1)
    assert sweeper.sweep() == [empty]
    assert live.tables[empty].status().state == "closed"
    assert live.tables[seated].status().state != "closed"
    assert live.tables[house].status().state != "closed"
    assert empty not in [t["id"] for t in client.get("/api/tables", headers=bob).json()["tables"]]
    # its place in the quota is free again
    again = client.post("/api/tables", json={"game": "paigow"}, headers=bob)
    assert again.status_code == 200, again.text
    (entry,) = authority.log.entries(action="table.close")
    assert entry["actor"] == "system" and entry["target"] == empty
    assert entry["reason"] == "no person sat at it for 600 s"

    # the person leaves: the table is empty from the next sweep on, and closes an idle time
    # later (with the new table, empty since it was opened)
    assert client.post(f"/api/tables/{seated}/leave", headers=bob).is_success
    assert sweeper.sweep() == []
    clock.advance(TTL - 1)
    assert sweeper.sweep() == []
    clock.advance(1)
    assert sorted(sweeper.sweep()) == sorted([seated, again.json()["id"]])
    assert live.tables[seated].status().state == "closed"
    assert ledger.stack("bob", seated) == 0
    assert live.tables[house].status().state != "closed"
    assert ledger.audit(replay=False).ok
