"""The card-room server: `run(settings)` starts FastAPI + the browser client + bots."""

from __future__ import annotations

import sys

from qipai.server.settings import Settings


def run(settings: Settings | None = None) -> None:
    """Serve the card room until interrupted (SIGINT/SIGTERM stop it within about
    `shutdown_timeout_s` + a few seconds); prints the address to open."""
    from qipai.server.logs import ServerLog

    settings = settings or Settings()
    logs = ServerLog(settings.log_level).start()  # JSON lines on stdout (docs/operators.md#logs)
    try:
        _serve(settings)
    finally:
        logs.stop()


def _serve(settings: Settings) -> None:
    import uvicorn
    from sqlalchemy.engine import make_url

    from qipai.ledger.db import resolve_url
    from qipai.ledger.errors import LedgerKeyError
    from qipai.server.app import create_app
    from qipai.server.dblock import DatabaseInUse
    from qipai.server.gate import GateProtocol
    from qipai.server.serving import QipaiServer, uvicorn_options

    try:
        app = create_app(settings=settings)
    except DatabaseInUse as exc:
        print(f"error: {exc}", file=sys.stderr, flush=True)
        raise SystemExit(3) from None
    except LedgerKeyError as exc:
        print(f"error: {exc}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None
    host, port = settings.host, settings.port
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    url = make_url(resolve_url(settings.database_url)).render_as_string(hide_password=True)
    print(f"qipai card room: http://{shown}:{port}/  (database: {url})", flush=True)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=settings.log_level,
        http=GateProtocol,  # an address the door has shut is reset at accept
        **uvicorn_options(settings),
        # the server's own JSON lines (qipai/server/logs.py) replace uvicorn's handlers and
        # its access log (`RequestLog` writes one line per request, without its query)
        log_config=None,
        access_log=False,
    )
    server = QipaiServer(config, before_shutdown=app.state.before_shutdown)
    node = app.state.services.cluster
    if node is not None:  # a drained table host (PostgreSQL) stops as on SIGTERM, exit code 0
        node.on_drained = lambda: setattr(server, "should_exit", True)
    server.run()


__all__ = ["Settings", "run"]
