"""Least privilege is one table (qipai/authority/roles.py, printed in docs/operators.md §2): every
`/api/ops` route of the app is in it, and each role is let through exactly the routes whose row
names it — walked route by route with a full session of every role."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from qipai.authority import Authority, AuthoritySettings
from qipai.authority.roles import CAPABILITIES, OPERATOR_ROLES, ROUTES, route_roles
from qipai.server.app import create_app
from qipai.server.settings import Settings
from qipai.tables.table import Timing
from tests.authority.helpers import enrol
from tests.authority.test_ops_api import _fill, _ops_routes

DOCS = Path(__file__).resolve().parents[2] / "docs" / "operators.md"


@pytest.fixture
def room(tmp_path: Path) -> Iterator[tuple[TestClient, Authority]]:
    settings = Settings(authority=AuthoritySettings(demo=False))  # type: ignore[call-arg]
    app = create_app(str(tmp_path / "room.db"), settings=settings, timing=Timing(0.05, 0.2, 0.05))
    with TestClient(app) as client:
        yield client, app.state.authority


def test_every_ops_route_is_in_the_table(room: tuple[TestClient, Authority]) -> None:
    client, _ = room
    routes = set(_ops_routes(client))
    assert routes == set(ROUTES), (routes - set(ROUTES), set(ROUTES) - routes)


def test_each_role_passes_exactly_its_rows(room: tuple[TestClient, Authority]) -> None:
    client, authority = room
    staff = {role: enrol(client, authority, f"r-{role}", role).headers for role in OPERATOR_ROLES}
    for method, path in _ops_routes(client):
        allowed = route_roles(method, path)
        for role, headers in staff.items():
            if path == "/api/ops/logout":
                continue  # it would end the session the walk goes on with
            r = client.request(method, _fill(path), json={}, headers=headers)
            refused = r.status_code == 403 and r.json()["error"]["code"] in (
                "role_forbidden",
                "read_only_role",
            )
            assert refused == (role not in allowed), (role, method, path, r.status_code, r.text)


def test_the_docs_print_the_same_table() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for capability, roles in CAPABILITIES.items():
        row = re.search(rf"^\| `{capability}` \|(.*)$", text, re.M)
        assert row is not None, capability
        cells = [c.strip() for c in row.group(1).split("|")[: len(OPERATOR_ROLES)]]
        shown = {r for r, c in zip(OPERATOR_ROLES, cells, strict=True) if c == "✓"}
        assert shown == set(roles), capability
