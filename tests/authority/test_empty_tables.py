"""A table closes once no person has sat at it for the operator's `empty_table_close_s` (its bots
cashed out, its owner's quota freed, the close in the operator log) — a player's table and a house
table automatch opened alike, so tables of bots alone do not pile up in the lobby; a table with a
person seated stays."""

from __future__ import annotations

import json
import time
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
        authority=AuthoritySettings(
            empty_table_close_s=TTL, house_table_close_s=TTL, max_open_tables=2
        ),
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
    house = r.json()["table_id"]  # a house table (nobody's): closed like any other once empty
    client.post(f"/api/tables/{house}/leave", headers=bob)
    deadline = time.monotonic() + 180  # a leave in a running round takes effect at its end
    while live.tables[house].seating.humans() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not live.tables[house].seating.humans()
    empty = client.post("/api/tables", json={"game": "pokdeng"}, headers=bob).json()["id"]
    seated = client.post("/api/tables", json={"game": "niuniu"}, headers=bob).json()["id"]
    assert client.post(f"/api/tables/{seated}/sit", json={"buy_in": 5_000}, headers=bob).is_success
    third = client.post("/api/tables", json={"game": "paigow"}, headers=bob)
    assert third.status_code == 429  # two open at once: the quota

    assert sweeper.sweep() == []
    clock.advance(TTL - 1)
    assert sweeper.sweep() == []
    clock.advance(1)
    assert sorted(sweeper.sweep()) == sorted([empty, house])
    assert empty not in live.tables  # closed, then forgotten by the room
    assert house not in live.tables  # bots alone: closed too
    assert live.tables[seated].status().state != "closed"
    assert empty not in [t["id"] for t in client.get("/api/tables", headers=bob).json()["tables"]]
    # its place in the quota is free again
    again = client.post("/api/tables", json={"game": "paigow"}, headers=bob)
    assert again.status_code == 200, again.text
    entries = authority.log.entries(action="table.close")
    assert sorted(e["target"] for e in entries) == sorted([empty, house])
    assert all(e["actor"] == "system" for e in entries)
    assert all(e["reason"] == "no person sat at it for 600 s" for e in entries)

    # the person leaves: the table is empty from the next sweep on, and closes an idle time
    # later (with the new table, empty since it was opened)
    assert client.post(f"/api/tables/{seated}/leave", headers=bob).is_success
    assert sweeper.sweep() == []
    clock.advance(TTL - 1)
    assert sweeper.sweep() == []
    clock.advance(1)
    assert sorted(sweeper.sweep()) == sorted([seated, again.json()["id"]])
    assert seated not in live.tables
    assert ledger.stack("bob", seated) == 0
    assert ledger.audit(replay=False).ok


def test_closed_tables_leave_the_room_and_free_its_cap(tmp_path: Path) -> None:
    """A closed table is removed from the room once closed: it no longer counts toward the
    room's `max_tables`, and a socket that watched it got its last state (closed) first."""
    settings = Settings(  # type: ignore[call-arg]
        signup_rate="1000/minute",
        authority=AuthoritySettings(empty_table_close_s=TTL, max_open_tables=5, max_tables=2),
    )
    app: Any = create_app(
        str(tmp_path / "room.db"), settings=settings, timing=Timing(0.02, 0.1, 1.0)
    )
    with TestClient(app) as client:
        live, authority = app.state.room, app.state.authority
        clock = Clock(0.0)
        sweeper = EmptyTables(authority, live, clock)
        bob = signup(client, "bob", deposit=50_000)
        first = client.post("/api/tables", json={"game": "pokdeng"}, headers=bob).json()["id"]
        second = client.post("/api/tables", json={"game": "niuniu"}, headers=bob).json()["id"]
        full = client.post("/api/tables", json={"game": "paigow"}, headers=bob)
        assert full.status_code == 429, full.text  # the room's cap (2), not bob's quota (5)
        token = bob["Authorization"].removeprefix("Bearer ")
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "auth", "token": token})
            assert ws.receive_json()["type"] == "hello"
            ws.send_json({"type": "subscribe", "table_id": first})
            assert ws.receive_json()["type"] == "state"
            sweeper.sweep()
            clock.advance(TTL)
            assert sorted(sweeper.sweep()) == sorted([first, second])
            last = ws.receive_json()
            assert last["type"] == "state" and last["table_id"] == first, last
            assert "closed" in json.dumps(last), last
        assert first not in live.tables and second not in live.tables
        assert client.get(f"/api/tables/{first}").status_code == 404
        again = client.post("/api/tables", json={"game": "paigow"}, headers=bob)
        assert again.status_code == 200, again.text
        assert app.state.ledger.audit(replay=False).ok


def test_house_tables_of_bots_alone_close_after_the_shorter_setting(tmp_path: Path) -> None:
    """A house table automatch opened closes `house_table_close_s` after its last person left;
    a player's own empty table waits for `empty_table_close_s`."""
    settings = Settings(  # type: ignore[call-arg]
        signup_rate="1000/minute",
        authority=AuthoritySettings(empty_table_close_s=TTL, house_table_close_s=30.0),
    )
    app: Any = create_app(
        str(tmp_path / "room.db"), settings=settings, timing=Timing(0.02, 0.1, 1.0)
    )
    with TestClient(app) as client:
        live, authority = app.state.room, app.state.authority
        clock = Clock(0.0)
        sweeper = EmptyTables(authority, live, clock)
        bob = signup(client, "bob", deposit=50_000)
        r = client.post("/api/automatch", json={"game": "pokdeng", "buy_in": 5_000}, headers=bob)
        house = r.json()["table_id"]
        client.post(f"/api/tables/{house}/leave", headers=bob)
        deadline = time.monotonic() + 180  # a leave in a running round takes effect at its end
        while live.tables[house].seating.humans() and time.monotonic() < deadline:
            time.sleep(0.1)
        own = client.post("/api/tables", json={"game": "pokdeng"}, headers=bob).json()["id"]
        assert sweeper.sweep() == []
        clock.advance(29)
        assert sweeper.sweep() == []
        clock.advance(1)
        assert sweeper.sweep() == [house]
        assert house not in live.tables and own in live.tables
        [entry] = authority.log.entries(action="table.close")
        assert entry["reason"] == "no person sat at it for 30 s"
        clock.advance(TTL - 30)
        assert sweeper.sweep() == [own]
        assert app.state.ledger.audit(replay=False).ok
