"""Every router's route state is built at start-up, not on the event loop by the first request
that reaches it (`qipai.server.app.build_routes`): the first anonymous request to the back
office (an operator sign-in flood's first attempt) stalled every table and socket of the room
while FastAPI built the state of its ~60 routes (docs/security.md, "Sign-in limits")."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import fastapi.routing
import pytest
from fastapi.testclient import TestClient

from qipai.server.app import create_app


def test_no_route_state_is_built_by_a_request_after_start_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    contexts = getattr(fastapi.routing, "_EffectiveRouteContext", None)
    if contexts is None:
        pytest.skip("this FastAPI builds route state when a router is included")
    built: list[str] = []
    real = contexts.from_api_route.__func__

    def counted(cls: Any, *args: Any, **kwargs: Any) -> Any:
        route = kwargs.get("original_route", args[0] if args else None)
        built.append(getattr(route, "path", "?"))
        return real(cls, *args, **kwargs)

    monkeypatch.setattr(contexts, "from_api_route", classmethod(counted))
    app = create_app(str(tmp_path / "room.db"))
    with TestClient(app) as client:
        started = len(built)
        for method, path, body in (
            ("POST", "/api/ops/login", {}),
            ("GET", "/api/ops/me", None),
            ("GET", "/api/games", None),
            ("POST", "/api/login", {}),
            ("GET", "/api/health", None),
        ):
            response = client.request(method, path, json=body)
            assert response.status_code < 500, (path, response.text)
        assert built[started:] == []


def test_every_error_handler_runs_on_the_event_loop(tmp_path: Path) -> None:
    """A plain-function exception handler runs in Starlette's thread pool: each operator sign-in
    refused with a typed authority error (401) cost a thread hop, and the first one an import
    on the event loop."""
    app = create_app(str(tmp_path / "room.db"))
    plain = [
        getattr(handler, "__qualname__", repr(handler))
        for handler in app.exception_handlers.values()
        if not inspect.iscoroutinefunction(handler)
    ]
    assert plain == []
