"""The operator API over HTTP: who may call what (anonymous 401, player 403, auditor read-only
403 and logged), the first sign-in, templates as versions, players, money requests, ledger
corrections, and the operator log of it all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qipai.authority import Authority, AuthoritySettings
from qipai.server.app import create_app
from qipai.server.settings import Settings
from qipai.tables.table import Timing
from tests.authority.helpers import enrol, error, signup


@pytest.fixture
def room(tmp_path: Path) -> Iterator[tuple[TestClient, Authority]]:
    # demo money off (deposits and withdrawals are requests); the app installs the ops
    # routers itself, once (installing them again duplicated every operation id)
    # one operator acts alone here (four-eyes off, no KYC): the two-operator paths are in
    # tests/authority/test_four_eyes.py
    alone = AuthoritySettings(
        demo=False,
        template_approval=False,
        adjust_approval_over=10**12,
        withdrawal_approval_over=10**12,
        withdrawal_kyc=False,
    )
    settings = Settings(authority=alone)  # type: ignore[call-arg]
    app = create_app(str(tmp_path / "room.db"), settings=settings, timing=Timing(0.05, 0.2, 0.05))
    authority: Authority = app.state.authority
    with TestClient(app) as client:
        yield client, authority


def _ops_routes(client: TestClient) -> list[tuple[str, str]]:
    paths = client.get("/openapi.json").json()["paths"]
    return sorted(
        (method.upper(), path)
        for path, item in paths.items()
        for method in item
        if path.startswith("/api/ops") and path != "/api/ops/login"
    )


def _fill(path: str) -> str:
    return (
        path.replace("{template_id}", "pokdeng-classic")
        .replace("{player}", "alice")
        .replace("{table_id}", "t0")
        .replace("{round_id}", "r0")
        .replace("{account}", "house")
        .replace("{pool_id}", "holdem-bonus")
        .replace("{request_id}", "1")
        .replace("{approval_id}", "1")
        .replace("{name}", "olga")
        .replace("{host_id}", "h0")
    )


def test_every_ops_endpoint_refuses_anonymous_and_players(
    room: tuple[TestClient, Authority],
) -> None:
    client, authority = room
    alice = signup(client, "alice")
    before = authority.log.count()
    routes = _ops_routes(client)
    assert len(routes) >= 25
    for method, path in routes:
        anon = client.request(method, _fill(path), json={})
        assert anon.status_code == 401, (method, path, anon.text)
        assert error(anon)["code"] == "auth_required"
        player = client.request(method, _fill(path), json={}, headers=alice)
        assert player.status_code == 403, (method, path, player.text)
        assert error(player)["code"] == "operator_only"
    assert authority.log.count() == before  # nobody got as far as an action


def test_auditors_read_and_cannot_change(room: tuple[TestClient, Authority]) -> None:
    client, authority = room
    audrey = enrol(client, authority, "audrey", "auditor").headers
    assert client.get("/api/ops/templates", headers=audrey).status_code == 200
    assert client.get("/api/ops/log", headers=audrey).status_code == 200
    before = client.get("/api/ops/templates", headers=audrey).json()
    from qipai.authority.roles import route_roles

    writes = [(m, p) for m, p in _ops_routes(client) if "auditor" not in route_roles(m, p)]
    writes = [
        w
        for w in writes
        if w[1]
        not in (
            "/api/ops/logout",
            "/api/ops/password",
            "/api/ops/totp/enrol",
            "/api/ops/totp/confirm",
        )
    ]
    for method, path in writes:
        r = client.request(method, _fill(path), json={"reason": "x"}, headers=audrey)
        assert r.status_code == 403, (method, path, r.text)
        assert error(r)["code"] == "read_only_role"
    assert client.get("/api/ops/templates", headers=audrey).json() == before
    refused = [
        e for e in authority.log.entries(actor="audrey", limit=500) if e["outcome"] == "refused"
    ]
    assert len(refused) == len([w for w in writes if w[0] != "GET"])


def test_operators_run_templates_and_players_see_them(room: tuple[TestClient, Authority]) -> None:
    client, authority = room
    olga = enrol(client, authority, "olga").headers
    r = client.post(
        "/api/ops/templates",
        json={
            "game": "pokdeng",
            "name": "Night owls",
            "settings": {"mode": "banker-player"},
            "min_buy_in": 5_000,
            "max_buy_in": 200_000,
            "reason": "late room",
        },
        headers=olga,
    )
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["version"] == 1 and made["facts"]["pay_table"]
    offered = client.get("/api/templates", params={"game": "pokdeng"}).json()["templates"]
    mine = [t for t in offered if t["template"]["id"] == made["id"]]
    assert mine and mine[0]["min_buy_in"] == 5_000 and mine[0]["max_buy_in"] == 200_000
    r = client.put(
        f"/api/ops/templates/{made['id']}",
        json={"base_version": 1, "max_buy_in": 300_000, "reason": "bigger"},
        headers=olga,
    )
    assert r.json()["version"] == 2, r.text
    stale = client.put(
        f"/api/ops/templates/{made['id']}",
        json={"base_version": 1, "max_buy_in": 1, "reason": "x"},
        headers=olga,
    )
    assert stale.status_code == 409 and error(stale)["code"] == "stale_version"
    bad = client.post(
        "/api/ops/templates",
        json={"game": "pokdeng", "name": "x", "settings": {"decks": "eight"}, "reason": "r"},
        headers=olga,
    )
    assert bad.status_code == 400 and error(bad)["field"].startswith("settings")
    r = client.post(
        f"/api/ops/templates/{made['id']}/retire",
        json={"reason": "done", "base_version": 2},
        headers=olga,
    )
    assert r.json()["status"] == "retired"
    offered = client.get("/api/templates").json()["templates"]
    assert made["id"] not in {t["template"]["id"] for t in offered}
    versions = client.get(f"/api/ops/templates/{made['id']}", headers=olga).json()["versions"]
    assert [v["version"] for v in versions] == [1, 2, 3]
    log = client.get("/api/ops/log", params={"target": made["id"]}, headers=olga).json()
    assert [e["action"] for e in log["entries"]] == [
        "template.retire",
        "template.change",
        "template.create",
    ]
    assert client.get("/api/ops/log/verify", headers=olga).json() == {"ok": True, "problems": []}


def test_players_money_and_corrections(room: tuple[TestClient, Authority]) -> None:
    client, authority = room
    olga = enrol(client, authority, "olga").headers
    signup(client, "alice")
    found = client.get("/api/ops/players", params={"q": "ali"}, headers=olga).json()
    assert [p["player"] for p in found["players"]] == ["alice"]
    r = client.post("/api/ops/players/alice/lock", json={"reason": "chargeback"}, headers=olga)
    assert r.json()["locked"] is True
    missing = client.post("/api/ops/players/nobody/lock", json={"reason": "x"}, headers=olga)
    assert missing.status_code == 404
    r = client.put(
        "/api/ops/players/alice/limits",
        json={"max_open_tables": 1, "reason": "new account"},
        headers=olga,
    )
    assert r.json()["limits"] == {"max_open_tables": 1}
    bad = client.put(
        "/api/ops/players/alice/limits", json={"max_open_tables": -1, "reason": "x"}, headers=olga
    )
    assert bad.status_code == 400 and error(bad)["field"] == "max_open_tables"
    # with demo money off a deposit is a request an operator approves
    pending = authority.money.deposit("alice", 5_000)
    assert pending["status"] == "pending"
    rid = pending["request"]["id"]
    listed = client.get(
        "/api/ops/money/requests", params={"status": "pending"}, headers=olga
    ).json()["requests"]
    assert [q["id"] for q in listed] == [rid]
    r = client.post(f"/api/ops/money/requests/{rid}/approve", json={"reason": "paid"}, headers=olga)
    assert r.json()["status"] == "approved" and r.json()["tx_id"]
    again = client.post(
        f"/api/ops/money/requests/{rid}/approve", json={"reason": "paid"}, headers=olga
    )
    assert again.status_code == 409
    assert client.app.state.ledger.wallet("alice") == 5_000  # type: ignore[attr-defined]
    r = client.post(
        "/api/ops/ledger/adjustments",
        json={"player": "alice", "amount": -1_000, "reason": "duplicate credit"},
        headers=olga,
    )
    assert r.json()["wallet"] == 4_000, r.text
    over = client.post(
        "/api/ops/ledger/adjustments",
        json={"player": "alice", "amount": -10_000, "reason": "x"},
        headers=olga,
    )
    assert over.status_code == 400
    assert client.app.state.ledger.wallet("alice") == 4_000  # type: ignore[attr-defined]
    tx = r.json()["tx_id"]
    r = client.post("/api/ops/ledger/reversals", json={"tx_id": tx, "reason": "undo"}, headers=olga)
    assert r.status_code == 200, r.text
    assert client.app.state.ledger.wallet("alice") == 5_000  # type: ignore[attr-defined]
    r = client.post(
        "/api/ops/jackpots/holdem-bonus/fund",
        json={"amount": 25_000, "reason": "seed"},
        headers=olga,
    )
    assert r.json()["pool"] == 25_000, r.text
    actions = [e["action"] for e in authority.log.entries(actor="olga", limit=100)]
    for action in (
        "player.lock",
        "player.limits",
        "money.deposit.approve",
        "ledger.adjust",
        "ledger.reverse",
        "jackpot.fund",
    ):
        assert action in actions


def test_bad_input_to_the_operator_api_is_typed(room: tuple[TestClient, Authority]) -> None:
    client, authority = room
    olga = enrol(client, authority, "olga").headers
    before = authority.log.count()
    cases: list[tuple[str, str, Any]] = [
        ("POST", "/api/ops/templates", {"game": "pokdeng"}),
        ("POST", "/api/ops/templates", {"game": "pokdeng", "name": "x", "min_buy_in": "lots"}),
        ("POST", "/api/ops/templates/pokdeng-classic/retire", {"base_version": 1}),
        ("POST", "/api/ops/players/alice/lock", {}),
        ("POST", "/api/ops/ledger/adjustments", {"player": "alice", "amount": 1.5, "reason": "x"}),
        ("POST", "/api/ops/jackpots/p/fund", {"amount": 0, "reason": "x"}),
    ]
    for method, path, body in cases:
        r = client.request(method, path, json=body, headers=olga)
        assert r.status_code in (400, 422), (path, r.text)
        assert error(r)["code"] if r.status_code == 400 else r.json(), r.text
    assert authority.log.count() == before
