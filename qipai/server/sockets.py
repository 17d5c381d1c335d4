"""One WebSocket's outgoing side: a bounded queue that keeps only the newest state per table,
and the registry that closes a session's sockets when the session ends.

A client that reads slowly (or never) costs at most `coalesce_after` (8) pending states plus one
per table it watches, and `limit` other messages: once messages pile up, a newer state of a
table replaces that table's states still waiting (a state is the whole picture). A reader that
keeps up sees every state. A socket whose other messages overflow the
queue, or that accepts nothing for `stall_s` while messages wait, is closed (`SLOW`, 4408) by
`sweep_stalled`, one task for every socket (no timer per message sent).

`push` may be called from any thread (tables work off the event loop): it only touches the
queue under a lock and wakes the sender through the loop. `encode` is the one JSON encoder of
what goes out (orjson: a state is encoded in about a tenth of the stdlib's time); `frame_text`
picks what a state goes out as — its delta to a socket that holds the state the delta starts
from, else whole — and encodes each once for every socket that sends it (docs/protocol.md,
"Deltas").
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable

import orjson

from qipai.core.protocol import JSON
from qipai.server.room import Connection
from qipai.tables.messages import StateMessage

SLOW = 4408
"""Close code of a socket that stays behind (its reader never catches up)."""
SIGNED_OUT = 4401
"""Close code of a socket whose session ended (logout, expiry) or never began."""
ACCOUNT_LOCKED = 4403
"""Close code of the sockets of a player the operator locked (the reason starts with
`account_locked`; docs/operators.md#locking-a-player)."""
LOCKED_REASON = "account_locked: this account is locked by the operator"
SILENT = 4410
"""Close code of a socket that promised a heartbeat and went silent (docs/protocol.md)."""


def encode(message: JSON) -> str:
    """A message's compact JSON text (UTF-8, no spaces), as `json.dumps(message,
    ensure_ascii=False, separators=(",", ":"))` would write it. orjson refuses what JSON cannot
    hold exactly (an integer past 64 bits): the stdlib writes those, so they still go out."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def frame_text(held: dict[str, int] | None, message: JSON) -> str:
    """The text a socket sends for `message`. `held`: the `seq` of the last state of each
    table this socket sent (updated here; None: the client takes no deltas). A state whose
    delta starts from the state this socket sent last goes as that delta (docs/protocol.md,
    "Deltas"), else whole (the first one, one after states were skipped for a slow reader, one
    from another host). Each text is encoded once: a delta for every socket that held the same
    state, a whole state for all of the player's sockets."""
    if not isinstance(message, StateMessage):
        if held is not None and message.get("type") == "state":
            held.pop(str(message.get("table_id")), None)  # whole, numbered elsewhere (or not)
        return encode(message)
    if held is None:
        return _whole(message)
    table_id = str(message["table_id"])
    delta = message.delta
    last = held.get(table_id)
    held[table_id] = message.seq
    if delta is not None and last == delta.base:
        if delta.text is None:
            delta.text = encode(delta.message())
        return delta.text
    return _whole(message)


def _whole(message: StateMessage) -> str:
    if message.text is None:
        message.text = encode(message)
    return message.text


class Outbox:
    """Pending messages of one socket. A reader that keeps up gets every message in order;
    once `coalesce_after` messages wait, a new state of a table replaces that table's states
    still waiting (a state is the whole picture), so a slow reader skips intermediate states
    but never holds more than `coalesce_after` + one per table of them."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, limit: int, coalesce_after: int = 8
    ) -> None:
        self._loop = loop
        self._limit = limit
        self._coalesce_after = coalesce_after
        self._items: OrderedDict[Hashable, JSON] = OrderedDict()
        self._states: dict[str, list[Hashable]] = {}  # table id -> its waiting states, oldest first
        self._others = 0  # queued messages that are not states
        self._order = itertools.count()
        self._lock = threading.Lock()
        self._ready = asyncio.Event()
        self.overflowed = False
        self.closed = False

    def put(self, message: JSON) -> None:
        with self._lock:
            if self.closed:
                return
            table_id = message.get("table_id")
            if message.get("type") == "state" and isinstance(table_id, str):
                key: Hashable = ("state", table_id, next(self._order))
                waiting = self._states.setdefault(table_id, [])
                if len(self._items) >= self._coalesce_after:
                    for old in waiting:  # behind: the newer state replaces them, at the end
                        self._items.pop(old, None)
                    waiting.clear()
                waiting.append(key)
            else:
                if self._others >= self._limit:
                    self.overflowed = True
                    self._wake()
                    return
                key = next(self._order)
                self._others += 1
            self._items[key] = message
        self._wake()

    def _wake(self) -> None:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self._loop:
            self._ready.set()
        else:
            self._loop.call_soon_threadsafe(self._ready.set)

    async def get(self) -> JSON | None:
        """The oldest pending message; None once the outbox overflowed or was closed."""
        while True:
            with self._lock:
                if self.overflowed or self.closed:
                    return None
                if self._items:
                    key, message = self._items.popitem(last=False)
                    if isinstance(key, tuple):
                        waiting = self._states.get(key[1])
                        if waiting:
                            waiting.remove(key)  # the oldest of that table: first in the list
                            if not waiting:
                                del self._states[key[1]]
                    else:
                        self._others -= 1
                    return message
                self._ready.clear()
            await self._ready.wait()

    def close(self) -> None:
        with self._lock:
            self.closed = True
            self._items.clear()
            self._states.clear()
        self._wake()

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)


class ClientConnection(Connection):
    """The room's view of one WebSocket (player, watched tables, `push`) with an `Outbox` as
    its queue, and the session it belongs to."""

    def __init__(self, player: str, session: str, outbox: Outbox) -> None:
        super().__init__(player)
        self.session = session
        self.outbox = outbox
        self.closing: tuple[int, str] | None = None
        self.closed = asyncio.Event()
        self.sending_since: float | None = None  # monotonic time the pending send began
        self.writer: asyncio.Task[None] | None = None  # the task sending the outbox
        self.heartbeat = False  # it signed in promising a ping at least every second
        # a client that takes deltas: table id -> seq of the last state sent (`frame_text`);
        # None: one that signed in without `"deltas": true` gets every state whole
        self.held: dict[str, int] | None = None

    def push(self, message: JSON) -> None:
        self.outbox.put(message)

    def end(self, code: int, reason: str) -> None:
        """Ask the socket's handler to close it (from any thread)."""
        if self.closing is None:
            self.closing = (code, reason)
        self.outbox.close()


class SocketRegistry:
    """Live sockets per session token hash and per player (to close them when sessions end)."""

    def __init__(self) -> None:
        self._by_session: dict[str, set[ClientConnection]] = {}
        self._lock = threading.Lock()

    def add(self, conn: ClientConnection) -> None:
        with self._lock:
            self._by_session.setdefault(conn.session, set()).add(conn)

    def remove(self, conn: ClientConnection) -> None:
        with self._lock:
            conns = self._by_session.get(conn.session)
            if conns is not None:
                conns.discard(conn)
                if not conns:
                    del self._by_session[conn.session]

    def end_sessions(
        self, sessions: list[str], reason: str = "signed out", code: int = SIGNED_OUT
    ) -> int:
        """Close every socket of these sessions (close `code`); returns how many."""
        with self._lock:
            doomed = [c for s in sessions for c in self._by_session.get(s, ())]
        for conn in doomed:
            conn.end(code, reason)
        return len(doomed)

    def count(self) -> int:
        with self._lock:
            return sum(len(v) for v in self._by_session.values())

    def all(self) -> list[ClientConnection]:
        with self._lock:
            return [c for conns in self._by_session.values() for c in conns]

    def stalled(self, stall_s: float, now: float) -> list[ClientConnection]:
        """Sockets whose pending send began more than `stall_s` ago (their reader stays
        behind); one sweep over every socket instead of a timer per message sent."""
        with self._lock:
            return [
                c
                for conns in self._by_session.values()
                for c in conns
                if c.sending_since is not None and now - c.sending_since > stall_s
            ]


async def sweep_stalled(
    registry: SocketRegistry, stall_s: float, clock: Callable[[], float] = time.monotonic
) -> None:
    """Run until cancelled: every quarter of `stall_s` (at most 1 s), close (`SLOW`) each
    socket whose send has waited more than `stall_s` — its writer is cancelled."""
    period = min(1.0, stall_s / 4)
    with contextlib.suppress(asyncio.CancelledError):
        while True:
            await asyncio.sleep(period)
            for conn in registry.stalled(stall_s, clock()):
                conn.end(SLOW, "too far behind")
                if conn.writer is not None:
                    conn.writer.cancel()


GOING_AWAY = 1001
"""Close code of the sockets the server closes because it stops."""


async def close_all(registry: SocketRegistry, wait_s: float, poll_s: float = 0.02) -> int:
    """Close every socket (`GOING_AWAY`): each outbox is closed, so its writer ends and its
    handler closes the socket and returns, even a handler whose reader waits for a table's
    answer (the table's work still finishes, journaled first); a writer stuck in a send to a
    client that does not read is cancelled. Waits until they are gone, at most `wait_s`;
    returns how many there were."""
    conns = registry.all()
    for conn in conns:
        conn.end(GOING_AWAY, "the server is stopping")
        if conn.writer is not None and conn.sending_since is not None:
            conn.writer.cancel()
    loop = asyncio.get_running_loop()
    end = loop.time() + wait_s
    while registry.count() and loop.time() < end:
        await asyncio.sleep(poll_s)
    return len(conns)


__all__ = [
    "ACCOUNT_LOCKED",
    "GOING_AWAY",
    "LOCKED_REASON",
    "SIGNED_OUT",
    "SILENT",
    "SLOW",
    "ClientConnection",
    "Outbox",
    "SocketRegistry",
    "close_all",
    "encode",
    "frame_text",
    "sweep_stalled",
]
