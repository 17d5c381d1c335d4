"""Table play over the WebSocket `/ws` (messages in docs/protocol.md).

**A signed-in player.** The token never travels in the URL: the first message must be
`{"type": "auth", "token": "…"}` within `QIPAI_WS_AUTH_TIMEOUT_S`; a bad or missing token
closes the socket with 4401. Then every frame is bounded (size, depth, no NaN, storable text)
and rate-limited per socket and, for actions, per player; refusals are typed errors, and a
socket that keeps sending refused frames is closed (1008). Outgoing messages go through the
socket's `Outbox` (newest state per table; a reader that stays behind is closed, 4408).
Ending the session (logout, logout everywhere) closes the socket (4401).

**Heartbeat.** A client that signs in with `"heartbeat": true` pings every second and is
answered by a `pong`: each side knows within seconds that the other is gone. Such a socket that
says nothing for `QIPAI_WS_HEARTBEAT_DEAD_S` (8 s) is closed (4410). **State versions.** Every
action carries the `version` of the state it was built from (`tables/versions.py`); a missing or
malformed one is refused here, a stale one by the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from qipai.core.errors import GameError
from qipai.core.protocol import JSON
from qipai.server.deps import Services
from qipai.server.inputs import FrameError, parse_frame, storable
from qipai.server.sockets import (
    ACCOUNT_LOCKED,
    GOING_AWAY,
    LOCKED_REASON,
    SIGNED_OUT,
    SILENT,
    SLOW,
    ClientConnection,
    Outbox,
    frame_text,
)
from qipai.server.store import token_hash
from qipai.tables.table import Table
from qipai.tables.versions import well_formed

router = APIRouter(tags=["play"])
log = logging.getLogger("qipai.server.ws")

ABUSE = 1008
"""Close code of a socket that kept sending refused frames (policy violation)."""
SESSION_RECHECK_S = 30.0


def error(code: str, message: str, **extra: Any) -> JSON:
    """The WebSocket's error message (the HTTP error's code/message/field, plus context)."""
    out: JSON = {"type": "error", "code": code, "message": message}
    out.update({k: v for k, v in extra.items() if v is not None})
    return out


async def _close(ws: WebSocket, code: int, reason: str) -> None:
    if ws.application_state == WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(code, reason), 2.0)


async def _authenticate(ws: WebSocket, svc: Services) -> tuple[str, str, bool, bool] | None:
    """Wait for the auth message; (player, session token hash, whether the client keeps the
    heartbeat, whether it takes deltas) or None (socket closed)."""
    settings = svc.settings
    try:
        text = await asyncio.wait_for(ws.receive_text(), settings.ws_auth_timeout_s)
        msg = parse_frame(text, max_bytes=1024, max_depth=2)
    except (TimeoutError, FrameError, WebSocketDisconnect, KeyError, RuntimeError):
        await _close(ws, SIGNED_OUT, "sign in first")
        return None
    token = msg.get("token") if isinstance(msg, dict) else None
    if not isinstance(msg, dict) or msg.get("type") != "auth" or not isinstance(token, str):
        await _close(ws, SIGNED_OUT, 'the first message must be {"type": "auth", "token"}')
        return None
    cooling = svc.abusers.wait_s(f"session:{token_hash(token)}")  # before any database work
    if cooling > 0:
        await _refuse_abuser(ws, svc, cooling)
        return None
    session = await svc.db(svc.store.session, token)
    if session is None:
        await _close(ws, SIGNED_OUT, "sign in first")
        return None
    if svc.authority is not None and await svc.db(
        svc.authority.players.play_blocked, session.username
    ):
        await _close(ws, ACCOUNT_LOCKED, LOCKED_REASON)
        return None
    if svc.authority is not None:
        # the player's session limit (docs/operators.md "Money controls"): minutes since sign-in
        started = session.expires_at - svc.store.session_max_s
        if await svc.db(svc.authority.session_over, session.username, started):
            await _close(ws, QUOTA, "limit_reached: your session limit is reached; take a break")
            return None
    cooling = svc.abusers.wait_s(f"player:{session.username}")
    if cooling > 0:
        await _refuse_abuser(ws, svc, cooling)
        return None
    return (
        session.username,
        session.token_hash,
        msg.get("heartbeat") is True,
        msg.get("deltas") is True,
    )


async def _refuse_abuser(ws: WebSocket, svc: Services, wait: float) -> None:
    """A socket of a session or player whose last socket was closed for flooding, during the
    back-off: closed at once (1008), nothing else looked at. A client reconnecting during its
    back-off is looping: its address's next connections are refused at accept for the rest of
    the back-off (`throttle.Door`, at most its `max_s`), instead of costing a handshake and an
    auth message each (a measured flood got ten of those a second under the connection
    limit)."""
    svc.metrics.refused.labels("ws_backoff").inc()
    if ws.client is not None:
        ws.app.state.door.close_to(ws.client.host, wait)
    await _close(ws, ABUSE, f"too many messages: wait {max(1, int(wait + 0.999))} s")


def _closed_for_abuse(svc: Services, conn: ClientConnection) -> None:
    """The socket kept flooding: close it, and refuse its session's and player's new sockets
    for a back-off (a flooding client that reconnects at once costs a refusal, not a sign-in)."""
    conn.end(ABUSE, "too many messages")
    svc.abusers.fail(f"session:{conn.session}")
    svc.abusers.fail(f"player:{conn.player}")


QUOTA = 4429
"""Close code: over the player's quota of connections (the error message says so first)."""


