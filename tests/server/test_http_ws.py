"""The server over HTTP and WebSocket with the toy game: accounts, wallet, lobby, play, typed
errors, duplicates, and that a token acts only for its own player."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import helpers  # registers the toy game
import pytest
from fastapi.testclient import TestClient

from qipai.server.app import create_app
from qipai.tables.table import Timing
from tests.authority.helpers import offer

assert helpers.TOY


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(str(tmp_path / "room.db"), timing=Timing(0.05, 0.2, 0.05))
    with TestClient(app) as c:
        yield c


def signup(client: TestClient, name: str) -> dict[str, str]:
    r = client.post("/api/signup", json={"username": name, "password": "secret-pw"})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def test_accounts_wallet_and_lobby(client: TestClient) -> None:
    alice = signup(client, "alice")
    assert (
        client.post("/api/signup", json={"username": "alice", "password": "other-pw"}).status_code
        == 409
    )
    assert (
        client.post("/api/login", json={"username": "alice", "password": "wrong-pw"}).status_code
        == 401
    )
    assert (
        client.post("/api/login", json={"username": "alice", "password": "secret-pw"}).status_code
        == 200
    )
    assert client.get("/api/me").status_code == 401
    assert client.get("/api/me", headers=alice).json()["wallet"] == 0
    r = client.post("/api/wallet/deposit", json={"amount": 5000}, headers=alice)
    assert r.json()["wallet"] == 5000 and r.json()["status"] == "approved"
    assert client.post("/api/wallet/deposit", json={"amount": -5}, headers=alice).status_code == 422
    games = {g["game"] for g in client.get("/api/games").json()["games"]}
    assert "toy" in games
    t = client.post("/api/tables", json={"game": "toy"}, headers=alice).json()
    assert client.post("/api/tables", json={"game": "nope"}, headers=alice).status_code == 400
    r = client.post(f"/api/tables/{t['id']}/sit", json={"buy_in": 9999}, headers=alice)
    assert r.status_code == 400 and r.json()["error"]["code"] == "insufficient_funds"
    r = client.post(f"/api/tables/{t['id']}/sit", json={"buy_in": 1000}, headers=alice)
    assert r.json()["seat"] == "A" and r.json()["wallet"] == 4000
    assert client.get("/openapi.json").json()["info"]["title"] == "qipai card room"
    assert client.get("/").status_code == 200


LAST_STATE: dict[int, dict[str, Any]] = {}
"""The last state each socket received: the version its next action is built from."""


def version(ws: Any) -> str:
    return str(LAST_STATE[id(ws)]["version"])


def recv_until(ws: Any, pred: Any, limit: int = 400) -> dict[str, Any]:
    for _ in range(limit):
        msg = ws.receive_json()
        if msg.get("type") == "state":
            LAST_STATE[id(ws)] = msg
        if pred(msg):
            return msg  # type: ignore[no-any-return]
    raise AssertionError("message never came")


def test_play_a_round_over_the_websocket(client: TestClient) -> None:
    alice, bob = signup(client, "alice"), signup(client, "bob")
    for h in (alice, bob):
        client.post("/api/wallet/deposit", json={"amount": 5000}, headers=h)
    tid = client.post("/api/tables", json={"game": "toy"}, headers=alice).json()["id"]
    client.post(f"/api/tables/{tid}/sit", json={"buy_in": 100}, headers=alice)
    client.post(f"/api/tables/{tid}/sit", json={"buy_in": 100}, headers=bob)
    token_a = alice["Authorization"].split()[1]
    token_b = bob["Authorization"].split()[1]
    with (
        client.websocket_connect("/ws") as wa,
        client.websocket_connect("/ws") as wb,
    ):
        wa.send_json({"type": "auth", "token": token_a})
        wb.send_json({"type": "auth", "token": token_b})
        assert wa.receive_json()["type"] == "hello"
        assert wb.receive_json()["type"] == "hello"
        wa.send_json({"type": "subscribe", "table_id": tid})
        wb.send_json({"type": "subscribe", "table_id": tid})
        st = recv_until(wa, lambda m: m["type"] == "state" and m["legal"])
        assert st["you"]["seat"] == "A"
        assert st["round"]["view"]["cards"]["B"] is None
        # invalid messages: typed errors, nothing changes
        for bad in [
            "nonsense",
            json.dumps([1]),
            json.dumps({"type": "dance"}),
            json.dumps({"type": "action", "table_id": tid, "client_id": "z", "action": 5}),
            json.dumps({"type": "action", "table_id": tid, "action": {"type": "bet"}}),
            json.dumps({"type": "action", "table_id": "nope", "client_id": "q", "action": {}}),
        ]:
            wa.send_text(bad)
            err = recv_until(wa, lambda m: m["type"] == "error")
            assert err["code"] in {"invalid_message", "unknown_table"}
        # docs/protocol.md "State versions": an action without the version of the state it was
        # built from, or with a malformed one, is refused naming the field; nothing is taken
        # (the same client_id is a new action below)
        bet5 = {"type": "action", "table_id": tid, "client_id": "a1"}
        for bad_version in (None, 7, "", "not-a-version", st["version"] + "0"):
            frame = {**bet5, "action": {"type": "bet", "amount": 5}}
            if bad_version is not None:
                frame["version"] = bad_version
            wa.send_json(frame)
            err = recv_until(wa, lambda m: m["type"] == "error")
            assert err["code"] == "invalid_message" and err["field"] == "version", err
            assert err["client_id"] == "a1"
        wa.send_json(
            {
                "type": "action",
                "table_id": tid,
                "client_id": "a1",
                "version": st["version"],
                "action": {"type": "bet", "amount": 5},
            }
        )
        ack = recv_until(wa, lambda m: m["type"] in ("ack", "error"))
        assert ack == {"type": "ack", "client_id": "a1", "duplicate": False, "table_id": tid}
        wa.send_json(
            {
                "type": "action",
                "table_id": tid,
                "client_id": "a1",
                "version": st["version"],
                "action": {"type": "bet", "amount": 5},
            }
        )
        assert recv_until(wa, lambda m: m["type"] == "ack")["duplicate"] is True
        # alice's token can only ever act as seat A: betting again is refused for A, not B
        wa.send_json(
            {
                "type": "action",
                "table_id": tid,
                "client_id": "a2",
                "version": version(wa),
                "action": {"type": "bet", "amount": 3},
            }
        )
        assert recv_until(wa, lambda m: m["type"] in ("ack", "error"))["code"] == "illegal_action"
        recv_until(wb, lambda m: m["type"] == "state" and m["legal"])
        wb.send_json(
            {
                "type": "action",
                "table_id": tid,
                "client_id": "b1",
                "version": version(wb),
                "action": {"type": "bet", "amount": 2},
            }
        )
        # the swap phase: each stands when it is their turn, or the countdown does it
        done = recv_until(
            wa,
            lambda m: (
                m["type"] == "state"
                and m["result"] is not None
                and m["round"]
                and m["round"]["finished"]
            ),
        )
        nets = done["result"]["nets"]
        assert sorted(nets.values()) in ([-5, 5], [-2, 2])
        assert done["fairness"]["revealed"][-1]["seed"] is not None
        finished_id = done["round"]["round_id"]
    # The next round may already be open (newest first in the history): look up the one played.
    hist = client.get("/api/history", headers=alice).json()["rounds"]
    played = [h for h in hist if h["round_id"] == finished_id]
    assert played and played[0]["seat"] == "A" and played[0]["status"] == "settled"
    assert played[0]["view"]["cards"]["B"] is not None  # at the end every card is shown
    detail = client.get(f"/api/rounds/{finished_id}", headers=bob).json()
    assert detail["seed"] is not None and detail["seat"] == "B"
    time.sleep(0.01)


def test_websocket_requires_a_session(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "auth", "token": "bad"})
        ws.receive_json()


def test_reconnecting_client_gets_its_private_view_back(client: TestClient) -> None:
    alice, bob = signup(client, "alice"), signup(client, "bob")
    for h in (alice, bob):
        client.post("/api/wallet/deposit", json={"amount": 5000}, headers=h)
    tid = client.post(
        "/api/tables", json={"template": offer(client, "toy", {"bet_s": 600})}, headers=alice
    ).json()["id"]
    client.post(f"/api/tables/{tid}/sit", json={"buy_in": 100}, headers=alice)
    client.post(f"/api/tables/{tid}/sit", json={"buy_in": 100}, headers=bob)
    token_a = alice["Authorization"].split()[1]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "auth", "token": token_a})
        ws.send_json({"type": "subscribe", "table_id": tid})
        first = recv_until(ws, lambda m: m["type"] == "state" and m["legal"])
        ws.send_json(
            {
                "type": "action",
                "table_id": tid,
                "client_id": "r1",
                "version": first["version"],
                "action": {"type": "bet", "amount": 4},
            }
        )
        recv_until(ws, lambda m: m["type"] == "ack")
    # the connection dropped; a new one subscribes and gets the same private state back
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "auth", "token": token_a})
        ws.send_json({"type": "subscribe", "table_id": tid})
        back = recv_until(ws, lambda m: m["type"] == "state" and m["round"] is not None)
    assert back["round"]["round_id"] == first["round"]["round_id"]
    assert back["round"]["view"]["cards"]["A"] == first["round"]["view"]["cards"]["A"]
    assert back["round"]["view"]["cards"]["B"] is None
    assert back["round"]["view"]["bets"] == {"A": 4}
    assert 0 < back["round"]["time_left"] <= 600 * 0.05
    assert back["legal"] == []  # already bet: waiting for bob
    assert {s["seat"]: s["stack"] for s in back["table"]["seats"] if s["occupied"]} == {
        "A": 100,
        "B": 100,
    }
