"""What every router shares: the `Services` of one app, and the FastAPI dependencies that say
who may call an endpoint.

* `Anyone` — no dependency.
* `current_player` — a signed-in player (a live session token in `Authorization: Bearer …`);
  401 `auth_required` otherwise.
* `current_operator` — a signed-in player whose roles include `operator` (403 `forbidden`).
* `current_auditor_or_operator` — roles include `auditor` or `operator`.

Roles come from `Services.roles`, a function player -> role names that operator authority
(`qipai.authority`) supplies; until it does, nobody has a role.

Blocking work (database, replays) runs off the event loop: `Services.db(fn, …)` in a worker
thread, `Services.at_table(table_id, fn)` where that table's work runs.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import inspect
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Header
from starlette.requests import HTTPConnection

from qipai.ledger import Ledger
from qipai.server.errors import ApiError
from qipai.server.metrics import Metrics
from qipai.server.passwords import Hasher
from qipai.server.room import Room
from qipai.server.settings import Settings
from qipai.server.sockets import SocketRegistry
from qipai.server.store import RoomStore, Session
from qipai.server.throttle import Backoff, Rates, SignInGuard
from qipai.tables.ledger_adapter import LedgerAdapter
from qipai.tables.table import Table

T = TypeVar("T")

RoleLookup = Callable[[str], frozenset[str]]
"""player id -> the player's roles ("operator", "auditor", …); called in a worker thread."""

OPERATOR = "operator"
AUDITOR = "auditor"


def no_roles(_player: str) -> frozenset[str]:
    return frozenset()


class OfferCache:
    """The lobby's offer (every active template with its facts), built in a worker thread and
    kept for `ttl_s` and as long as the template store's `generation` is the same (a template
    written here, or one another process announced, rebuilds it at the next request). A
    request within that time answers on the loop without a thread hop: on a busy machine each
    hop cost the request milliseconds (the wake-ups of the worker and then of the loop)."""

    def __init__(self, ttl_s: float = 1.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl_s = ttl_s
        self.clock = clock
        self._value: Any = None
        self._key: object = None
        self._at = 0.0

    async def get(self, key: object, build: Callable[[], T]) -> T:
        if self._value is not None and self._key == key and self.clock() - self._at < self.ttl_s:
            found: T = self._value
            return found
        value = await asyncio.to_thread(build)
        self._value, self._key, self._at = value, key, self.clock()
        return value


SEATING_THREADS = 16
"""Automatch requests served side by side by one process (`Services.seat`)."""


@dataclass
class Services:
    """Everything one app runs on (built by `create_app`, on `app.state.services`)."""

    settings: Settings
    ledger: Ledger
    store: RoomStore
    adapter: LedgerAdapter
    room: Room
    hasher: Hasher
    rates: Rates
    player_guard: SignInGuard
    """Players' sign-ins, refused before any hash (per address, per name and address, per name)."""
    ops_guard: SignInGuard
    """Operators' sign-ins, the same way with tighter limits."""
    sockets: SocketRegistry
    metrics: Metrics
    roles: RoleLookup = field(default=no_roles)
    authority: Any = None
    """Operator authority (`qipai.authority.Authority`): templates, quotas, player locks."""
    cluster: Any = None
    """The table host (`qipai.cluster.node.Node`) on PostgreSQL; None on SQLite (one process)."""
    abusers: Backoff = field(default_factory=lambda: Backoff(1, 2.0, 300.0))
    """Sessions and players whose socket was closed for flooding: their new sockets are refused
    (before any database work) for 2 s, doubling with every further closing, up to 5 min."""
    room_signins: dict[str, Any] = field(default_factory=dict)
    """Sign-in kind ("player", "operator") -> its counts shared by the room's hosts
    (`qipai.server.room_signins.RoomSignIns`, with Redis); empty alone."""
    stopping_at: float | None = None
    """time.monotonic() of the SIGTERM (the server stops: no new socket is signed in)."""
    offer: OfferCache = field(default_factory=OfferCache)
    """The lobby's offer (`GET /api/games`), rebuilt at most once a second."""

    seating: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(
            SEATING_THREADS, thread_name_prefix="qipai-seating"
        )
    )
    """Automatch's threads (`seat`), apart from every other request's blocking work."""

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run blocking work (the database, a replay) in a worker thread."""
        return await asyncio.to_thread(fn, *args)

    async def seat(self, fn: Callable[..., T], *args: Any) -> T:
        """Run automatch's blocking work in a thread of `seating` (docs/scaling.md). A seating mostly
        waits: for the chosen table's lock (held while the table's own journal write commits)
        and for its buy-in's commit. In asyncio's default pool (min(32, CPUs + 4) threads: 6
        on 2 cores) six of them at a time filled it, so 1,000 people seated at ≈ 6 per second
        of wait, and every sign-in of a socket (a session read) queued behind them."""
        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()
        return await loop.run_in_executor(self.seating, functools.partial(context.run, fn, *args))

    async def at_table(self, table_id: str, fn: Callable[[Table], T]) -> T:
        """Run `fn(table)` where the table's work runs (the room's `call` once it has one,
        else a worker thread: `Table` methods take the table's lock), then let the table look
        at what changed."""
        table = self.room.table(table_id)
        call = getattr(self.room, "call", None)
        if call is not None:  # the room's call lets the table look (`Room.call`)
            result = call(table_id, fn)
            out: T = await result if inspect.isawaitable(result) else result
            if not inspect.isawaitable(result):
                self.room.wake(table_id)
        else:
            out = await asyncio.to_thread(fn, table)
            self.room.wake(table_id)
        return out


async def services(conn: HTTPConnection) -> Services:
    """(async: FastAPI runs a plain `def` dependency in a worker thread, a thread hop per
    request; these few lines need none)"""
    found: Services = conn.app.state.services
    return found


ServicesDep = Annotated[Services, Depends(services)]


def bearer(authorization: str | None) -> str:
    return (authorization or "").removeprefix("Bearer ").strip()


async def current_session(
    svc: ServicesDep, authorization: Annotated[str | None, Header()] = None
) -> Session:
    """The live session of the request's token (401 without one)."""
    token = bearer(authorization)
    found = await svc.db(svc.store.session, token) if token else None
    if found is None:
        raise ApiError(401, "auth_required", "sign in first")
    return found


