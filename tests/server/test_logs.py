"""The server's log (qipai/server/logs.py, docs/operators.md#logs): JSON lines with levels for
requests, suspensions, errors and operator-log lines, written by a listener thread (never the
caller's: the event loop and the table threads only put records on a bounded queue), dropped
and counted when the queue is full, and printed by `qipai serve`."""

from __future__ import annotations

import io
import json
import logging
import queue
import sys
import threading
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
from roomserver import Server

from qipai.server.logs import DroppingQueueHandler, ServerLog


class Recording(io.StringIO):
    """A stream that remembers which threads wrote to it."""

    def __init__(self) -> None:
        super().__init__()
        self.writers: set[str] = set()

    def write(self, s: str) -> int:
        self.writers.add(threading.current_thread().name)
        return super().write(s)


def lines(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]


def test_records_become_json_lines_written_by_the_listener_thread() -> None:
    stream = Recording()
    logs = ServerLog("info", stream).start()
    try:
        logger = logging.getLogger("qipai.test")
        assert isinstance(logging.getLogger("qipai").handlers[0], DroppingQueueHandler)
        logger.info("hello %s", "world", extra={"event": "request", "fields": {"status": 200}})
        logger.debug("below the level")
        try:
            raise ValueError("boom")
        except ValueError:
            logger.exception("it failed")
    finally:
        logs.stop()
    first, second = lines(stream)
    assert first["level"] == "info" and first["event"] == "request"
    assert first["msg"] == "hello world" and first["status"] == 200
    assert first["logger"] == "qipai.test" and first["t"].endswith("Z")
    assert second["level"] == "error" and second["event"] == "error"
    assert "ValueError: boom" in second["error"]
    assert threading.current_thread().name not in stream.writers  # off the caller's thread
    assert logging.getLogger("qipai").handlers == []  # given back on stop


def test_a_full_queue_drops_and_counts_without_waiting() -> None:
    handler = DroppingQueueHandler(queue.Queue(2))
    record = logging.LogRecord("qipai.x", logging.INFO, "", 0, "m", None, None)
    for _ in range(5):
        handler.handle(record)  # nobody reads the queue: it never blocks
    assert handler.queue.qsize() == 2 and handler.dropped == 3


def test_requests_suspensions_and_audits_are_logged(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from qipai.server.app import create_app
    from qipai.server.settings import Settings
    from qipai.tables.table import Timing
    from tests.authority.helpers import enrol

    stream = io.StringIO()
    logs = ServerLog("info", stream).start()
    try:
        settings = Settings(signup_rate="1000/minute")  # type: ignore[call-arg]
        app: Any = create_app(
            str(tmp_path / "room.db"), settings=settings, timing=Timing(0.02, 0.1, 1.0)
        )
        with TestClient(app) as client:
            olga = enrol(client, app.state.authority, "olga").headers
            assert client.get("/api/nowhere").status_code == 404
            table = app.state.room.create_table("pokdeng")
            r = client.post(
                f"/api/ops/tables/{table.id}/suspend", json={"reason": "dealer error"}, headers=olga
            )
            assert r.status_code == 200, r.text
    finally:
        logs.stop()
    found = lines(stream)
    requests = [x for x in found if x["event"] == "request"]
    missing = [x for x in requests if x["path"] == "/api/nowhere"]
    assert missing and missing[0]["status"] == 404 and missing[0]["level"] == "warning"
    assert any(x["path"].endswith("/suspend") and x["status"] == 200 for x in requests)
    [stop] = [x for x in found if x["event"] == "table.suspend"]
    assert stop["level"] == "warning" and stop["table_id"] == table.id
    assert stop["reason"] == "dealer error"
    audits = [x for x in found if x["event"] == "audit" and x["action"] == "table.suspend"]
    assert audits and audits[0]["actor"] == "olga" and audits[0]["target"] == table.id


def test_qipai_serve_prints_json_lines(tmp_path: Path) -> None:
    server = Server(tmp_path / "room.db")
    server.start()
    try:
        assert httpx.get(f"{server.url}/api/health", timeout=30).status_code == 200
        assert httpx.get(f"{server.url}/api/nowhere", timeout=30).status_code == 404
    finally:
        server.stop()
    parsed = []
    for line in server.output().splitlines():
        if line.startswith("{"):
            parsed.append(json.loads(line))
    paths = {(x["path"], x["status"], x["level"]) for x in parsed if x["event"] == "request"}
    assert ("/api/health", 200, "info") in paths and ("/api/nowhere", 404, "warning") in paths
