"""The FastAPI application, assembled from routers: accounts, wallet, lobby, history, ops
(operator authority), the WebSocket for table play (messages in docs/protocol.md),
`/metrics`, and the browser client as static files.

Every request acts as the player of its session token and nobody else: a table action is always
taken for the seat the token's player sits in. Every error answers in one shape
(`qipai.server.errors`).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import sys
import threading
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import fastapi.routing
from fastapi import APIRouter, FastAPI
from fastapi.staticfiles import StaticFiles
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.responses import Response

from qipai.authority import Authority, AuthoritySettings
from qipai.authority.lobby import EmptyTables
from qipai.ledger import Ledger
from qipai.ledger.db import resolve_url
from qipai.server import errors
from qipai.server.dblock import DatabaseLock
from qipai.server.deps import RoleLookup, Services, ServicesDep, no_roles
from qipai.server.edge import BodyLimit, SecurityHeaders
from qipai.server.errors import ErrorResponse
from qipai.server.gate import Tarpit
from qipai.server.logs import RequestLog
from qipai.server.metrics import Metrics
from qipai.server.models import HealthOut
from qipai.server.passwords import Hasher
from qipai.server.room import Room
from qipai.server.routers import accounts, game_assets, history, lobby, ops, wallet, ws
from qipai.server.settings import Settings
from qipai.server.sockets import GOING_AWAY, SocketRegistry, close_all, sweep_stalled
from qipai.server.store import RoomStore
from qipai.server.throttle import Door, Rates, SignInGuard
from qipai.tables import games as games_mod
from qipai.tables.ledger_adapter import LedgerAdapter
from qipai.tables.ports import Clock, SystemClock
from qipai.tables.table import Timing

if TYPE_CHECKING:
    from qipai.cluster.node import Node

WEB = Path(__file__).resolve().parent.parent / "web"

STOP_BUDGET_S = 9.0
"""SIGTERM to exit (the sockets closed, the tables' work done and saved): under 10 s."""

ERRORS = {
    status: {"model": ErrorResponse, "description": "error (one shape for all)"}
    for status in (400, 401, 403, 404, 409, 422, 429)
}

meta = APIRouter(tags=["meta"])


@meta.get("/metrics", response_class=Response)
async def metrics(svc: ServicesDep) -> Response:
    """**Anyone** who can reach the server (bind it to a private interface in production:
    nothing secret is in it). Prometheus metrics: event-loop lag, sockets, refusals."""
    return Response(generate_latest(svc.metrics.registry), media_type=CONTENT_TYPE_LATEST)


@meta.get("/api/health", response_model=HealthOut)
async def health(svc: ServicesDep) -> HealthOut:
    """**Anyone.** The process is up: how many tables and WebSockets it holds."""
    return HealthOut(ok=True, tables=len(svc.room.tables), sockets=svc.sockets.count())


def _warm(authority: Authority, metrics: Metrics) -> None:
    """Start-up work that must not stall anything: the Hold'em decision kernels, then the exact
    returns of the active templates (authority). A failure is logged, never raised. The gauge
    `qipai_warming` is 1 meanwhile (benchmarks wait for 0)."""
    for job in (games_mod.warm_up, authority.warm):
        try:
            job()
        except Exception:
            logging.getLogger("qipai.server").exception("warm-up %s failed", job.__name__)
    metrics.warming.set(0)


def build_routes(app: FastAPI) -> None:
    """Build every included router's route state now, at start-up. FastAPI (0.16x) builds an
    included router's per-route state (a pydantic adapter per parameter, body and response of
    each of its routes) on the first request matched through it, on the event loop: the first
    request to the back office (`/api/ops/…`, about 60 routes) stalled every table and socket of
    the room for 0.4-1.8 s, the whole of the operator sign-in flood's p99 in
    benchmarks/bench_abuse.py (docs/security.md, "Sign-in limits"). Older FastAPI builds it
    when a router is included: nothing to do."""
    contexts = getattr(fastapi.routing, "iter_route_contexts", None)
    if contexts is not None:
        for _ in contexts(app.router.routes):
            pass


def load_extra_games(modules: str) -> None:
    """`QIPAI_EXTRA_GAMES=module,…`: modules that register extra games (the test suite's)."""
    for name in filter(None, (m.strip() for m in modules.split(","))):
        importlib.import_module(name)


def authority_settings(settings: Settings) -> AuthoritySettings:
    """The authority's settings from the server's (the fields both have, by name)."""
    return settings.authority  # nested: QIPAI_AUTHORITY__DEMO=false, serve --no-demo


def _cluster_host(settings: Settings, url: str) -> str | None:
    """This process's table host id on PostgreSQL (`qipai.cluster.node.cluster_host`), None
    on SQLite (one process alone)."""
    from sqlalchemy.engine import make_url

    if make_url(url).get_backend_name() != "postgresql":
        return None
    from qipai.cluster.node import cluster_host

    return cluster_host(settings.cluster, url)


def create_app(
    db: str | None = None,
    *,
    settings: Settings | None = None,
    clock: Clock | None = None,
    timing: Timing | None = None,
    roles: RoleLookup | None = None,
    routers: Sequence[APIRouter] = (),
) -> FastAPI:
    """Build the app over the database at `db` (SQLite path or URL; None = the settings',
    else the default file). Refuses (DatabaseInUse) a SQLite file another process serves.

    `roles`: the role lookup of the role dependencies (operator authority supplies it);
    `routers`: more routers, included after the built-in ones (before the static files)."""
    settings = settings or Settings()
    if db is not None:
        settings = settings.model_copy(update={"database_url": db})
    load_extra_games(settings.extra_games)
    url = resolve_url(settings.database_url)
    lock = DatabaseLock(url)
    lock.acquire()
    try:
        ledger = Ledger.open(url, keys=settings.ledger_keys())
    except BaseException:
        lock.release()
        raise
    store = RoomStore(
        ledger.engine,
        session_idle_s=settings.session_idle_s,
        session_max_s=settings.session_max_s,
    )
    metrics = Metrics()
    # PostgreSQL: a table host (docs/scaling.md); the cluster's modules (Redis, HTTP
    # forwarding) are imported only then, so that one process on SQLite starts without them
    host_id = _cluster_host(settings, url)
    node: Node | None = None
    if host_id is None:
        adapter = LedgerAdapter(ledger, layouts=store)  # layouts saved with each settlement
        room = Room(
            adapter,
            store,
            clock or SystemClock(),
            timing or settings.timing(),
            workers=settings.table_workers,
        )
    else:
        from qipai.cluster.fenced import FencedLayouts, HostAdapter
        from qipai.cluster.metrics import ClusterMetrics
        from qipai.cluster.node import Node, host_capacity

        layouts = FencedLayouts(store)
        adapter = HostAdapter(ledger, layouts=layouts, host=host_id)
        layouts.bind(adapter)
        room = Room(
            adapter,
            layouts,
            clock or SystemClock(),
            timing or settings.timing(),
            workers=host_capacity(
                settings.cluster,
                ledger,
                settings.table_workers if "table_workers" in settings.model_fields_set else None,
            ),
        )
        cluster_metrics = ClusterMetrics(metrics.registry, host_id)
        adapter.on_fenced = layouts.on_fenced = cluster_metrics.fenced.inc
        node = Node(settings.cluster, room, adapter, ledger, cluster_metrics)
    authority = Authority(ledger.engine, authority_settings(settings), ledger=ledger)
    if node is not None:  # a lock, a limit or a template changed here: the others drop theirs
        players_changed = node.cache("players", authority.players.forget)
        authority.players.on_change = players_changed
        templates_changed = node.cache("templates", lambda _key: authority.templates.forget())
        authority.templates.on_change = lambda: templates_changed(None)
    svc = Services(
        settings=settings,
        ledger=ledger,
        store=store,
        adapter=adapter,
        room=room,
        hasher=Hasher(settings.hash_workers, settings.hash_queue),
        rates=Rates(
            frame=settings.frame_rate,
            action=settings.action_rate,
            connect=settings.connect_rate,
            login=settings.login_rate,
            signup=settings.signup_rate,
            table_open=settings.table_open_rate,
            room_table_open=settings.room_table_open_rate,
        ),
        player_guard=SignInGuard(
            "player",
            rate=settings.login_rate,
            name_rate=settings.login_name_failures,
            pair_free=settings.login_free_failures,
            address_free=settings.address_free_failures,
            base_s=settings.login_backoff_s,
            max_s=settings.login_backoff_max_s,
        ),
        ops_guard=SignInGuard(
            "operator",
            rate=settings.ops_login_rate,
            name_rate=settings.ops_name_failures,
            pair_free=settings.login_free_failures,
            address_free=settings.login_free_failures,
            base_s=settings.login_backoff_s,
            max_s=settings.login_backoff_max_s,
        ),
        sockets=SocketRegistry(),
        metrics=metrics,
        roles=roles or no_roles,
        authority=authority,
        cluster=node,
    )

    if node is not None and node.settings.redis_url is not None:
        # a guesser spreading attempts over the hosts gets no more than from one
        from qipai.server.room_signins import RoomSignIns

        for guard, rate, name_rate in (
            (svc.player_guard, settings.login_rate, settings.login_name_failures),
            (svc.ops_guard, settings.ops_login_rate, settings.ops_name_failures),
        ):
            svc.room_signins[guard.kind] = RoomSignIns(
                guard,
                url=node.settings.redis_url,
                room=node.settings.name,
                rate=rate,
                name_rate=name_rate,
            )

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        try:
            build_routes(app)  # before the first connection and the first table: see its doc
            await asyncio.to_thread(authority.start)  # the shipped templates, at first start
            await asyncio.to_thread(room.recover)
            room.start()
            if node is not None:
                await node.start()  # leases renewed, lapsed tables taken over, the bus
            probe = asyncio.create_task(svc.metrics.probe_lag(settings.lag_interval_s))
            sweep = asyncio.create_task(sweep_stalled(svc.sockets, settings.send_stall_s))
            # a daemon thread: the first Hold'em hint must not stall every table for a second,
            # and a SIGTERM during the warm-up must not wait for it
            # (then the exact returns of the offered templates not cached yet)
            svc.metrics.warming.set(1)
            threading.Thread(
                target=_warm, args=(authority, svc.metrics), name="qipai-warm", daemon=True
            ).start()
            empty_tables = EmptyTables(authority, room)  # players' empty tables close
            empty_tables.start()
            app.state.empty_tables = empty_tables
            yield
            empty_tables.stop()
            probe.cancel()
            sweep.cancel()
            for conn in svc.sockets.all():  # none left after `before_shutdown`, normally
                conn.end(GOING_AWAY, "the server is stopping")
            if node is not None:
                await node.stop()
            stopping_at = svc.stopping_at or time.monotonic()
            left = STOP_BUDGET_S - (time.monotonic() - stopping_at)
            # a table host releases its leases: the others take over
            await room.stop(timeout_s=max(1.5, left - 0.5))
            if node is not None:
                await node.close()
            for shared in svc.room_signins.values():
                await shared.close()
        finally:
            svc.seating.shutdown(wait=False, cancel_futures=True)
            svc.hasher.close()
            ledger.close()
            lock.release()
            print("qipai card room: stopped", file=sys.stderr, flush=True)

    app = FastAPI(
        title="qipai card room",
        version="0.1.0",
        description="Lobby, accounts, wallet, history and fairness over HTTP; table play over "
        "the WebSocket `/ws` (see docs/protocol.md). Each endpoint says who may call it. "
        'Every error is `{"error": {"code", "message", "field"?}}`.',
        lifespan=lifespan,
        responses=ERRORS,  # type: ignore[arg-type]
    )
    app.state.services = svc

    async def before_shutdown() -> None:
        """At SIGTERM, before uvicorn's own shutdown (`serving.QipaiServer`): close every
        signed-in socket ourselves (1001) and wait for their handlers, at most 2 s."""
        svc.stopping_at = time.monotonic()
        closed = await close_all(svc.sockets, wait_s=2.0)
        left = svc.sockets.count()
        if closed:
            logging.getLogger("qipai.server").info(
                "stopping: %d sockets closed (%d still closing)", closed, left
            )

    app.state.before_shutdown = before_shutdown
    # addresses over their connection limit: reset at accept (gate.py), each refusal counted
    app.state.door = Door(refused=svc.metrics.refused.labels("connect_door").inc)
    # … held unread until their window ends, a few per address (gate.Tarpit), then reset
    app.state.tarpit = Tarpit(settings.held_per_address, settings.held_total)
    # compatibility for code written against the single-function app
    app.state.room = room
    app.state.store = store
    app.state.ledger = ledger
    errors.install(app)
    app.add_middleware(
        BodyLimit, max_bytes=settings.max_body_bytes, max_depth=settings.max_json_depth
    )
    app.add_middleware(SecurityHeaders)
    if node is not None and node.routes:  # the lobby of every host's tables from any process
        from qipai.cluster.proxy import ClusterProxy

        app.add_middleware(
            ClusterProxy,
            node=node,
            max_body=settings.max_body_bytes,
            timeout_s=settings.cluster.forward_timeout_s,
        )
    app.add_middleware(RequestLog)  # outermost: one line per request (docs/operators.md#logs)
    for router in (
        accounts.router,
        wallet.router,
        lobby.router,
        game_assets.router,
        history.router,
        ws.router,
        meta,
        *routers,
    ):
        app.include_router(router)
    ops.install(app, authority)  # operator authority: /api/ops/…, /api/templates, /api/rules
    if WEB.is_dir():
        app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    return app


__all__ = ["create_app"]