def _over_connection_quota(svc: Services, player: str) -> JSON | None:
    """A typed error when `player` already has as many sockets as the quota allows."""
    if svc.authority is None:
        return None
    try:
        svc.authority.quotas.check_connection(player, len(svc.room.connections.get(player, ())))
    except GameError as exc:
        return error(exc.code, exc.message)
    return None


def _over_watch_quota(svc: Services, conn: ClientConnection, table_id: str) -> JSON | None:
    """A typed error when subscribing to `table_id` would exceed the tables-watched quota
    (tables watched over all of the player's connections)."""
    if svc.authority is None:
        return None
    watched: set[str] = set()
    for other in svc.room.connections.get(conn.player, ()):
        watched |= other.tables
    if table_id in watched:
        return None
    try:
        svc.authority.quotas.check_watch(conn.player, len(watched))
    except GameError as exc:
        return error(exc.code, exc.message, field="table_id", table_id=table_id)
    return None


@router.websocket("/ws")
async def play(ws: WebSocket) -> None:
    """**A signed-in player** (authenticated by the first message)."""
    svc: Services = ws.app.state.services
    address = ws.client.host if ws.client is not None else "unknown"
    if not svc.rates.hit("connect", address):
        svc.metrics.refused.labels("connect").inc()
        # its next connections are dropped by the server's protocol until its window has room
        ws.app.state.door.close_to(address, svc.rates.retry_after("connect", address))
        await ws.close(ABUSE, "too many connections from your address")  # before accept: 403
        return
    await ws.accept()
    who = await _authenticate(ws, svc)
    if who is None:
        return
    player, session, heartbeat, deltas = who
    if svc.stopping_at is not None:  # SIGTERM: `before_shutdown` has closed the others
        await _close(ws, GOING_AWAY, "the server is stopping")
        return
    if svc.authority is not None:
        # the player's limits, read in a thread when not cached: a database read on the event
        # loop for every new socket stalled all the others (docs/scaling.md,
        # "Seating"); the check and the attach below stay together on the loop
        await svc.db(svc.authority.players.get, player)
    refusal = _over_connection_quota(svc, player)
    if refusal is not None:  # per-player quota of connections (docs/operators.md)
        await ws.send_text(json.dumps(refusal))
        await _close(ws, QUOTA, refusal["message"])
        return
    conn = ClientConnection(
        player, session, Outbox(asyncio.get_running_loop(), svc.settings.send_queue)
    )
    conn.heartbeat = heartbeat
    if deltas:  # it applies deltas (docs/protocol.md, "Deltas"): states after the first go so
        conn.held = {}
    svc.sockets.add(conn)
    svc.room.attach(conn)
    svc.metrics.sockets.inc()
    conn.push({"type": "hello", "player": player, "protocol": 1})
    reader = asyncio.create_task(_read(ws, svc, conn))
    writer = conn.writer = asyncio.create_task(_write(ws, svc, conn))
    try:
        await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (reader, writer):
            task.cancel()
        for task in (reader, writer):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if svc.cluster is not None:
            svc.cluster.detach(conn)  # its watches of other processes' tables end too
        svc.room.detach(conn)
        svc.sockets.remove(conn)
        svc.metrics.sockets.dec()
        code, reason = conn.closing or (1000, "")
        if code == SLOW:
            svc.metrics.closed_slow.inc()
        await _close(ws, code, reason)


