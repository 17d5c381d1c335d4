"""The back office's round lists over HTTP (docs/operators.md#rounds): the round list paged past
any cap with stake and net, as JSON or CSV; a player's last N rounds with terms and template
version (a regulator's request); bad input refused by name; players and strangers refused."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from qipai.authority import Authority, AuthoritySettings
from qipai.ledger import Ledger
from qipai.server.app import create_app
from qipai.server.settings import Settings
from qipai.tables.table import Timing
from tests.authority.helpers import enrol, error, signup
from tests.authority.tableplay import play


@pytest.fixture
def room(tmp_path: Path) -> Iterator[tuple[TestClient, Authority, Ledger]]:
    settings = Settings(authority=AuthoritySettings(demo=False))  # type: ignore[call-arg]
    app = create_app(str(tmp_path / "room.db"), settings=settings, timing=Timing(0.05, 0.2, 0.05))
    with TestClient(app) as client:
        yield client, app.state.authority, app.state.ledger


def test_the_round_list_pages_past_any_cap_and_exports(
    room: tuple[TestClient, Authority, Ledger],
) -> None:
    client, authority, ledger = room
    olga = enrol(client, authority, "olga").headers
    template = authority.default_template("pokdeng")
    play(ledger, authority, template.id, 12, seed=3, people=1)
    seen: list[dict[str, object]] = []
    after = None
    pages = 0
    while True:
        params = {"limit": 5} | ({"after": after} if after else {})
        body = client.get("/api/ops/rounds", params=params, headers=olga).json()
        seen += body["rounds"]
        pages += 1
        after = body["next"]
        if after is None:
            break
    ids = [r["id"] for r in seen]
    assert len(ids) == len(set(ids)) >= 12 and pages >= 3
    settled = [r for r in seen if r["status"] == "settled"]
    assert all(isinstance(r["stake"], int) and isinstance(r["net"], int) for r in seen)
    assert sum(int(r["stake"]) for r in settled) > 0  # type: ignore[call-overload]
    # the same page as CSV
    first = client.get("/api/ops/rounds", params={"limit": 5, "format": "csv"}, headers=olga)
    assert first.status_code == 200 and first.headers["content-type"].startswith("text/csv")
    lines = list(csv.DictReader(io.StringIO(first.text)))
    assert [line["id"] for line in lines] == ids[:5]
    assert [int(line["stake"]) for line in lines] == [r["stake"] for r in seen[:5]]
    # refused by name, never a 500
    bad = client.get("/api/ops/rounds", params={"after": "nope"}, headers=olga)
    assert bad.status_code == 400 and error(bad)["field"] == "after"
    # a bad query parameter is a 400 naming it (docs/protocol.md, "Errors")
    assert client.get("/api/ops/rounds", params={"limit": 501}, headers=olga).status_code == 400
    assert client.get("/api/ops/rounds", params={"format": "xml"}, headers=olga).status_code == 400


def test_a_players_last_rounds_with_terms(room: tuple[TestClient, Authority, Ledger]) -> None:
    client, authority, ledger = room
    audrey = enrol(client, authority, "audrey", "auditor").headers  # an auditor reads it
    template = authority.default_template("pokdeng")
    play(ledger, authority, template.id, 6, seed=4, people=1)
    player = "p4-0"
    body = client.get(
        f"/api/ops/players/{player}/rounds", params={"last": 4}, headers=audrey
    ).json()
    assert body["player"] == player and len(body["rounds"]) == 4
    opened = [r["opened_at"] for r in body["rounds"]]
    assert opened == sorted(opened, reverse=True)
    for r in body["rounds"]:
        assert r["template_id"] == template.id and r["template_version"] == template.version
        assert r["config_hash"] == template.config_hash and r["pay_table"]
        assert r["settings"] == template.config
    out = client.get(
        f"/api/ops/players/{player}/rounds", params={"last": 4, "format": "csv"}, headers=audrey
    )
    lines = list(csv.DictReader(io.StringIO(out.text)))
    assert [line["id"] for line in lines] == [r["id"] for r in body["rounds"]]
    assert {line["template_version"] for line in lines} == {str(template.version)}
    missing = client.get("/api/ops/players/nobody/rounds", headers=audrey)
    assert missing.status_code == 404 and error(missing)["field"] == "player"
    assert (
        client.get(
            f"/api/ops/players/{player}/rounds", params={"last": 0}, headers=audrey
        ).status_code
        == 400
    )
    alice = signup(client, "alice")
    assert client.get(f"/api/ops/players/{player}/rounds", headers=alice).status_code == 403
    assert client.get(f"/api/ops/players/{player}/rounds").status_code == 401


def test_the_operator_log_pages_and_filters_over_http(
    room: tuple[TestClient, Authority, Ledger],
) -> None:
    client, authority, _ = room
    olga = enrol(client, authority, "olga").headers
    for n in range(3):
        r = client.post(
            "/api/ops/templates",
            json={"game": "pokdeng", "name": f"t{n}", "settings": {}, "reason": f"new {n}"},
            headers=olga,
        )
        assert r.status_code == 201, r.text
    seen: list[int] = []
    before = None
    while True:
        params = {"kind": "template", "limit": 1} | ({"before_id": before} if before else {})
        body = client.get("/api/ops/log", params=params, headers=olga).json()
        seen += [e["id"] for e in body["entries"]]
        assert all(e["action"].startswith("template.") for e in body["entries"])
        before = body["next"]
        if before is None:
            break
    assert len(seen) == len(set(seen)) >= 3 and "template" in body["kinds"]
    mine = client.get("/api/ops/log", params={"actor": "olga", "limit": 500}, headers=olga).json()
    assert mine["next"] is None and {e["actor"] for e in mine["entries"]} == {"olga"}
    bad = client.get(
        "/api/ops/log",
        params={"since": "2030-01-02T00:00:00Z", "until": "2030-01-01T00:00:00Z"},
        headers=olga,
    )
    assert bad.status_code == 400 and error(bad)["field"] == "since"
