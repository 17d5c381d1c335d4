"""The lobby from any process: HTTP requests about another host's table go to that host.

An ASGI middleware in front of the app (only when the room routes over Redis):

* `/api/tables/{id}` and everything under it (and an operator's `/api/ops/tables/{id}/…` and
  `POST /api/ops/rounds/{id}/void`), for a table another host owns: the request is
  sent to the owner's own address (the host directory's `http`) and its answer returned as is
  (the owner authenticates it: the same database holds every session);
* `GET /api/tables`: every live host's tables, merged;
* `POST /api/tables`, `POST /api/automatch`: placed on the live host with the fewest seats
  taken (this one when it is the least loaded);
* everything else (accounts, the wallet, history, operators) is answered here: it lives in
  the shared database.

A forwarded request carries `x-qipai-forwarded: 1` and is never forwarded again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import httpx

from qipai.cluster.node import Node

log = logging.getLogger("qipai.cluster.proxy")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

FORWARDED = b"x-qipai-forwarded"
_TABLE = re.compile(r"^/api(?:/ops)?/tables/([0-9A-Za-z_-]{1,64})(/.*)?$")
_VOID = re.compile(r"^/api/ops/rounds/([0-9A-Za-z_.@-]{1,64})/void$")
_HOP = {"host", "content-length", "connection", "transfer-encoding", "keep-alive", "upgrade"}


class ClusterProxy:
    def __init__(self, app: ASGIApp, node: Node, *, max_body: int, timeout_s: float) -> None:
        self.app = app
        self.node = node
        self.max_body = max_body
        self.client = httpx.AsyncClient(timeout=timeout_s)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.node.routes:
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        if headers.get(FORWARDED) == b"1":
            await self.app(scope, receive, send)
            return
        path, method = scope["path"], scope["method"]
        target: str | None = None
        if (m := _TABLE.match(path)) is not None:
            owner = await self.node.owner_of(m.group(1))
            target = None if owner is None else self.node.address_of(owner)
            if owner is not None and target is None:  # an owner this process has not heard of
                await self.node.refresh_directory()
                target = self.node.address_of(owner)
        elif method == "POST" and (m := _VOID.match(path)) is not None:
            # an operator's void of a round at another host's table: that host ends it
            table_id = await asyncio.to_thread(self.node.table_of_round, m.group(1))
            owner = None if table_id is None else await self.node.owner_of(table_id)
            target = None if owner is None else self.node.address_of(owner)
        elif path == "/api/tables" and method == "GET":
            await self._gather(scope, receive, send)
            return
        elif (path, method) in (("/api/tables", "POST"), ("/api/automatch", "POST")):
            host = self.node.least_loaded()
            if host != self.node.host_id:
                target = self.node.address_of(host)
        if target is None:
            await self.app(scope, receive, send)
            return
        body = await self._body(receive)
        if body is None:
            await _answer(send, 413, {"error": {"code": "too_large", "message": "body too large"}})
            return
        await self._forward(scope, send, target, body)

    async def _body(self, receive: Receive) -> bytes | None:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return None
            chunks.append(chunk)
            if not message.get("more_body"):
                return b"".join(chunks)

    def _headers(self, scope: Scope) -> list[tuple[str, str]]:
        out = [
            (k.decode("latin-1"), v.decode("latin-1"))
            for k, v in scope.get("headers") or []
            if k.decode("latin-1").lower() not in _HOP
        ]
        out.append((FORWARDED.decode(), "1"))
        return out

    async def _forward(self, scope: Scope, send: Send, target: str, body: bytes) -> None:
        query = scope.get("query_string", b"").decode("latin-1")
        url = target.rstrip("/") + scope["path"] + (f"?{query}" if query else "")
        try:
            reply = await self.client.request(
                scope["method"], url, content=body, headers=self._headers(scope)
            )
        except httpx.HTTPError as exc:
            log.warning("forwarding %s to %s failed: %s", scope["path"], target, exc)
            await _answer(
                send,
                503,
                {
                    "error": {
                        "code": "table_unavailable",
                        "message": "the table's server does not answer; try again",
                    }
                },
            )
            return
        headers = [
            (k.encode("latin-1"), v.encode("latin-1"))
            for k, v in reply.headers.items()
            if k.lower() not in _HOP and k.lower() != "content-encoding"
        ]
        content = reply.content
        headers.append((b"content-length", str(len(content)).encode()))
        await send({"type": "http.response.start", "status": reply.status_code, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    async def _gather(self, scope: Scope, receive: Receive, send: Send) -> None:
        """GET /api/tables over every live host (this one answered in-process)."""
        local = await _run_local(self.app, scope, receive)
        status, payload = local
        if status != 200 or not isinstance(payload, dict):
            await _answer(send, status, payload)
            return
        tables = list(payload.get("tables") or [])
        seen = {t.get("table_id") for t in tables if isinstance(t, dict)}
        others = [
            address
            for host in self.node.directory
            if host != self.node.host_id and (address := self.node.address_of(host)) is not None
        ]
        query = scope.get("query_string", b"").decode("latin-1")

        async def fetch(address: str) -> list[Any]:
            url = address.rstrip("/") + "/api/tables" + (f"?{query}" if query else "")
            try:
                reply = await self.client.get(url, headers=self._headers(scope))
                found = reply.json().get("tables") if reply.status_code == 200 else None
            except (httpx.HTTPError, ValueError, AttributeError):
                return []
            return list(found) if isinstance(found, list) else []

        for found in await asyncio.gather(*(fetch(a) for a in others)):
            for table in found:
                if isinstance(table, dict) and table.get("table_id") not in seen:
                    seen.add(table.get("table_id"))
                    tables.append(table)
        await _answer(send, 200, {**payload, "tables": tables})

    async def aclose(self) -> None:
        await self.client.aclose()


async def _run_local(app: ASGIApp, scope: Scope, receive: Receive) -> tuple[int, Any]:
    status = 500
    chunks: list[bytes] = []

    async def capture(message: Message) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = int(message["status"])
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, capture)
    try:
        return status, json.loads(b"".join(chunks) or b"null")
    except ValueError:
        return status, None


async def _answer(send: Send, status: int, payload: Any) -> None:
    body = json.dumps(payload, ensure_ascii=False).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


__all__ = ["ClusterProxy"]