async def _write(ws: WebSocket, svc: Services, conn: ClientConnection) -> None:
    """Send the outbox until it is closed. A send that waits `send_stall_s` means the client
    stays behind: `sweep_stalled` (one task for all sockets) closes it and cancels this."""
    while True:
        message = await conn.outbox.get()
        if message is None:
            if conn.outbox.overflowed:
                conn.end(SLOW, "too far behind")
            return
        text = frame_text(conn.held, message)
        conn.sending_since = time.monotonic()
        try:
            await ws.send_text(text)
        except Exception:
            return  # the socket is gone: the reader sees it too
        finally:
            conn.sending_since = None


async def _read(ws: WebSocket, svc: Services, conn: ClientConnection) -> None:
    settings = svc.settings
    frames = svc.rates.window("frame")  # this socket's own: a refused frame costs ~1 µs
    refused = svc.metrics.refused.labels("frame")
    strikes = 0
    checked = time.monotonic()
    silent_after = settings.ws_heartbeat_dead_s if conn.heartbeat else None
    while True:
        try:
            # a client that keeps the heartbeat pings every second: silence means the network
            # or the client died, and a socket nobody reads is closed within 10 s (its seat is
            # then disconnected, and the client's next connection gets the state afresh)
            frame = await asyncio.wait_for(ws.receive(), silent_after)
        except TimeoutError:
            conn.end(SILENT, "no heartbeat")
            return
        except RuntimeError:
            return
        if frame["type"] == "websocket.disconnect":
            return
        if not frames.take():  # before anything else looks at the frame
            strikes += 1
            refused.inc()
            if strikes >= settings.abuse_strikes:
                _closed_for_abuse(svc, conn)
                return
            if strikes == 1 or strikes % 10 == 0:  # a flood is not answered frame by frame
                conn.push(error("rate_limited", "too many messages: slow down"))
            continue
        strikes = 0
        text = frame.get("text")
        if text is None:
            conn.push(error("invalid_message", "messages are JSON text frames"))
            continue
        if time.monotonic() - checked > SESSION_RECHECK_S:
            checked = time.monotonic()
            if await svc.db(svc.store.session_hash_alive, conn.session) is False:
                conn.end(SIGNED_OUT, "the session has ended")
                return
        reply = await handle(svc, conn, text)
        if reply is not None:
            conn.push(reply)


