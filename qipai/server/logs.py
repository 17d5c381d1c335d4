"""The server's log: one JSON object per line on standard output (docs/operators.md#logs).

Every record of the `qipai` loggers and of uvicorn's server logger becomes a line such as

    {"t": "2026-12-03T18:40:00.123Z", "level": "info", "logger": "qipai.http",
     "event": "request", "msg": "GET /api/lobby 200", "method": "GET", "path": "/api/lobby",
     "status": 200, "ms": 3.1}

`event` names what happened — `request` (every HTTP request: method, path without its query,
status, duration), `table.suspend` (a table stopped, with its reason), `error` (a failure, with its
traceback in `error`), `audit` (a line of the operator log: actor, role, action, target, outcome)
— and `log` for anything else; other fields come from the record's `fields` (`extra={"event":
…, "fields": {…}}`). Levels are Python's, lower-cased.

Writing is off the event loop and off the table threads: a handler only puts the record on a
bounded queue (`logging.handlers.QueueHandler`), and one listener thread
(`logging.handlers.QueueListener`) formats and writes it. A full queue drops the record and counts
it (`dropped`), so a slow terminal never stalls play.
"""

from __future__ import annotations

import copy
import json
import logging
import logging.handlers
import queue
import sys
import time
import traceback
from collections.abc import Awaitable, Callable, MutableMapping
from datetime import UTC, datetime
from typing import IO, Any

QUEUE_SIZE = 10_000
"""Records waiting to be written at most; more are dropped (and counted)."""

LOGGERS = ("qipai", "uvicorn")
"""The loggers whose records the server writes (uvicorn's own access log is replaced by
`RequestLog`)."""

_STANDARD = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {
    "message",
    "asctime",
    "taskName",
}


class JsonLines(logging.Formatter):
    """A record as one JSON line (the module docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        at = datetime.fromtimestamp(record.created, UTC)
        line: dict[str, Any] = {
            "t": at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{at.microsecond // 1000:03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": str(
                getattr(record, "event", "")
                or ("error" if record.exc_info or record.exc_text else "log")
            ),
            "msg": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            for key, value in fields.items():
                line.setdefault(str(key), value)
        if record.exc_info:
            line["error"] = "".join(traceback.format_exception(*record.exc_info)).rstrip()
        elif record.exc_text:
            line["error"] = record.exc_text
        return json.dumps(line, ensure_ascii=False, default=str, separators=(",", ":"))


class DroppingQueueHandler(logging.handlers.QueueHandler):
    """Puts records on a bounded queue without waiting; a full queue drops the record."""

    def __init__(self, q: queue.Queue[Any]) -> None:
        super().__init__(q)
        self.dropped = 0

    def prepare(self, record: logging.LogRecord) -> logging.LogRecord:
        """The record as the listener needs it, and safe to pass between threads: its message
        rendered, its traceback as text (not merged into the message, as the stdlib's is)."""
        ready = copy.copy(record)
        ready.msg = record.getMessage()
        ready.args = None
        if record.exc_info:
            ready.exc_text = "".join(traceback.format_exception(*record.exc_info)).rstrip()
            ready.exc_info = None
        return ready

    def enqueue(self, record: logging.LogRecord) -> None:
        try:
            self.queue.put_nowait(record)
        except queue.Full:
            self.dropped += 1


class ServerLog:
    """The running log: its handler on the `LOGGERS` and the listener thread writing lines."""

    def __init__(self, level: str = "info", stream: IO[str] | None = None) -> None:
        self.level = logging.getLevelName(level.upper())
        self.queue: queue.Queue[Any] = queue.Queue(QUEUE_SIZE)
        self.handler = DroppingQueueHandler(self.queue)
        out = logging.StreamHandler(stream if stream is not None else sys.stdout)
        out.setFormatter(JsonLines())
        self.listener = logging.handlers.QueueListener(self.queue, out)
        self._saved: list[tuple[logging.Logger, int, list[logging.Handler], bool]] = []

    @property
    def dropped(self) -> int:
        return self.handler.dropped

    def start(self) -> ServerLog:
        for name in LOGGERS:
            logger = logging.getLogger(name)
            self._saved.append((logger, logger.level, list(logger.handlers), logger.propagate))
            for h in list(logger.handlers):
                logger.removeHandler(h)
            logger.addHandler(self.handler)
            logger.setLevel(self.level)
            logger.propagate = False
        self.listener.start()
        return self

    def stop(self) -> None:
        """Write what is queued, then give the loggers back their handlers."""
        self.listener.stop()
        for logger, level, handlers, propagate in self._saved:
            logger.removeHandler(self.handler)
            for h in handlers:
                logger.addHandler(h)
            logger.setLevel(level)
            logger.propagate = propagate
        self._saved.clear()


Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_requests = logging.getLogger("qipai.http")


class RequestLog:
    """ASGI middleware: one `request` record per HTTP request once its response has started
    (method, path without the query, status, milliseconds); a 5xx is an error, a 4xx a
    warning. WebSockets are not requests here (their refusals are in the metrics)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http" or not _requests.isEnabledFor(logging.INFO):
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        status = 500  # what the client gets if nothing is sent before a failure

        async def sending(message: MutableMapping[str, Any]) -> None:
            nonlocal status
            if message.get("type") == "http.response.start":
                status = int(message.get("status", 500))
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            method, path = str(scope.get("method", "")), str(scope.get("path", ""))
            level = (
                logging.ERROR
                if status >= 500
                else logging.WARNING
                if status >= 400
                else logging.INFO
            )
            _requests.log(
                level,
                "%s %s %d",
                method,
                path,
                status,
                extra={
                    "event": "request",
                    "fields": {
                        "method": method,
                        "path": path,
                        "status": status,
                        "ms": round((time.perf_counter() - began) * 1000, 1),
                    },
                },
            )


__all__ = ["LOGGERS", "QUEUE_SIZE", "DroppingQueueHandler", "JsonLines", "RequestLog", "ServerLog"]
