"""The server's contract: one error shape for every HTTP error (validation included, naming
the field), strict amounts, who may call each endpoint (stated, and enforced by the role
dependencies), settings from the environment with flags over them, security headers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import helpers  # registers the toy game
import pytest
from fastapi import APIRouter
from fastapi.testclient import TestClient

from qipai.server.app import create_app
from qipai.server.deps import AuditorOrOperator, Operator
from qipai.server.settings import Settings
from qipai.tables.table import Timing

assert helpers.TOY


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(str(tmp_path / "room.db"), timing=Timing(0.05, 0.2, 0.05))
    with TestClient(app) as c:
        yield c


def signup(client: TestClient, name: str) -> dict[str, str]:
    r = client.post("/api/signup", json={"username": name, "password": "secret-pw"})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def error_of(r: Any, status: int) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"}, body
    assert {"code", "message"} <= set(body["error"]) <= {"code", "message", "field"}
    return body["error"]  # type: ignore[no-any-return]


def test_every_http_error_has_the_one_shape(client: TestClient) -> None:
    alice = signup(client, "alice")
    assert error_of(client.get("/api/me"), 401)["code"] == "auth_required"
    assert error_of(client.get("/api/nothing-here"), 404)["code"] == "not_found"
    assert error_of(client.put("/api/games"), 405)["code"] == "method_not_allowed"
    err = error_of(client.post("/api/wallet/deposit", json={"amount": -5}, headers=alice), 422)
    assert err["field"] == "amount"
    err = error_of(client.post("/api/wallet/deposit", json={}, headers=alice), 422)
    assert err["field"] == "amount" and err["code"] == "invalid_input"
    err = error_of(
        client.post(
            "/api/wallet/deposit",
            content=b"{not json",
            headers={**alice, "Content-Type": "application/json"},
        ),
        422,
    )
    assert err["code"] == "invalid_json"
    err = error_of(client.get("/api/history?limit=0", headers=alice), 400)
    assert err["field"] == "limit"
    err = error_of(client.get("/api/tables/nope"), 404)
    assert err == {"code": "unknown_table", "message": "no table 'nope'", "field": "table_id"}
    err = error_of(client.post("/api/tables/nope/sit", json={"buy_in": 1}, headers=alice), 404)
    assert err["code"] == "unknown_table"
    err = error_of(client.get("/api/rounds/nope", headers=alice), 404)
    assert err["code"] == "unknown_round"
    err = error_of(
        client.post("/api/signup", json={"username": "ALICE", "password": "secret-pw"}), 409
    )
    assert err["code"] == "conflict"
    err = error_of(client.post("/api/tables", json={"game": "nope"}, headers=alice), 400)
    assert err["code"] == "invalid_input"
    t = client.post("/api/tables", json={"game": "toy"}, headers=alice).json()
    err = error_of(client.post(f"/api/tables/{t['id']}/bots", json={}, headers=alice), 403)
    assert err["code"] == "not_seated"
    err = error_of(client.post("/api/wallet/deposit", content=b"x" * 70_000, headers=alice), 413)
    assert err["code"] == "too_large"


@pytest.mark.parametrize(
    "amount", [True, "50", 1.0, 50.5, float("nan"), float("inf"), 10**20, None, [50]]
)
def test_amounts_are_json_integers_only(client: TestClient, amount: Any) -> None:
    alice = signup(client, "alice")
    import json

    body = json.dumps({"amount": amount})  # NaN/Infinity as Python's json writes them
    r = client.post(
        "/api/wallet/deposit",
        content=body.encode(),
        headers={**alice, "Content-Type": "application/json"},
    )
    err = error_of(r, 422)
    assert err["field"] == "amount"
    assert client.get("/api/wallet", headers=alice).json()["wallet"] == 0


def test_unknown_fields_are_refused_by_name(client: TestClient) -> None:
    alice = signup(client, "alice")
    r = client.post("/api/wallet/deposit", json={"amount": 5, "amuont": 5}, headers=alice)
    assert error_of(r, 422)["field"] == "amuont"


def post_escaped(client: TestClient, path: str, body: Any, headers: dict[str, str]) -> Any:
    """POST `body` as JSON with \\u escapes (how a client sends a lone surrogate)."""
    import json

    content = json.dumps(body).encode()
    return client.post(
        path, content=content, headers={**headers, "Content-Type": "application/json"}
    )


@pytest.mark.parametrize("bad", ["\ud800", "a\x00b"])
def test_unstorable_text_is_refused_naming_the_field(client: TestClient, bad: str) -> None:
    alice = signup(client, "alice")
    r = post_escaped(client, "/api/tables", {"game": "toy", "name": bad}, alice)
    assert error_of(r, 422)["field"] == "name"
    r = post_escaped(client, "/api/signup", {"username": bad, "password": "secret-pw"}, {})
    assert error_of(r, 422)["field"] == "username"
    r = post_escaped(client, "/api/login", {"username": "alice", "password": bad * 8}, {})
    assert error_of(r, 422)["field"] == "password"
    r = post_escaped(client, "/api/wallet/deposit", {"amount": 5, "key": bad}, alice)
    assert error_of(r, 422)["field"] == "key"


WHO = ("**Anyone", "**A signed-in player", "operator", "auditor")


def test_every_endpoint_says_who_may_call_it(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert paths
    for path, methods in paths.items():
        for method, op in methods.items():
            text = op.get("description", "")
            assert any(w in text for w in WHO), f"{method.upper()} {path}: {text!r}"
    from qipai.server.routers import ws

    assert ws.play.__doc__ and "signed-in player" in ws.play.__doc__


def test_role_dependencies(tmp_path: Path) -> None:
    roles = {"olga": frozenset({"operator"}), "audrey": frozenset({"auditor"})}
    probe = APIRouter()

    @probe.get("/api/probe/ops")
    async def ops(who: Operator) -> dict[str, str]:
        """**Operator.**"""
        return {"who": who}

    @probe.get("/api/probe/audit")
    async def audit(who: AuditorOrOperator) -> dict[str, str]:
        """**Auditor or operator.**"""
        return {"who": who}

    app = create_app(
        str(tmp_path / "room.db"),
        timing=Timing(0.05, 0.2, 0.05),
        roles=lambda player: roles.get(player, frozenset()),
        routers=[probe],
    )
    with TestClient(app) as client:
        heads = {name: signup(client, name) for name in ("olga", "audrey", "pete")}
        assert client.get("/api/probe/ops", headers=heads["olga"]).json() == {"who": "olga"}
        assert error_of(client.get("/api/probe/ops", headers=heads["audrey"]), 403)
        assert error_of(client.get("/api/probe/ops", headers=heads["pete"]), 403)
        assert error_of(client.get("/api/probe/ops"), 401)
        for name in ("olga", "audrey"):
            assert client.get("/api/probe/audit", headers=heads[name]).status_code == 200
        assert error_of(client.get("/api/probe/audit", headers=heads["pete"]), 403)


def test_security_headers_on_every_page(client: TestClient) -> None:
    for path in ("/", "/index.html", "/app.js", "/api/games", "/api/nothing", "/openapi.json"):
        r = client.get(path)
        csp = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, path
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"
    assert (
        "unsafe-inline"
        not in client.get("/")
        .headers["content-security-policy"]
        .split("script-src")[1]
        .split(";")[0]
    )


def test_the_browser_client_has_no_inline_script() -> None:
    """The CSP allows scripts from files only: the page must not rely on inline handlers."""
    import re

    from qipai.server.app import WEB

    html = (WEB / "index.html").read_text(encoding="utf-8")
    assert not re.search(r"\son[a-z]+=", html)
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)


def test_settings_come_from_the_environment_and_flags_win(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("QIPAI_PORT", "9123")
    monkeypatch.setenv("QIPAI_SESSION_IDLE_S", "60")
    monkeypatch.setenv("QIPAI_BOT_DELAY", "0.2")
    s = Settings()
    assert (s.port, s.session_idle_s, s.timing().bot_delay) == (9123, 60.0, 0.2)
    assert Settings(port=8001).port == 8001
    monkeypatch.delenv("QIPAI_PORT")
    assert Settings().port == 8000
    monkeypatch.setenv("QIPAI_PORT", "not-a-port")
    with pytest.raises(ValueError):
        Settings()


def test_serve_flags_override_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    import qipai.server as server
    from qipai.cli import app

    seen: list[Settings] = []
    monkeypatch.setattr(server, "run", lambda settings: seen.append(settings))
    monkeypatch.setenv("QIPAI_PORT", "9123")
    monkeypatch.setenv("QIPAI_HOST", "127.0.0.2")
    result = CliRunner().invoke(app, ["serve", "--port", "9200", "--db", "x.db"])
    assert result.exit_code == 0, result.output
    assert (seen[0].port, seen[0].host, seen[0].database_url) == (9200, "127.0.0.2", "x.db")
    result = CliRunner().invoke(app, ["serve", "--port", "99999"])
    assert result.exit_code == 2 and "port" in result.output


def test_a_round_detail_carries_the_export_at_the_top_level(tmp_path: Path) -> None:
    """GET /api/rounds/{id} = the summary + the qipai-round/1 export keys (docs/fairness.md)."""
    import time

    app = create_app(str(tmp_path / "room.db"), timing=Timing(0.01, 0.1, 0.05))
    with TestClient(app) as client:
        alice = signup(client, "alice")
        client.post("/api/wallet/deposit", json={"amount": 100_000}, headers=alice)
        r = client.post("/api/automatch", json={"game": "pokdeng", "buy_in": 20_000}, headers=alice)
        assert r.status_code == 200, r.text
        rounds: list[dict[str, Any]] = []
        deadline = time.monotonic() + 120
        while not rounds and time.monotonic() < deadline:  # the bots play, alice sits out
            time.sleep(0.2)
            rounds = client.get("/api/history", headers=alice).json()["rounds"]
        assert rounds, "no round settled"
        detail = client.get(f"/api/rounds/{rounds[0]['round_id']}", headers=alice).json()
        assert detail["format"] == "qipai-round/1" and detail["deal_spec"] == "deal-spec/1"
        assert detail["round_id"] == rounds[0]["round_id"] and detail["inputs"]
        assert "dealt" in detail and detail["seed_policy"] == "after_deal"