SessionDep = Annotated[Session, Depends(current_session)]


async def current_player(svc: ServicesDep, session: SessionDep) -> str:
    """The player of the request's session (401 without a valid one; 403 `account_locked`
    for a player the operator locked)."""
    if svc.authority is not None:
        await svc.db(svc.authority.check_player, session.username)
    return session.username


Player = Annotated[str, Depends(current_player)]


async def player_roles(svc: ServicesDep, player: Player) -> frozenset[str]:
    return await svc.db(svc.roles, player)


async def current_operator(
    player: Player, roles: Annotated[frozenset[str], Depends(player_roles)]
) -> str:
    """A signed-in operator (403 for anyone else)."""
    if OPERATOR not in roles:
        raise ApiError(403, "forbidden", "operators only")
    return player


async def current_auditor_or_operator(
    player: Player, roles: Annotated[frozenset[str], Depends(player_roles)]
) -> str:
    """A signed-in auditor or operator (403 for anyone else)."""
    if not roles & {AUDITOR, OPERATOR}:
        raise ApiError(403, "forbidden", "auditors and operators only")
    return player


Operator = Annotated[str, Depends(current_operator)]
AuditorOrOperator = Annotated[str, Depends(current_auditor_or_operator)]


async def client_address(conn: HTTPConnection) -> str:
    return conn.client.host if conn.client is not None else "unknown"


Address = Annotated[str, Depends(client_address)]

__all__ = [
    "AUDITOR",
    "OPERATOR",
    "Address",
    "AuditorOrOperator",
    "Operator",
    "Player",
    "RoleLookup",
    "Services",
    "ServicesDep",
    "SessionDep",
    "current_auditor_or_operator",
    "current_operator",
    "current_player",
    "current_session",
]
