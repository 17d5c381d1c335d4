"""The server as a real process: one process per SQLite database (a second `qipai serve` on the
same file refuses to start, naming it), SIGTERM stops it promptly with sockets open, and a
socket that never reads is closed instead of growing the server's memory."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidMessage, InvalidStatus
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "browser"))
from roomserver import ROOT, Server, free_port

from qipai.ledger import Ledger


@pytest.mark.slow  # three server starts / a minute of logging: the slow suite (CI runs it)
def test_a_second_server_on_the_same_sqlite_file_refuses_to_start(tmp_path: Path) -> None:
    db = tmp_path / "room.db"
    first = Server(db)
    first.start()
    try:
        port = free_port()
        second = subprocess.run(
            [sys.executable, "-m", "qipai.cli", "serve", "--port", str(port), "--db", str(db)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert second.returncode == 3, second.stdout + second.stderr
        assert "another qipai server" in second.stderr and str(db) in second.stderr
        assert f"process {first.proc.pid}" in second.stderr  # type: ignore[union-attr]
        with socket.socket() as s:  # it never listened
            assert s.connect_ex(("127.0.0.1", port)) != 0
        # the first one still serves
        assert httpx.get(f"{first.url}/api/health", timeout=30).json()["ok"] is True
    finally:
        first.stop()
    # once the first has stopped, the file is free again
    again = Server(db)
    again.start()
    again.stop()


def test_sigterm_stops_the_server_with_sockets_open(tmp_path: Path) -> None:
    """SIGTERM with signed-in sockets open (a round playing at their table): the server closes
    each socket itself with 1001 (uvicorn would answer 1012 and cancel the handlers that are
    still busy at its graceful timeout, a traceback each), exits within 10 s with a quiet log,
    and its ledger passes the audit (every open round journaled)."""
    server = Server(tmp_path / "room.db", env={"QIPAI_SIGNUP_RATE": "100/minute"})
    server.start()
    assert server.proc is not None
    try:
        http = httpx.Client(base_url=server.url, timeout=60)
        tokens = [
            http.post(
                "/api/signup", json={"username": f"player{i}", "password": "secret-pw"}
            ).json()["token"]
            for i in range(4)
        ]
        auth = {"Authorization": f"Bearer {tokens[0]}"}
        http.post("/api/wallet/deposit", json={"amount": 100_000}, headers=auth)
        table = http.post(
            "/api/automatch", json={"game": "pokdeng", "buy_in": 10_000}, headers=auth
        )
        tid = table.json()["table_id"]
        ws_url = server.url.replace("http", "ws") + "/ws"
        sockets = [connect(ws_url) for _ in range(8)]
        for i, ws in enumerate(sockets):
            ws.send(json.dumps({"type": "auth", "token": tokens[i % len(tokens)]}))
            ws.send(json.dumps({"type": "subscribe", "table_id": tid}))
            assert json.loads(ws.recv(timeout=30))["type"] == "hello"
        server.proc.send_signal(signal.SIGTERM)
        started = time.monotonic()
        code = server.proc.wait(timeout=30)
        took = time.monotonic() - started
        closes = []
        for ws in sockets:
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=10)
            closes.append(closed.value.rcvd.code if closed.value.rcvd is not None else None)
            ws.close()
        out = server.output()
        # uvicorn re-raises the signal once it has shut down gracefully: -SIGTERM is the norm
        assert code in (0, -signal.SIGTERM), out
        assert "qipai card room: stopped" in out  # the lifespan's shutdown ran to its end
        assert took < 10, f"SIGTERM took {took:.1f} s"
        assert closes == [1001] * len(sockets), closes  # closed by the app, not uvicorn (1012)
        assert "Traceback" not in out and "graceful shutdown exceeded" not in out, out
        with Ledger.open(str(tmp_path / "room.db")) as ledger:
            assert ledger.audit(replay=False).ok
    finally:
        server.stop()


@pytest.mark.slow
def test_a_socket_that_never_reads_is_dropped(tmp_path: Path) -> None:
    """A client pings without ever reading: the replies fill the kernel buffers, then the
    outbox; the server closes the socket (4408, transport aborted) and keeps serving."""
    server = Server(
        tmp_path / "room.db", {"QIPAI_FRAME_RATE": "100000/second", "QIPAI_SEND_QUEUE": "8"}
    )
    server.start()
    try:
        http = httpx.Client(base_url=server.url, timeout=60)
        token = http.post(
            "/api/signup", json={"username": "alice", "password": "secret-pw"}
        ).json()["token"]
        raw = socket.create_connection(("127.0.0.1", server.port))
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        key = "dGhlIHNhbXBsZSBub25jZQ=="
        raw.sendall(
            (
                "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        assert b" 101 " in raw.recv(4096)

        def frame(text: str) -> bytes:
            data = text.encode()
            mask = b"\x01\x02\x03\x04"
            body = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            if len(data) < 126:
                return bytes([0x81, 0x80 | len(data)]) + mask + body
            return bytes([0x81, 0x80 | 126]) + len(data).to_bytes(2, "big") + mask + body

        raw.sendall(frame(json.dumps({"type": "auth", "token": token})))
        ping = frame(json.dumps({"type": "ping", "client_id": "p" * 64}))
        dropped = False
        raw.settimeout(30)  # the server reads every frame until it drops us: never blocked long
        try:
            for _ in range(20_000):
                raw.sendall(ping * 50)
        except TimeoutError:
            pass
        except OSError:
            dropped = True  # reset by the server
        raw.close()
        assert dropped, "the server kept a never-reading socket"
        for _ in range(100):
            if httpx.get(f"{server.url}/api/health", timeout=30).json()["sockets"] == 0:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("the dropped socket is still counted")
    finally:
        server.stop()


@pytest.mark.slow  # three server starts / a minute of logging: the slow suite (CI runs it)
def test_a_server_that_logs_a_lot_is_never_blocked_by_the_test_helpers_pipe(
    tmp_path: Path,
) -> None:
    """The helper reads the server's output as it comes: more than a pipe holds (64 kB of
    request log lines) and the server still answers (unread, its next log line would block)."""
    server = Server(tmp_path / "room.db", {"QIPAI_LOG_LEVEL": "info"})
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=60) as http:
            while len(server.output()) < 3 * 65_536:  # three pipes' worth
                for _ in range(100):
                    assert http.get("/api/health").status_code == 200
        assert '"event":"request"' in server.output()
        assert '"path":"/api/health","status":200' in server.output()
    finally:
        server.stop()


def test_an_address_over_its_connection_limit_is_dropped_before_the_handshake(
    tmp_path: Path,
) -> None:
    """A client reconnecting in a loop: once its address is over the connection limit, the
    limiter refuses it (403) and its next connections — plain HTTP too — are held unread at
    accept (`gate.GateProtocol`, `gate.Tarpit`), before any request is read, counted as
    `connect_door`, and reset when the address's window (at most 5 s) ends; so a client that
    reconnects at once waits instead of spinning. Other addresses connect meanwhile."""
    server = Server(tmp_path / "room.db", env={"QIPAI_CONNECT_RATE": "3/minute"})
    server.start()
    try:
        ws_url = server.url.replace("http", "ws") + "/ws"

        def attempt() -> str:
            try:
                with connect(ws_url, open_timeout=30):
                    return "open"
            except InvalidStatus as exc:
                return str(exc.response.status_code)
            except (OSError, InvalidMessage, ConnectionClosed):
                return "dropped"

        outcomes = [attempt() for _ in range(5)]
        # the fifth waited, unread, for the door's window (≤ 5 s), then was reset
        assert outcomes == ["open", "open", "open", "403", "dropped"], outcomes
        # the window is over: the limiter looks at one more connection (still over: 403, and
        # the door shuts again); the address's plain HTTP is held and reset as well
        assert attempt() == "403"
        with pytest.raises(httpx.TransportError):
            httpx.get(f"{server.url}/api/health", timeout=30)
        other = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(transport=other, timeout=30) as http:  # another address is let in
            metrics = http.get(f"{server.url}/metrics").text
        assert 'qipai_refused_total{limit="connect_door"} 2.0' in metrics
        with connect(ws_url, open_timeout=10, source_address=("127.0.0.2", 0)):
            pass
        # the second window is over too: plain HTTP (not limited per minute) is served again
        assert httpx.get(f"{server.url}/api/health", timeout=30).status_code == 200
    finally:
        server.stop()
