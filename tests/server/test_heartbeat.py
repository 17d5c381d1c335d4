"""docs/protocol.md, "Heartbeat": a client that signs in with the heartbeat is answered at every
ping, and its socket is closed (4410) once it says nothing for `ws_heartbeat_dead_s` — never
more than 10 s, so a dead network is noticed by the server too. A client without the heartbeat
keeps the old contract (its silence is not death)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect

from qipai.server.settings import Settings
from qipai.server.sockets import SILENT
from tests.server.test_containment import make_client, signup


def test_a_silent_heartbeat_socket_is_closed_and_a_live_one_is_not(tmp_path: Path) -> None:
    with make_client(tmp_path, ws_heartbeat_dead_s=0.6) as client:
        token = signup(client, "alice")
        with client.websocket_connect("/ws") as live:
            live.send_json({"type": "auth", "token": token, "heartbeat": True})
            assert live.receive_json()["type"] == "hello"
            for n in range(6):  # pings more often than the limit: kept, answered each time
                time.sleep(0.2)
                live.send_json({"type": "ping", "client_id": f"p{n}"})
                assert live.receive_json() == {"type": "pong", "client_id": f"p{n}"}
        with client.websocket_connect("/ws") as dead:
            dead.send_json({"type": "auth", "token": token, "heartbeat": True})
            assert dead.receive_json()["type"] == "hello"
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(100):
                    dead.receive_json()  # says nothing: the server gives it up
            assert closed.value.code == SILENT


def test_without_the_heartbeat_silence_is_not_death(tmp_path: Path) -> None:
    with make_client(tmp_path, ws_heartbeat_dead_s=0.3) as client:
        token = signup(client, "alice")
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "auth", "token": token})
            assert ws.receive_json()["type"] == "hello"
            time.sleep(1.0)
            ws.send_json({"type": "ping", "client_id": "still-here"})
            assert ws.receive_json() == {"type": "pong", "client_id": "still-here"}


def test_the_server_notices_a_dead_socket_within_ten_seconds() -> None:
    assert Settings().ws_heartbeat_dead_s <= 10
    with pytest.raises(ValidationError):
        Settings(ws_heartbeat_dead_s=11)
