"""The desk over HTTP: lock kinds (withdrawals-only signs in and withdraws but plays nowhere;
self-exclusion refuses sign-in and ends by itself), KYC gating withdrawal requests, four-eyes
through `/api/ops/approvals` (one's own request refused), weak operator passwords refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from qipai.authority import Authority, AuthoritySettings
from qipai.authority.oplog import Actor
from qipai.server.app import create_app
from qipai.server.settings import Settings
from qipai.tables.table import Timing
from tests.authority.conftest import Clock, both_backends
from tests.authority.helpers import enrol, error, signup


@pytest.fixture
def room(tmp_path: Path) -> Iterator[tuple[TestClient, Authority]]:
    settings = Settings(authority=AuthoritySettings(demo=False))  # type: ignore[call-arg]
    app = create_app(str(tmp_path / "room.db"), settings=settings, timing=Timing(0.05, 0.2, 0.05))
    with TestClient(app) as client:
        yield client, app.state.authority


def _login(client: TestClient, name: str) -> int:
    return client.post("/api/login", json={"username": name, "password": "secret-pw"}).status_code


def test_withdrawals_only_signs_in_withdraws_and_plays_nowhere(
    room: tuple[TestClient, Authority],
) -> None:
    client, authority = room
    alice = signup(client, "alice")
    authority.money.ledger.deposit("alice", 50_000, "seed")  # type: ignore[union-attr]
    flo = enrol(client, authority, "flo", "floor").headers
    carl = enrol(client, authority, "carl", "cashier").headers
    r = client.post(
        "/api/ops/players/alice/lock",
        json={"reason": "asked to stop playing", "kind": "withdrawals_only"},
        headers=flo,
    )
    assert r.status_code == 200 and r.json()["lock_kind"] == "withdrawals_only", r.text
    assert _login(client, "alice") == 200
    for path, body in (
        ("/api/automatch", {"game": "pokdeng", "buy_in": 10_000}),
        ("/api/tables", {"template": "pokdeng-classic"}),
    ):
        r = client.post(path, json=body, headers=alice)
        assert r.status_code == 403 and error(r)["code"] == "account_locked", (path, r.text)
    r = client.post("/api/wallet/withdrawals", json={"amount": 500}, headers=alice)
    assert r.status_code == 403 and error(r)["code"] == "kyc_required", r.text
    r = client.put(
        "/api/ops/players/alice/kyc", json={"status": "verified", "reason": "id seen"}, headers=flo
    )
    assert r.status_code == 403 and error(r)["code"] == "role_forbidden"  # not the floor's
    r = client.put(
        "/api/ops/players/alice/kyc", json={"status": "verified", "reason": "id seen"}, headers=carl
    )
    assert r.status_code == 200, r.text
    r = client.post(
        "/api/wallet/withdrawals",
        json={"amount": 500, "method": "bank", "reference": "IBAN-42"},
        headers=alice,
    )
    assert r.status_code == 200 and r.json()["status"] == "pending", r.text
    queue = client.get("/api/ops/money/requests?status=pending", headers=carl).json()["requests"]
    assert [(q["method"], q["reference"], q["large"]) for q in queue] == [
        ("bank", "IBAN-42", False)
    ]


def test_four_eyes_over_http(room: tuple[TestClient, Authority]) -> None:
    client, authority = room
    signup(client, "bob")
    carl = enrol(client, authority, "carl", "cashier").headers
    fay = enrol(client, authority, "fay", "finance").headers
    r = client.post(
        "/api/ops/ledger/adjustments",
        json={"player": "bob", "amount": 2_000, "reason": "table fault"},
        headers=carl,
    )
    assert r.status_code == 200 and r.json()["status"] == "awaiting_approval", r.text
    approval = r.json()["approval"]["id"]
    waiting = client.get("/api/ops/approvals?status=pending", headers=fay).json()["approvals"]
    assert [a["id"] for a in waiting] == [approval]
    r = client.post(f"/api/ops/approvals/{approval}/approve", json={"reason": "x"}, headers=carl)
    assert r.status_code == 403 and error(r)["code"] == "own_request"
    assert authority.money.ledger.wallet("bob") == 0  # type: ignore[union-attr]
    r = client.post(f"/api/ops/approvals/{approval}/approve", json={"reason": "ok"}, headers=fay)
    assert r.status_code == 200 and r.json()["status"] == "approved", r.text
    assert authority.money.ledger.wallet("bob") == 2_000  # type: ignore[union-attr]


def test_weak_operator_passwords_are_refused_over_http(room: tuple[TestClient, Authority]) -> None:
    client, authority = room
    once = authority.operators.add("olga", "supervisor")
    token = client.post("/api/ops/login", json={"name": "olga", "password": once}).json()["token"]
    r = client.post(
        "/api/ops/password",
        json={"old_password": once, "new_password": "password1234"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert r.status_code == 400 and error(r)["code"] == "weak_password", r.text
    assert error(r)["field"] == "new_password"


@both_backends
def test_spanned_locks_refuse_sign_in_and_end_by_themselves(
    authority: Authority, clock: Clock
) -> None:
    floor = Actor("flo", "floor")
    authority.players.lock("alice", floor, "a break", True, "cool_off", 2)
    assert authority.players.locked("alice") and authority.players.lock_kind("alice") == "cool_off"
    with pytest.raises(Exception, match="a number of days"):
        authority.players.lock("bob", floor, "forever?", True, "self_exclusion")
    clock.advance(2 * 86_400 + 1)
    authority.players.forget()
    assert not authority.players.locked("alice") and authority.players.lock_kind("alice") is None


@pytest.mark.timeout(120)  # without the limit the socket would stay open: a failure, not a hang
def test_a_spent_session_limit_closes_the_table_socket(room: tuple[TestClient, Authority]) -> None:
    from starlette.websockets import WebSocketDisconnect

    client, authority = room
    alice = signup(client, "alice")
    token = alice["Authorization"].removeprefix("Bearer ")

    def connect() -> WebSocketDisconnect | None:
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "auth", "token": token})
            try:
                for _ in range(50):
                    ws.receive_json()
            except WebSocketDisconnect as exc:
                return exc
            return None

    carl = enrol(client, authority, "carl", "cashier").headers
    r = client.put(
        "/api/ops/players/alice/money-limits",
        json={"kind": "session", "value": 0, "reason": "asked for a break"},
        headers=carl,
    )
    assert r.status_code == 200 and r.json()["money_limits"]["session"]["effective"] == 0
    closed = connect()
    assert closed is not None and closed.code == 4429
    assert closed.reason.startswith("limit_reached")


def test_a_used_up_wager_limit_refuses_a_seat(room: tuple[TestClient, Authority]) -> None:
    client, authority = room
    alice = signup(client, "alice")
    authority.money.ledger.deposit("alice", 50_000, "seed")  # type: ignore[union-attr]
    carl = enrol(client, authority, "carl", "cashier").headers
    r = client.put(
        "/api/ops/players/alice/money-limits",
        json={"kind": "wager", "value": 0, "reason": "affordability check"},
        headers=carl,
    )
    assert r.status_code == 200, r.text
    for path, body in (
        ("/api/automatch", {"game": "pokdeng", "buy_in": 10_000}),
        ("/api/tables", {"template": "pokdeng-classic"}),
    ):
        r = client.post(path, json=body, headers=alice)
        assert r.status_code == 403 and error(r)["code"] == "limit_reached", (path, r.text)
