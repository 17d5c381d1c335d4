"""Sign-in limits count across the room's hosts (docs/security.md, "Sign-in limits"): two
hosts (two apps in this test process) on one PostgreSQL schema and one Redis (logical database
4); wrong sign-ins from one address alternating between the hosts are refused once the room has
seen as many as one host allows, for players and operators alike; the owner at another address
still signs in; a Redis that does not answer leaves each host its own counts."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from httpx import Response

from qipai.cluster.settings import ClusterSettings
from qipai.server.app import create_app
from qipai.server.settings import Settings
from qipai.tables.table import Timing
from tests.authority.helpers import signup
from tests.cluster.hosts import require_cluster_services, room_database

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

REDIS_DB4 = "redis://127.0.0.1:6379/4"
FREE = 3
"""Wrong passwords for one name from one address before its back-off (each host's setting)."""


@pytest.fixture
def two_hosts() -> Iterator[tuple[TestClient, TestClient]]:
    require_cluster_services()
    room = f"signins-{secrets.token_hex(4)}"
    settings = {
        "login_free_failures": FREE,
        "address_free_failures": 50,
        "login_rate": "1000/minute",
        "ops_login_rate": "1000/minute",
        "signup_rate": "1000/minute",
    }
    with room_database() as url:
        apps = [
            create_app(
                url,
                settings=Settings(
                    **settings,  # type: ignore[arg-type]
                    cluster=ClusterSettings(host_id=name, redis_url=REDIS_DB4, name=room),
                ),
                timing=Timing(0.05, 0.2, 0.05),
            )
            for name in ("host-a", "host-b")
        ]
        with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
            yield a, b


def _post_from(client: TestClient, address: str, path: str, body: dict[str, str]) -> Response:
    """POST from `address` through the running app's own client (its event loop: the hosts'
    Redis connections belong to it)."""
    transport: Any = client._transport
    before = transport.client
    transport.client = (address, 40000)
    try:
        reply: Response = client.post(path, json=body)
        return reply
    finally:
        transport.client = before


def test_wrong_player_sign_ins_count_across_the_hosts(
    two_hosts: tuple[TestClient, TestClient],
) -> None:
    a, b = two_hosts
    signup(a, "victim")
    statuses = []
    for i in range(FREE + 1):  # A, B, A, B: each host alone has seen at most FREE // 2 + 1
        body = {"username": "victim", "password": "no!"}
        statuses.append(_post_from((a, b)[i % 2], "10.9.0.1", "/api/login", body).status_code)
    assert statuses == [401] * FREE + [429], statuses
    # the owner, from an address of their own, is not locked out by the stranger
    owner = _post_from(b, "10.9.0.2", "/api/login", {"username": "victim", "password": "secret-pw"})
    assert owner.status_code == 200, owner.text


def test_wrong_operator_sign_ins_count_across_the_hosts(
    two_hosts: tuple[TestClient, TestClient],
) -> None:
    a, b = two_hosts
    statuses = []
    for i in range(FREE + 1):
        body = {"name": "nobody", "password": "wrong-guess-wrong"}
        statuses.append(_post_from((a, b)[i % 2], "10.9.1.1", "/api/ops/login", body).status_code)
    assert statuses == [401] * FREE + [429], statuses
