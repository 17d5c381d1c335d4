"""An app with operator authority wired in, and clients for an operator, an auditor, a player."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyotp
from fastapi.testclient import TestClient

from qipai.authority import Authority

PASSWORD = "a long operator password"


@dataclass
class Staff:
    headers: dict[str, str]
    secret: str


def enrol(client: TestClient, authority: Authority, name: str, role: str = "supervisor") -> Staff:
    """`qipai operator add` + the first sign-in over HTTP; returns a full session."""
    once = authority.operators.add(name, role)
    r = client.post("/api/ops/login", json={"name": name, "password": once})
    assert r.status_code == 200, r.text
    assert r.json()["stage"] == "setup"
    setup = {"Authorization": f"Bearer {r.json()['token']}"}
    assert client.get("/api/ops/templates", headers=setup).json()["error"]["code"] == (
        "setup_required"
    )
    r = client.post(
        "/api/ops/password",
        json={"old_password": once, "new_password": PASSWORD},
        headers=setup,
    )
    assert r.status_code == 200, r.text
    enrolment = client.post("/api/ops/totp/enrol", headers=setup).json()
    assert enrolment["otpauth_uri"].startswith("otpauth://totp/")
    secret = enrolment["secret"]
    code = pyotp.TOTP(secret).at(authority.clock())
    r = client.post("/api/ops/totp/confirm", json={"code": code}, headers=setup)
    assert r.json()["stage"] == "full", r.text
    return Staff(setup, secret)


def signup(client: TestClient, name: str, deposit: int = 0) -> dict[str, str]:
    r = client.post("/api/signup", json={"username": name, "password": "secret-pw"})
    assert r.status_code == 200, r.text
    headers = {"Authorization": f"Bearer {r.json()['token']}"}
    if deposit:
        r = client.post("/api/wallet/deposit", json={"amount": deposit}, headers=headers)
        assert r.status_code == 200, r.text
    return headers


def error(response: Any) -> dict[str, Any]:
    body: dict[str, Any] = response.json()
    assert "error" in body, body
    return body["error"]  # type: ignore[no-any-return]


def offer(client: TestClient, game: str, settings: dict[str, Any], name: str = "") -> str:
    """The operator offers a template of `game` with `settings` (tests that need, say, a long
    countdown); returns its id for `POST /api/tables {"template": id}`."""
    from qipai.authority.oplog import SYSTEM

    authority: Authority = client.app.state.authority  # type: ignore[attr-defined]
    made = authority.templates.create(
        {"game": game, "name": name or f"{game} test", "settings": settings}, SYSTEM
    )
    return made.id
