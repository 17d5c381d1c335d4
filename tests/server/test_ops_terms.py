"""Terms per table through the server (docs/operators.md "Tables on older versions"): a table
keeps showing players its own template version's terms and exact returns after the operator
publishes a better or a worse version; the back office lists it as behind and moves it at its
next deal-unit boundary or leaves it, each choice in the operator log. On SQLite and
PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from qipai.authority.settings import AuthoritySettings
from tests.authority.helpers import enrol, error, offer, signup
from tests.server.rooms import room

__all__ = ["room"]


@pytest.fixture
def room_settings() -> dict[str, object]:
    """One operator publishes the new version here (four-eyes off); the two-operator path is
    in tests/authority/test_four_eyes.py."""
    return {"authority": AuthoritySettings(template_approval=False)}


def _rtp(facts: dict[str, Any]) -> dict[str, Any]:
    return {r["bet"]: r["rtp"] for r in facts["rtp"] or []}


@pytest.mark.parametrize("commission", ["0.03", "0.07"], ids=["better", "worse"])
def test_a_table_shows_its_own_version_and_the_operator_moves_it(
    room: tuple[TestClient, str], commission: str
) -> None:
    client, _ = room
    app: Any = client.app
    authority, live = app.state.authority, app.state.room
    olga = enrol(client, authority, "olga").headers
    audrey = enrol(client, authority, "audrey", "auditor").headers
    template = offer(client, "paigow", {}, "terms test")
    bob = signup(client, "bob", deposit=50_000)
    table_id = client.post("/api/tables", json={"template": template}, headers=bob).json()["id"]
    before = client.get(f"/api/tables/{table_id}").json()
    assert before["terms"]["template"] == {"id": template, "version": 1}
    assert before["facts"]["template"]["version"] == 1

    r = client.put(
        f"/api/ops/templates/{template}",
        json={"base_version": 1, "settings": {"commission": commission}, "reason": "pricing"},
        headers=olga,
    )
    assert r.status_code == 200, r.text
    # the player sees the table's own version: its settings and exact returns, not the new one's
    shown = client.get(f"/api/tables/{table_id}").json()
    assert shown["terms"]["template"]["version"] == 1
    assert shown["facts"]["template"]["version"] == 1
    assert shown["facts"]["settings"]["commission"] == "0.05"
    assert _rtp(shown["facts"]) == _rtp(before["facts"])
    listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
    assert listed[table_id]["facts"]["template"]["version"] == 1
    offers = client.get("/api/templates").json()["templates"]
    offered = [o for o in offers if o["template"]["id"] == template]
    assert offered[0]["template"]["version"] == 2
    better = commission < "0.05"
    new_rtp, old_rtp = _rtp(offered[0]), _rtp(shown["facts"])
    assert all((new_rtp[b] > old_rtp[b]) == better for b in old_rtp if old_rtp[b] is not None)

    # the back office lists it behind the newest version
    (entry,) = [
        t
        for t in client.get("/api/ops/terms/tables", headers=audrey).json()["templates"]
        if t["template_id"] == template
    ]
    assert entry["newest_version"] == 2
    (v1,) = entry["versions"]
    assert v1["version"] == 1 and v1["behind"] is True
    assert [t["table_id"] for t in v1["tables"]] == [table_id]
    assert v1["tables"][0]["pending_version"] is None

    url = f"/api/ops/tables/{table_id}/terms"
    refused = client.post(url, json={"choice": "at_boundary", "reason": "x"}, headers=audrey)
    assert refused.status_code == 403
    bad = client.post(url, json={"choice": "now", "reason": "x"}, headers=olga)
    assert bad.status_code in (400, 422) and error(bad)["code"]
    empty = client.post(url, json={"choice": "at_boundary", "reason": ""}, headers=olga)
    assert empty.status_code in (400, 422)
    missing = client.post(
        "/api/ops/tables/nope/terms", json={"choice": "leave", "reason": "x"}, headers=olga
    )
    assert missing.status_code == 404
    assert live.tables[table_id].pending_terms is None  # nothing changed by the refusals

    moved = client.post(url, json={"choice": "at_boundary", "reason": "new pricing"}, headers=olga)
    assert moved.status_code == 200, moved.text
    assert moved.json()["pending_version"] == 2 and moved.json()["template_version"] == 1
    assert live.tables[table_id].pending_terms.config_json["commission"] == commission
    left = client.post(url, json={"choice": "leave", "reason": "keep the old terms"}, headers=olga)
    assert left.status_code == 200 and left.json()["pending_version"] is None
    assert live.tables[table_id].pending_terms is None
    log = authority.log.entries(target=table_id)
    actions = [(e["action"], e["reason"]) for e in log]
    assert ("table.terms_move", "new pricing") in actions
    assert ("table.terms_leave", "keep the old terms") in actions
    (move,) = [e for e in log if e["action"] == "table.terms_move"]
    assert move["actor"] == "olga"


def test_a_table_on_the_newest_version_has_nothing_to_move_to(room: tuple[TestClient, str]) -> None:
    client, _ = room
    app: Any = client.app
    olga = enrol(client, app.state.authority, "olga").headers
    template = offer(client, "paigow", {}, "terms test")
    bob = signup(client, "bob", deposit=50_000)
    table_id = client.post("/api/tables", json={"template": template}, headers=bob).json()["id"]
    r = client.post(
        f"/api/ops/tables/{table_id}/terms",
        json={"choice": "at_boundary", "reason": "x"},
        headers=olga,
    )
    assert r.status_code == 409 and error(r)["code"] == "conflict"
