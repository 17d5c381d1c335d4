"""Attacks, replayed through the public HTTP/WebSocket API as a new user would: each is
refused with a typed error and nothing changes — balances, house accounts, pools, tables, audit.

1. a table with `pair_odds` 10^9 (the wallet grew to 200,014,922,500);
2. a Hold'em table with `pool_seed` 10^12 and `pool_percent` 1 (the house went negative);
3. quick start seating a player at a table whose pay table nobody could see;
4. any signed-in user reading any round's players and balances;
5. one account opening 9,446 persistent tables (a 5 MB lobby);
plus the WebSocket quotas (connections, tables watched).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qipai.authority import Authority
from qipai.server.app import create_app
from qipai.server.settings import Settings
from qipai.tables.table import Timing
from tests.authority.helpers import enrol, error, signup

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def room(tmp_path: Path) -> Iterator[tuple[TestClient, Authority]]:
    # the quota of tables open at once is under test here, not the rate of openings
    # (tests/server/test_table_opening_rate.py)
    settings = Settings(signup_rate="1000/minute", table_open_rate="1000/minute")  # type: ignore[call-arg]
    app = create_app(str(tmp_path / "room.db"), settings=settings, timing=Timing(0.02, 0.1, 0.05))
    with TestClient(app) as client:
        yield client, app.state.authority


def books(client: TestClient) -> dict[str, Any]:
    """Everything an attack could have changed."""
    ledger = client.app.state.ledger  # type: ignore[attr-defined]
    room = client.app.state.room  # type: ignore[attr-defined]
    return {
        "balances": ledger.balances(),
        "tables": sorted(room.tables),
        "audit": ledger.audit(replay=False).ok,
    }


SETTINGS_ATTACKS = [
    {"game": "pokdeng", "config": {"pair_odds": 1_000_000_000}},
    {"template": "pokdeng-classic", "config": {"pair_odds": 1_000_000_000}},
    {"template": "pokdeng-classic", "settings": {"pair_odds": 1_000_000_000}},
    {"game": "holdem-bonus", "config": {"pool_seed": 10**12, "pool_percent": {"royal": "1"}}},
    {"template": "holdem-bonus", "config": {"pool_seed": 10**12}},
    {"template": "holdem-bonus", "limits": {"ante": {"min": 1, "max": 10**12}}},
    {"template": "holdem-bonus", "pay_table": {"AA": 1_000_000}},
]


@pytest.mark.parametrize("body", SETTINGS_ATTACKS)
def test_players_cannot_pass_settings(room: tuple[TestClient, Authority], body: Any) -> None:
    client, _ = room
    alice = signup(client, "alice", deposit=10_000)
    before = books(client)
    for path in ("/api/tables", "/api/automatch"):
        sent = {**body, "buy_in": 10_000} if path == "/api/automatch" else body
        r = client.post(path, json=sent, headers=alice)
        assert r.status_code == 400, (path, r.text)
        err = error(r)
        assert err["code"] == "settings_not_allowed", err
        assert err["field"] in body
    assert books(client) == before
    assert before["audit"] is True


def test_players_open_tables_only_of_templates(room: tuple[TestClient, Authority]) -> None:
    client, _ = room
    alice = signup(client, "alice", deposit=10_000)
    before = books(client)
    for body, code in [
        ({}, "invalid_input"),
        ({"game": "pokdeng", "template": "pokdeng-classic"}, "invalid_input"),
        ({"game": "no-such-game"}, "invalid_input"),
        ({"template": "no-such-template"}, "unknown_template"),
        ({"template": 7}, "invalid_input"),
        ({"template": "pokdeng-classic", "private": "yes"}, "invalid_input"),
    ]:
        r = client.post("/api/tables", json=body, headers=alice)
        assert r.status_code in (400, 404, 422), r.text
        assert error(r)["code"] == code, r.text
    assert books(client) == before
    r = client.post("/api/tables", json={"template": "pokdeng-classic"}, headers=alice)
    assert r.status_code == 200, r.text
    table = r.json()
    assert table["terms"]["template"] == {"id": "pokdeng-classic", "version": 1}
    assert table["facts"]["pay_table"] and table["facts"]["template"]["id"] == "pokdeng-classic"


def test_an_operator_template_over_100_percent_is_refused_without_confirmation(
    room: tuple[TestClient, Authority],
) -> None:
    client, authority = room
    from qipai.authority import games

    config = games.parse_config("pokdeng", {"pair_odds": 100})
    if authority.rtp.figures("pokdeng", config, games.config_hash("pokdeng", config)) is None:
        pytest.skip("Pok Deng has no exact-return computation yet (GameSpec.rtp)")
    olga = enrol(client, authority, "olga").headers
    before = books(client)
    r = client.post(
        "/api/ops/templates",
        json={
            "game": "pokdeng",
            "name": "Generous",
            "settings": {"pair_odds": 100},
            "reason": "r",
        },
        headers=olga,
    )
    if r.status_code == 400:  # the config model bounds pair_odds below 100
        assert error(r)["field"].startswith("settings")
    else:
        assert r.status_code == 409 and error(r)["code"] == "rtp_over_100", r.text
    assert "Generous" not in {t["template"]["name"] for t in authority.offer()}
    assert books(client) == before


def test_automatch_shows_the_pay_table_and_returns(room: tuple[TestClient, Authority]) -> None:
    client, _ = room
    alice = signup(client, "alice", deposit=100_000)
    lobby = client.get("/api/tables").json()["tables"]
    assert lobby == [] or all("facts" in t for t in lobby)
    r = client.post("/api/automatch", json={"game": "pokdeng", "buy_in": 10_000}, headers=alice)
    assert r.status_code == 200, r.text
    table = r.json()["table"]
    facts = table["facts"]
    assert facts["template"]["id"] in ("pokdeng-classic", "pokdeng-banker-player")
    assert facts["pay_table"] and facts["min_buy_in"] <= 10_000 <= facts["max_buy_in"]
    assert "rtp" in facts and "rules" in facts
    again = client.get(f"/api/tables/{table['id']}").json()
    assert again["facts"] == facts
    listed = client.get("/api/tables").json()["tables"]
    assert [t["facts"]["config_hash"] for t in listed if t["id"] == table["id"]] == [
        facts["config_hash"]
    ]


def test_rounds_are_private_to_their_players(room: tuple[TestClient, Authority]) -> None:
    client, authority = room
    bob = signup(client, "bob", deposit=100_000)
    alice = signup(client, "alice")
    r = client.post("/api/tables", json={"template": "pokdeng-classic"}, headers=bob)
    table_id = r.json()["id"]
    r = client.post(f"/api/tables/{table_id}/sit", json={"buy_in": 10_000}, headers=bob)
    assert r.status_code == 200, r.text
    token = bob["Authorization"].removeprefix("Bearer ")
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "auth", "token": token})
        ws.send_json({"type": "subscribe", "table_id": table_id})
        round_id, bet = None, False
        for _ in range(2000):
            msg = ws.receive_json()
            if msg.get("type") != "state":
                continue
            if msg.get("round"):
                round_id = msg["round"]["round_id"]
            if msg.get("legal") and not bet:
                bet = True
                ws.send_json(
                    {
                        "type": "action",
                        "table_id": table_id,
                        "client_id": "b1",
                        "version": msg["version"],
                        "action": {"type": "bet", "spot": "P1", "amount": 100},
                    }
                )
            if bet and round_id and msg.get("result") is not None:
                break
        else:
            raise AssertionError("the round never finished")
    assert client.get(f"/api/rounds/{round_id}", headers=bob).status_code == 200
    other = client.get(f"/api/rounds/{round_id}", headers=alice)
    assert other.status_code == 404 and error(other)["code"] == "unknown_round"
    assert client.get(f"/api/rounds/{round_id}").status_code == 401
    olga = enrol(client, authority, "olga").headers
    seen = client.get(f"/api/ops/rounds/{round_id}", headers=olga)
    assert seen.status_code == 200 and seen.json()["round"]["players"]


def test_one_account_cannot_open_unbounded_tables(room: tuple[TestClient, Authority]) -> None:
    client, authority = room
    alice = signup(client, "alice")
    limit = authority.settings.max_open_tables
    opened = []
    for _ in range(limit):
        r = client.post("/api/tables", json={"template": "pokdeng-classic"}, headers=alice)
        assert r.status_code == 200, r.text
        opened.append(r.json()["id"])
    before = books(client)
    for _ in range(20):
        r = client.post(
            "/api/tables", json={"template": "pokdeng-classic", "private": True}, headers=alice
        )
        assert r.status_code == 429 and error(r)["code"] == "quota_exceeded", r.text
    assert books(client) == before
    bob = signup(client, "bob")
    assert client.post("/api/tables", json={"template": "niuniu"}, headers=bob).status_code == 200


def test_private_tables_are_listed_to_their_owner_only(
    room: tuple[TestClient, Authority],
) -> None:
    client, _ = room
    alice, bob = signup(client, "alice"), signup(client, "bob")
    r = client.post(
        "/api/tables", json={"template": "pokdeng-classic", "private": True}, headers=alice
    )
    assert r.status_code == 200, r.text
    table_id = r.json()["id"]
    assert table_id in {t["id"] for t in client.get("/api/tables", headers=alice).json()["tables"]}
    assert table_id not in {
        t["id"] for t in client.get("/api/tables", headers=bob).json()["tables"]
    }
    assert table_id not in {t["id"] for t in client.get("/api/tables").json()["tables"]}


def test_websocket_quotas(room: tuple[TestClient, Authority]) -> None:
    client, authority = room
    alice = signup(client, "alice")
    token = alice["Authorization"].removeprefix("Bearer ")
    tables = [
        client.post("/api/tables", json={"template": t}, headers=signup(client, f"own{n}")).json()[
            "id"
        ]
        for n, t in enumerate(["pokdeng-classic"] * (authority.settings.max_watched + 1))
    ]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "auth", "token": token})
        assert ws.receive_json()["type"] == "hello"
        for table_id in tables[:-1]:
            ws.send_json({"type": "subscribe", "table_id": table_id})
        ws.send_json({"type": "subscribe", "table_id": tables[-1]})
        for _ in range(400):
            msg = ws.receive_json()
            if msg.get("type") == "error":
                assert msg["code"] == "quota_exceeded" and msg["table_id"] == tables[-1], msg
                break
        else:
            raise AssertionError("the subscription over quota was not refused")
    sockets = []
    try:
        for _ in range(authority.settings.max_connections):
            ws = client.websocket_connect("/ws").__enter__()
            sockets.append(ws)
            ws.send_json({"type": "auth", "token": token})
            assert ws.receive_json()["type"] == "hello"
        with client.websocket_connect("/ws") as extra:
            extra.send_json({"type": "auth", "token": token})
            msg = extra.receive_json()
            assert msg["type"] == "error" and msg["code"] == "quota_exceeded", msg
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)
