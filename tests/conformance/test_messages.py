"""Every WebSocket message of a played round validates against docs/schema/messages.*.json.

A real server (the app, its room, the real ledger) plays a round of the one-folder test game
over two WebSockets; every message the clients receive must validate against
`messages.server.json`, every state's view against the game's view schema, and every message
the clients send against `messages.client.json` (JSON Schemas of messages, checked
in CI to be current, so that the browser and outside clients can rely on them).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from fastapi.testclient import TestClient

from qipai.games import registry
from qipai.tables.deltas import apply

from .harness import SCHEMA_DIR, mounted, validator


def schema(name: str) -> jsonschema.Draft202012Validator:
    document = json.loads((SCHEMA_DIR / f"{name}.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(document)
    return jsonschema.Draft202012Validator(document)


SERVER, CLIENT = schema("messages.server"), schema("messages.client")


def problems(check: jsonschema.Draft202012Validator, message: Any) -> list[str]:
    return [f"{e.message} at {list(e.path)}" for e in check.iter_errors(message)]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    from qipai.server.app import create_app
    from qipai.tables.table import Timing

    with mounted():
        # Countdowns at their real length (5 s): the test's moves come long before they end,
        # so the round waits for them however loaded the machine is.
        app = create_app(str(tmp_path / "room.db"), timing=Timing(0.05, 0.2, 1.0))
        with TestClient(app) as c:
            yield c


class Socket:
    """A WebSocket whose every message in and out is checked against the schemas."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []
        self.version = ""  # the last state's: every action is built from it
        self.held: dict[str, dict[str, Any]] = {}  # table id -> the last state (deltas apply)

    def send(self, message: dict[str, Any]) -> None:
        assert not problems(CLIENT, message), problems(CLIENT, message)
        self.ws.send_json(message)

    def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = self.ws.receive_json()
        found = problems(SERVER, message)
        assert not found, (message.get("type"), found)
        self.seen.append(message)
        if message["type"] == "delta":  # the state it makes is a state of the schema too
            held = self.held[message["table_id"]]
            assert held["seq"] == message["base"]
            message = {**apply(held, message["patch"]), "seq": message["seq"]}
            found = problems(SERVER, message)
            assert not found, ("state made by a delta", found)
        if message["type"] == "state":
            self.held[message["table_id"]] = message
        if message["type"] == "state" and message["round"] is not None:
            view = message["round"]["view"]
            spec = registry.get(view["game"])
            errors = list(validator(spec, "view").iter_errors(view))
            assert not errors, errors[0].message
        if message["type"] == "state":
            self.version = message["version"]
        return message

    def until(self, kind: str, pred: Any = lambda m: True) -> dict[str, Any]:
        for _ in range(400):
            message = self.receive()
            if message["type"] == kind and pred(message):
                return message
        raise AssertionError(f"no {kind} message came")


@pytest.mark.timeout(300)  # a message that never comes fails the test instead of hanging it
def test_a_played_round_speaks_only_the_schema(client: TestClient) -> None:
    tokens = {}
    for name in ("alice", "bob"):
        r = client.post("/api/signup", json={"username": name, "password": "secret-pw"})
        tokens[name] = r.json()["token"]
        headers = {"Authorization": f"Bearer {tokens[name]}"}
        client.post("/api/wallet/deposit", json={"amount": 5000}, headers=headers)
    alice = {"Authorization": f"Bearer {tokens['alice']}"}
    tid = client.post("/api/tables", json={"game": "highcard"}, headers=alice).json()["id"]
    for name in ("alice", "bob"):
        headers = {"Authorization": f"Bearer {tokens[name]}"}
        sat = client.post(f"/api/tables/{tid}/sit", json={"buy_in": 100}, headers=headers)
        assert sat.status_code == 200, sat.text
    with client.websocket_connect("/ws") as raw_a, client.websocket_connect("/ws") as raw_b:
        a, b = Socket(raw_a), Socket(raw_b)
        # bob's client takes deltas (docs/protocol.md, "Deltas"), alice's every state whole
        for sock, name, deltas in ((a, "alice", False), (b, "bob", True)):
            sock.send({"type": "auth", "token": tokens[name], "deltas": deltas})
            assert sock.receive()["type"] == "hello"
        a.send({"type": "ping", "client_id": "p1"})
        assert a.until("pong")["client_id"] == "p1"
        for sock in (a, b):
            sock.send({"type": "subscribe", "table_id": tid})
        a.until("state", lambda m: bool(m["legal"]))
        b.until("state", lambda m: bool(m["legal"]))
        # refusals are messages of the schema too
        a.send({"type": "action", "table_id": tid, "client_id": "x0", "version": a.version,
                "action": {"type": "zz"}})  # fmt: skip
        assert a.until("error")["field"] == "type"
        a.send({"type": "subscribe", "table_id": "no-such-table"})
        assert a.until("error")["code"] == "unknown_table"
        a.send({"type": "action", "table_id": tid, "client_id": "a1", "version": a.version,
                "action": {"type": "ante", "amount": 2}})  # fmt: skip
        assert a.until("ack")["duplicate"] is False
        b.send({"type": "action", "table_id": tid, "client_id": "b1", "version": b.version,
                "action": {"type": "ante", "amount": 3}})  # fmt: skip
        b.until("ack")
        for sock, seat, cid in ((a, "A", "a2"), (b, "B", "b2")):
            sock.until("state", lambda m, seat=seat: m["round"] is not None
                       and m["round"]["awaiting"] == [seat] and bool(m["legal"]))  # fmt: skip
            sock.send({"type": "action", "table_id": tid, "client_id": cid, "version": sock.version,
                       "action": {"type": "keep"}})  # fmt: skip
        done = a.until("state", lambda m: m["result"] is not None)
        assert sorted(done["result"]["nets"].values()) in ([-3, 3], [-2, 2])
        a.send({"type": "unsubscribe", "table_id": tid})
        assert a.until("unsubscribed")["table_id"] == tid
    kinds = {m["type"] for m in a.seen + b.seen}
    assert {"hello", "pong", "state", "delta", "ack", "error", "unsubscribed"} <= kinds
    assert "delta" not in {m["type"] for m in a.seen}


def test_the_client_schema_is_closed() -> None:
    """The misspelt-field class of bug at the message level: the schema names it."""
    for message in (
        {"type": "subscribe", "tabel_id": "t"},
        {"type": "action", "table_id": "t", "action": {"type": "keep"}},  # no client_id
        {"type": "action", "table_id": "t", "client_id": "c", "action": {}},  # no version
        {"type": "action", "table_id": "t", "client_id": "", "action": {}},
        {"type": "ping", "client_id": 5},
        {"type": "dance"},
    ):
        assert problems(CLIENT, message), message