async def handle(svc: Services, conn: ClientConnection, text: str) -> JSON | None:
    """One client message -> at most one reply (typed errors change nothing)."""
    settings = svc.settings
    try:
        msg = parse_frame(
            text, max_bytes=settings.max_frame_bytes, max_depth=settings.max_json_depth
        )
    except FrameError as exc:
        return error(exc.code, exc.message, field=exc.field)
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        return error("invalid_message", "a message is an object with a string 'type'")
    kind = msg["type"]
    client_id = msg.get("client_id")
    if client_id is not None and (not isinstance(client_id, str) or not 1 <= len(client_id) <= 64):
        return error(
            "invalid_message", "client_id is a string of 1-64 characters", field="client_id"
        )
    if kind == "ping":
        return {"type": "pong", "client_id": client_id}
    if kind == "auth":
        return error("invalid_message", "already signed in", client_id=client_id)
    table_id = msg.get("table_id")
    remote = False  # a table another process runs (docs/scaling.md): the call goes to its owner
    if not isinstance(table_id, str) or table_id not in svc.room.tables:
        remote = isinstance(table_id, str) and await _elsewhere(svc, table_id)
        if not remote:
            return error(
                "unknown_table", f"no table {table_id!r}", field="table_id", client_id=client_id
            )
    assert isinstance(table_id, str)
    if kind == "subscribe":
        refused = _over_watch_quota(svc, conn, table_id)
        if refused is not None:
            return refused
        try:
            if remote:
                await svc.cluster.watch(conn, table_id)
            else:
                await svc.room.watch(conn, table_id)  # the table's part runs in its mailbox
        except GameError as exc:
            return error(exc.code, exc.message, client_id=client_id, table_id=table_id)
        except Exception as exc:
            return _routing_error(exc, client_id, table_id)
        return None
    if kind == "unsubscribe":
        if remote:
            await svc.cluster.unwatch(conn, table_id)
        else:
            svc.room.unsubscribe(conn, table_id)
        return {"type": "unsubscribed", "table_id": table_id}
    if kind == "action":
        return await _act(svc, conn, msg, table_id, client_id, remote)
    return error(
        "invalid_message", f"unknown message type {kind!r}", field="type", client_id=client_id
    )


async def _elsewhere(svc: Services, table_id: str) -> bool:
    """Whether another process of the room runs `table_id` (never without a cluster)."""
    if svc.cluster is None or not svc.cluster.routes:
        return False
    return bool(await svc.cluster.owner_of(table_id) is not None)


def _routing_error(exc: Exception, client_id: str | None, table_id: str) -> JSON:
    """A call to another process's table that failed: its typed refusal, or 'try again'."""
    code = getattr(exc, "code", None)
    if isinstance(code, str):
        return error(
            code, str(getattr(exc, "message", exc)), client_id=client_id, table_id=table_id
        )
    return error(
        "table_unavailable",
        "the table's server does not answer; send it again (same client_id)",
        client_id=client_id,
        table_id=table_id,
    )


async def _act(
    svc: Services,
    conn: ClientConnection,
    msg: JSON,
    table_id: str,
    client_id: str | None,
    remote: bool = False,
) -> JSON:
    action = msg.get("action")
    if not isinstance(action, dict):
        return error(
            "invalid_message", "'action' must be an object", field="action", client_id=client_id
        )
    if client_id is None:
        return error("invalid_message", "every action carries a client_id", field="client_id")
    storable(client_id)  # checked with the whole frame already; kept for clarity
    version = msg.get("version")
    if version is None:
        return error(
            "invalid_message",
            "every action carries the version of the state it was built from",
            field="version",
            client_id=client_id,
            table_id=table_id,
        )
    if not well_formed(version):
        return error(
            "invalid_message",
            "'version' is the state message's version, unchanged",
            field="version",
            client_id=client_id,
            table_id=table_id,
        )
    assert isinstance(version, str)
    if not svc.rates.hit("action", conn.player):
        svc.metrics.refused.labels("action").inc()
        return error(
            "rate_limited", "too many actions: slow down", client_id=client_id, table_id=table_id
        )
    player = conn.player
    if remote:
        try:
            reply = await svc.cluster.act(table_id, player, action, client_id, version)
        except Exception as exc:
            return _routing_error(exc, client_id, table_id)
        return {**reply, "table_id": table_id}

    def work(table: Table) -> JSON:
        reply: JSON = table.act(player, action, client_id, version)
        return reply

    try:
        reply = await svc.at_table(table_id, work)
    except GameError as exc:
        field = getattr(exc, "field", None)
        return error(
            exc.code,
            exc.message,
            field=field if isinstance(field, str) else None,
            client_id=client_id,
            table_id=table_id,
        )
    return {**reply, "table_id": table_id}
