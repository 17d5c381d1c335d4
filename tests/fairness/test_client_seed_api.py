"""Client seeds over the API (docs/fairness.md#keys, docs/protocol.md): sent when sitting down
or automatching, changed with `POST /api/tables/{id}/client_seed`, refused with a typed error
when bad, not seated or turned off by the operator's template (`options.client_seeds`), and
recorded with the round its unit deals (`GET /api/rounds/{id}` → `client_seeds`)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qipai.authority import Authority
from qipai.authority.oplog import SYSTEM
from qipai.server.app import create_app
from qipai.tables.table import Timing


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(str(tmp_path / "room.db"), timing=Timing(0.01, 0.1, 0.05))
    with TestClient(app) as c:
        yield c


def _signup(client: TestClient, name: str) -> dict[str, str]:
    r = client.post("/api/signup", json={"username": name, "password": "secret-pw"})
    headers = {"Authorization": f"Bearer {r.json()['token']}"}
    client.post("/api/wallet/deposit", json={"amount": 100_000}, headers=headers)
    return headers


def _template(client: TestClient, **options: Any) -> str:
    authority: Authority = client.app.state.authority  # type: ignore[attr-defined]
    made = authority.templates.create(
        {"game": "pokdeng", "name": f"pokdeng {options}", "settings": {}, "options": options},
        SYSTEM,
    )
    return made.id


def _table(client: TestClient, headers: dict[str, str], template: str) -> str:
    r = client.post("/api/tables", json={"template": template}, headers=headers)
    assert r.is_success, r.text
    return str(r.json()["id"])


def test_client_seeds_over_the_api_enter_the_deal_and_the_record(client: TestClient) -> None:
    alice, bob = _signup(client, "alice"), _signup(client, "bob")
    tid = _table(client, alice, _template(client))
    bad = client.post(
        f"/api/tables/{tid}/sit", json={"buy_in": 20_000, "client_seed": "two words"}, headers=alice
    )
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_input"
    assert "printable ASCII" in bad.json()["error"]["message"]
    room = client.app.state.room  # type: ignore[attr-defined]
    assert room.tables[tid].seating.seat_of("alice") is None  # refused: nothing changed
    r = client.post(f"/api/tables/{tid}/client_seed", json={"client_seed": "x"}, headers=bob)
    assert r.status_code == 400 and r.json()["error"]["code"] == "not_seated"
    sat = client.post(
        f"/api/tables/{tid}/sit", json={"buy_in": 20_000, "client_seed": "first"}, headers=alice
    )
    assert sat.is_success, sat.text
    seat = sat.json()["seat"]
    r = client.post(f"/api/tables/{tid}/client_seed", json={"client_seed": "é"}, headers=alice)
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_input"
    r = client.post(
        f"/api/tables/{tid}/client_seed", json={"client_seed": "alice-7"}, headers=alice
    )
    room_table = client.app.state.room.tables[tid]  # type: ignore[attr-defined]
    assert r.is_success and r.json() == {
        "table_id": tid,
        "client_seed": "alice-7",
        "applies": "next deal unit",
        "commitment": room_table.units.next_commitment,  # the commitment the seed will meet
    }
    # the first round (a new unit) is keyed with it; the state shows the unit's client seeds
    deadline = time.monotonic() + 60
    with client.websocket_connect("/ws") as ws:
        token = alice["Authorization"].split()[1]
        ws.send_json({"type": "auth", "token": token})
        ws.send_json({"type": "subscribe", "table_id": tid})
        while time.monotonic() < deadline:
            msg = json.loads(ws.receive_text())
            if msg["type"] == "state" and msg["round"]:
                break
        else:
            raise AssertionError("no round started")
    assert msg["fairness"]["client_seeds"] == {seat: "alice-7"}
    assert msg["fairness"]["client_seeds_enabled"] is True
    rid = msg["round"]["round_id"]
    detail = client.get(f"/api/rounds/{rid}", headers=alice).json()
    assert detail["client_seeds"] == {seat: "alice-7"} and detail["deal_spec"] == "deal-spec/1"
    assert detail["seed"] is None  # the shoe goes on: its seed stays secret


def test_automatch_takes_the_client_seed(client: TestClient) -> None:
    alice = _signup(client, "alice")
    r = client.post(
        "/api/automatch",
        json={"game": "pokdeng", "buy_in": 20_000, "client_seed": "x" * 65},
        headers=alice,
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_input"
    room = client.app.state.room  # type: ignore[attr-defined]
    assert not [t for t in room.tables.values() if t.seating.seat_of("alice")]  # nothing changed
    r = client.post(
        "/api/automatch",
        json={"game": "pokdeng", "buy_in": 20_000, "client_seed": "auto-1"},
        headers=alice,
    )
    assert r.is_success, r.text
    assert room.tables[r.json()["table_id"]].client_seed_of["alice"] == "auto-1"


def test_a_template_turns_client_seeds_off_and_sets_the_idle_time(client: TestClient) -> None:
    alice = _signup(client, "alice")
    tid = _table(client, alice, _template(client, client_seeds=False))
    wallet = client.get("/api/me", headers=alice).json()["wallet"]
    refused = client.post(
        f"/api/tables/{tid}/sit", json={"buy_in": 20_000, "client_seed": "mine"}, headers=alice
    )  # docs/fairness.md: refused with a clear error, never silently dropped
    assert refused.status_code == 400, refused.text
    err = refused.json()["error"]
    assert (err["code"], err["field"]) == ("client_seeds_off", "client_seed")
    room = client.app.state.room  # type: ignore[attr-defined]
    assert room.tables[tid].seating.seat_of("alice") is None
    assert client.get("/api/me", headers=alice).json()["wallet"] == wallet
    sat = client.post(f"/api/tables/{tid}/sit", json={"buy_in": 20_000}, headers=alice)
    assert sat.is_success
    assert room.tables[tid].client_seed_of == {}
    r = client.post(f"/api/tables/{tid}/client_seed", json={"client_seed": "x"}, headers=alice)
    assert r.status_code == 400 and r.json()["error"]["code"] == "client_seeds_off"
    assert room.tables[tid].terms.client_seeds is False
    assert room.tables[tid].terms.idle_reveal_s == 600.0
    # the template also sets the idle time after which an abandoned unit is revealed
    tid = _table(client, alice, _template(client, idle_reveal_s=30))
    assert room.tables[tid].terms.idle_reveal_s == 30.0
    authority: Authority = client.app.state.authority  # type: ignore[attr-defined]
    with pytest.raises(Exception, match="idle_reveal_s"):
        authority.templates.create(
            {"game": "pokdeng", "name": "bad", "settings": {}, "options": {"idle_reveal_s": 1}},
            SYSTEM,
        )


def test_automatch_opening_a_table_keeps_the_seed_out_of_its_first_unit(
    client: TestClient,
) -> None:
    """docs/fairness.md, "Which commitment a seed meets": the first commitment of a table that
    automatch opens for the player is drawn after their seed came and was never shown to them
    (the server could have drawn it knowing the seed): the seed skips that unit and enters the
    next, whose commitment the room shows while the first unit runs."""
    alice = _signup(client, "alice")
    r = client.post(
        "/api/automatch",
        json={"game": "niuniu", "buy_in": 20_000, "client_seed": "auto-1"},
        headers=alice,
    )
    assert r.is_success, r.text
    tid, seat = r.json()["table_id"], r.json()["seat"]
    note = r.json()["client_seed"]
    assert note["client_seed"] == "auto-1" and note["in_unit"] is False
    # named exactly: the unit it skips (not begun yet) or, once that began, the one it enters
    assert (note["after_commitment"] is None) != (note["commitment"] is None)
    units = client.app.state.room.tables[tid].units  # type: ignore[attr-defined]
    with client.websocket_connect("/ws") as ws:  # connected: the player is at the table
        ws.send_json({"type": "auth", "token": alice["Authorization"].split()[1]})
        ws.send_json({"type": "subscribe", "table_id": tid})
        you = ws.receive_json()
        while you["type"] != "state":
            you = ws.receive_json()
        # the room tells it too
        told, fair = you["you"]["client_seed"], you["fairness"]
        assert told["client_seed"] == "auto-1"
        assert told["after_commitment"] == fair["next_commitment"] or (
            told["commitment"]
            == (fair["current"]["commitment"] if told["in_unit"] else fair["next_commitment"])
        )
        deadline = time.monotonic() + 120
        while len(units.reveals) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    first, second = units.reveals[0], units.reveals[1]
    assert first.client_seeds == {}  # the table's first unit: dealt without the seed
    assert second.client_seeds == {seat: "auto-1"}  # the next unit: with it
    assert note["after_commitment"] in (None, first.commitment)
    assert note["commitment"] in (None, second.commitment)
