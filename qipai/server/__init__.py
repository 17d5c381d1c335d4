"""The card-room server: `run(host, port, db)` starts FastAPI + the browser client + bots."""

from __future__ import annotations

import os

from qipai.tables.table import Timing


def timing_from_env() -> Timing:
    """Pauses from the environment (tests and benchmarks speed the room up)."""
    return Timing(
        bot_delay=float(os.environ.get("QIPAI_BOT_DELAY", "0.9")),
        between_rounds=float(os.environ.get("QIPAI_BETWEEN_ROUNDS", "5")),
        countdown_scale=float(os.environ.get("QIPAI_COUNTDOWN_SCALE", "1")),
    )


def _load_extra_games() -> None:
    """`QIPAI_EXTRA_GAMES=module,…`: modules that register extra games (the test suite's)."""
    import importlib

    for name in filter(None, os.environ.get("QIPAI_EXTRA_GAMES", "").split(",")):
        importlib.import_module(name.strip())


def run(host: str = "127.0.0.1", port: int = 8000, db: str | None = None) -> None:
    """Serve the card room until interrupted; prints the address to open."""
    import uvicorn

    from qipai.ledger.db import resolve_url
    from qipai.server.app import create_app

    _load_extra_games()
    app = create_app(db, timing=timing_from_env())
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    print(f"qipai card room: http://{shown}:{port}/  (database: {resolve_url(db)})", flush=True)
    uvicorn.run(app, host=host, port=port, log_level=os.environ.get("QIPAI_LOG_LEVEL", "warning"))


__all__ = ["run", "timing_from_env"]
