"""Every route, walked from the app's own OpenAPI document (a new route is covered without
touching this file), refuses hostile input with a typed error and never a 500, on SQLite and
on PostgreSQL: NUL and lone surrogates, 26-digit, 64-bit-overflowing and negative integers,
over-long text, wrong types, deep and huge JSON bodies, for anonymous callers, a player, an
auditor and an operator. No traceback may reach the log either.

The sweep sends every hostile value to every parameter of every route; Hypothesis then mixes
roles, parameters and bodies (a few dozen examples by default; `-m slow` runs many more).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qipai.authority import Authority
from qipai.server.app import create_app
from qipai.server.settings import Settings
from qipai.tables.table import Timing
from tests.authority.helpers import enrol, signup
from tests.conftest import require_service
from tests.ledger.conftest import postgres_available

HOSTILE_TEXT = [
    "\x00",
    "a\x00b",
    "\ud800",
    "x" * 5_000,
    "../../etc/passwd",
    "%00",
    " ",
]
HOSTILE_INT = [
    "9" * 26,
    str(2**63),
    str(-(2**63) - 1),
    "-1",
    "0",
    "1e309",
    "NaN",
    "abc",
]
HOSTILE = HOSTILE_TEXT + HOSTILE_INT
"""Every value is sent as text (a path or query parameter is text on the wire)."""
SHORT = ["a\x00b", "9" * 26, "x" * 5_000]
"""The worst few, for the roles a route refuses before it reads its parameters."""

JSON_VALUES: list[Any] = [
    None,
    True,
    -1,
    0,
    10**30,
    -(10**30),
    2**63,
    1.5,
    "\x00",
    "x" * 5_000,
    [],
    {},
    ["\x00"],
    {"\x00": 1},
]
DEEP = "[" * 5_000 + "]" * 5_000
DEEP_OBJECT = '{"a":' * 200 + "1" + "}" * 200
WHOLE_BODIES: list[Any] = [DEEP, DEEP_OBJECT, "{not json", "x" * 100_000, [1, 2], '"\\ud800"']
SHORT_JSON: list[Any] = ["\x00", 10**30, {}]

SESSION_ENDERS = ("/api/logout", "/api/logout/all", "/api/ops/logout")
"""Routes that end the caller's session: fuzzed as anonymous only (the sweep needs the
sessions it signed in with)."""


@dataclass
class Route:
    method: str
    path: str
    path_params: list[str]
    query_params: list[str]
    body: dict[str, Any] | None  # the JSON schema of its body, resolved


@dataclass
class Room:
    client: TestClient
    roles: dict[str, dict[str, str]]
    routes: list[Route]
    doc_schemas: list[dict[str, Any]]
    seen: list[str] = field(default_factory=list)


def _resolve(doc: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str):
        name = ref.rsplit("/", 1)[-1]
        found: dict[str, Any] = doc["components"]["schemas"][name]
        return found
    return schema


def routes_of(doc: dict[str, Any]) -> list[Route]:
    """Every operation of the OpenAPI document, with its parameters and body schema."""
    found = []
    for path, operations in doc["paths"].items():
        for method, op in operations.items():
            params = op.get("parameters", [])
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            found.append(
                Route(
                    method=method.upper(),
                    path=path,
                    path_params=[p["name"] for p in params if p["in"] == "path"],
                    query_params=[p["name"] for p in params if p["in"] == "query"],
                    body=_resolve(doc, body["schema"]) if "schema" in body else None,
                )
            )
    return found


def _url(route: Route, values: dict[str, str], query: dict[str, str]) -> str:
    def piece(match: re.Match[str]) -> str:
        value = values.get(match.group(1), "x1")
        return quote(value.encode("utf-8", "surrogatepass"), safe="")

    url = re.sub(r"\{(\w+)\}", piece, route.path)
    if query:
        url += "?" + "&".join(
            f"{k}={quote(v.encode('utf-8', 'surrogatepass'), safe='')}" for k, v in query.items()
        )
    return url


def _content(value: Any) -> bytes:
    text = value if isinstance(value, str) else json.dumps(value)
    return text.encode("utf-8", "surrogatepass")


def send(room: Room, role: str, route: Route, url: str, body: Any = None) -> int:
    """One request; fails the test on a 5xx (naming the request)."""
    headers = {**room.roles[role], "Content-Type": "application/json"}
    content = None if body is None else _content(body)
    response = room.client.request(route.method, url, content=content, headers=headers)
    what = f"{role} {route.method} {url[:120]} body={str(body)[:80]!r}"
    assert response.status_code < 500, f"{what} -> {response.status_code} {response.text[:300]}"
    if response.status_code >= 400 and response.headers.get("content-type", "").startswith(
        "application/json"
    ):
        assert "error" in response.json(), what
    room.seen.append(what)
    return int(response.status_code)


def roles_for(route: Route) -> list[str]:
    if route.path in SESSION_ENDERS:
        return ["anonymous"]
    return list(ROLES)


ROLES = ("anonymous", "player", "auditor", "operator")


def _build(url: str) -> Iterator[Room]:
    settings = Settings(
        signup_rate="1000/minute",
        login_rate="1000/minute",
        ops_login_rate="1000/minute",
    )
    app = create_app(url, settings=settings, timing=Timing(0.02, 0.1, 1.0))
    with TestClient(app, raise_server_exceptions=False) as client:
        authority: Authority = app.state.authority
        roles = {
            "anonymous": {},
            "player": signup(client, "fuzzer", deposit=10_000),
            "auditor": enrol(client, authority, "audrey", "auditor").headers,
            "operator": enrol(client, authority, "olga").headers,
        }
        doc = app.openapi()
        yield Room(client, roles, routes_of(doc), list(doc["components"]["schemas"].values()))


@pytest.fixture(
    scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
)
def room(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Room]:
    if request.param == "postgresql":
        require_service(postgres_available(), "PostgreSQL")
        from tests.cluster.hosts import room_database

        with room_database() as url:
            yield from _build(url)
        return
    yield from _build(str(tmp_path_factory.mktemp("fuzz") / "room.db"))


@pytest.fixture
def no_tracebacks(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """No log record at ERROR or with a traceback while the test runs."""
    caplog.set_level(logging.WARNING)
    yield
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info is not None]
    assert not bad, [f"{r.name}: {r.getMessage()}" for r in bad[:5]]


def test_the_walk_finds_every_kind_of_parameter(room: Room) -> None:
    """The OpenAPI walk sees the routes and parameters this fuzz is about (were the document
    to lose them, the sweep would test nothing)."""
    paths = {r.path for r in room.routes}
    assert "/api/ops/money/requests/{request_id}/approve" in paths
    assert any(r.path_params for r in room.routes) and any(r.query_params for r in room.routes)
    assert sum(1 for r in room.routes if r.body is not None) >= 10


def main_role(route: Route) -> str:
    """The role whose requests get past the sign-in check to the parameters and the body."""
    return "operator" if route.path.startswith("/api/ops/") else "player"


def sweep_parameters(room: Room, every_role_every_value: bool) -> None:
    for route in room.routes:
        for role in roles_for(route):
            full = every_role_every_value or role == main_role(route)
            for name in route.path_params + route.query_params:
                for value in HOSTILE if full else SHORT:
                    in_path = name in route.path_params
                    url = _url(
                        route,
                        {name: value} if in_path else {},
                        {} if in_path else {name: value},
                    )
                    send(room, role, route, url, {} if route.body is not None else None)


def sweep_bodies(room: Room, every_role_every_value: bool) -> None:
    for route in room.routes:
        if route.method == "GET":
            continue
        url = _url(route, {}, {})
        fields = list(route.body.get("properties", {})) if route.body else []
        fields = fields or ["x"]
        for role in roles_for(route):
            full = every_role_every_value or role == main_role(route)
            for whole in WHOLE_BODIES:
                send(room, role, route, url, whole)
            for name in fields:
                for value in JSON_VALUES if full else SHORT_JSON:
                    send(room, role, route, url, {name: value})


def test_every_parameter_of_every_route_refuses_hostile_values(
    room: Room, no_tracebacks: None
) -> None:
    """Each hostile value in each path and query parameter of every route as the role that
    reaches it (an operator for the back office, else a player), and the worst few as every
    other role: never a 5xx, never a traceback."""
    sweep_parameters(room, every_role_every_value=False)


def test_every_body_refuses_hostile_json(room: Room, no_tracebacks: None) -> None:
    """Each field of each body set to each hostile JSON value, and whole bodies of the wrong
    kind (deep, huge, not JSON), as the role that reaches the route (the worst few as every
    other role)."""
    sweep_bodies(room, every_role_every_value=False)


def test_free_form_bodies_refuse_unstorable_text_in_any_field(
    room: Room, no_tracebacks: None
) -> None:
    """A body the document leaves open (`additionalProperties`: templates, limits, opening a
    table) gets NUL in every field name any model of the app knows, at the top and one level
    down, as the role that reaches it."""
    known = sorted({name for schema in room.doc_schemas for name in schema.get("properties", {})})
    for route in room.routes:
        if route.body is None or route.body.get("properties"):
            continue
        url = _url(route, {}, {})
        for name in known:
            send(room, main_role(route), route, url, {name: "a\x00b"})
            send(room, main_role(route), route, url, {"settings": {name: "a\x00b"}, name: 1})


HOSTILE_TOKENS: list[bytes] = [
    b"Bearer " + b"x" * 10_000,
    b"Bearer \x7f\x01",
    "Bearer é".encode("latin-1"),
    b"Basic abc",
    b"Bearer",
]


def test_every_route_refuses_hostile_credentials(room: Room, no_tracebacks: None) -> None:
    """The `Authorization` header is input too: over-long, control characters, Latin-1, the
    wrong scheme, no token."""
    for route in room.routes:
        url = _url(route, {}, {})
        for token in HOSTILE_TOKENS:
            response = room.client.request(
                route.method, url, content=b"{}", headers={"Authorization": token}
            )
            assert response.status_code < 500, (route.method, url, token[:20])


@pytest.mark.slow
def test_every_value_as_every_role(room: Room, no_tracebacks: None) -> None:
    sweep_parameters(room, every_role_every_value=True)
    sweep_bodies(room, every_role_every_value=True)


def test_an_edge_refusal_names_its_limit(room: Room) -> None:
    """A deep body is a 400 `too_deep` and a huge one a 413 `too_large`, each naming the
    setting, before the route parses them."""
    client = room.client
    deep = client.post("/api/login", content=DEEP, headers={"Content-Type": "application/json"})
    assert deep.status_code == 400
    assert deep.json()["error"]["code"] == "too_deep"
    assert "QIPAI_MAX_JSON_DEPTH" in deep.json()["error"]["message"]
    huge = client.post("/api/login", content=b"x" * 100_000)
    assert huge.status_code == 413
    assert "QIPAI_MAX_BODY_BYTES" in huge.json()["error"]["message"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: refused as the bytes stream in
        for _ in range(100):
            yield b"[" * 1_000

    streamed = client.post("/api/login", content=chunks())
    assert streamed.status_code == 413


@pytest.mark.parametrize(
    ("url", "field"),
    [
        ("/api/ops/money/requests/" + "9" * 26 + "/approve", "request_id"),
        (f"/api/ops/money/requests/{2**63}/reject", "request_id"),
        ("/api/ops/rounds/a%00b", "round_id"),
        ("/api/ops/players/" + "p" * 65, "player"),
        ("/api/ops/log?before_id=" + "9" * 26, "before_id"),
        ("/api/ops/ledger/accounts/wallet%3Aa%00", "account"),
    ],
)
def test_a_bad_parameter_is_a_400_naming_it(room: Room, url: str, field: str) -> None:
    method = "POST" if url.endswith(("approve", "reject")) else "GET"
    body = {"reason": "fuzz"} if method == "POST" else None
    response = room.client.request(method, url, json=body, headers=room.roles["operator"])
    assert response.status_code == 400, response.text
    assert response.json()["error"]["field"] == field


def test_operator_text_with_nul_is_refused_naming_the_field(room: Room) -> None:
    response = room.client.post(
        "/api/ops/tables/nope/suspend", json={"reason": "a\x00b"}, headers=room.roles["operator"]
    )
    assert response.status_code == 422, response.text
    assert response.json()["error"]["field"] == "reason"


@st.composite
def requests(draw: st.DrawFn, routes: list[Route]) -> tuple[str, Route, str, Any]:
    route = draw(st.sampled_from(routes))
    role = draw(st.sampled_from(roles_for(route)))
    value = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=80))
    path = {name: draw(value) for name in route.path_params}
    query = {name: draw(value) for name in route.query_params if draw(st.booleans())}
    body: Any = None
    if route.method != "GET":
        props = list(route.body.get("properties", {})) if route.body else []
        props = props or ["x"]
        json_value = st.one_of(
            st.sampled_from(JSON_VALUES), st.integers(), st.text(max_size=200), st.none()
        )
        body = draw(st.one_of(st.dictionaries(st.sampled_from(props), json_value), json_value))
    return role, route, _url(route, path, query), body


def _mixed(room: Room, examples: int) -> None:
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(requests(room.routes))
    def one(case: tuple[str, Route, str, Any]) -> None:
        role, route, url, body = case
        send(room, role, route, url, body)

    one()


def test_mixed_hostile_requests(room: Room, no_tracebacks: None) -> None:
    _mixed(room, 60)


@pytest.mark.slow
def test_many_mixed_hostile_requests(room: Room, no_tracebacks: None) -> None:
    _mixed(room, 3_000)
