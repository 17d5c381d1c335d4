"""Two table hosts (two apps in this test process) on one PostgreSQL schema and one Redis (a
logical database of its own, never the machine's Redis server restarted): any front door shows
the whole room (`/api/games` counts and `/api/ops/tables` list the other host's tables, from
the table directory in PostgreSQL), and a change of a per-process cache on one host (a
player's lock, the offered templates) is dropped on the other at once over the bus, the TTLs
frozen so that only the announcement can do it."""

from __future__ import annotations

import secrets
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tables"))
import helpers  # noqa: F401  (registers the toy game)

from qipai.authority import players as players_mod
from qipai.authority import templates as templates_mod
from qipai.cluster.settings import ClusterSettings
from qipai.server.app import create_app
from qipai.server.settings import Settings
from qipai.tables.table import Timing
from tests.authority.helpers import Staff, enrol, offer, signup
from tests.cluster.faulty_bus import CLUSTER_REDIS_URL
from tests.cluster.hosts import require_cluster_services, room_database

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def settle(check: Callable[[], bool], what: str, tries: int = 400) -> None:
    """Until `check()` holds (a message crossing Redis); fails naming `what` if it never does.
    (Polls a condition; asserts no duration.)"""
    for _ in range(tries):
        if check():
            return
        time.sleep(0.025)
    raise AssertionError(f"never happened: {what}")


@pytest.fixture
def two_hosts(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, TestClient]]:
    require_cluster_services()
    # the TTL fallbacks stand still: only an announcement can drop a cached entry
    monkeypatch.setattr(players_mod, "CONTROLS_TTL_S", 3600.0, raising=False)
    monkeypatch.setattr(templates_mod, "CURRENT_TTL_S", 3600.0)
    room = f"two-{secrets.token_hex(4)}"
    with room_database() as url:
        apps = [
            create_app(
                url,
                settings=Settings(
                    cluster=ClusterSettings(host_id=name, redis_url=CLUSTER_REDIS_URL, name=room)
                ),
                timing=Timing(0.05, 0.2, 0.05),
            )
            for name in ("host-a", "host-b")
        ]
        with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
            yield a, b


def services(client: TestClient) -> Any:
    return client.app.state.services  # type: ignore[attr-defined]


def operator(client: TestClient) -> Staff:
    return enrol(client, client.app.state.authority, f"op{secrets.token_hex(3)}")  # type: ignore[attr-defined]


def toy_tables(client: TestClient) -> int:
    games = client.get("/api/games").json()["games"]
    return int(next(g for g in games if g["game"] == "toy")["tables"])


def test_any_front_door_lists_the_whole_room(two_hosts: tuple[TestClient, TestClient]) -> None:
    a, b = two_hosts
    alice = signup(a, "alice", 5000)
    template = offer(a, "toy", {"bet_s": 600})
    b.app.state.authority.templates.forget()  # type: ignore[attr-defined]  (not this test's part)
    on_a = a.post("/api/tables", json={"template": template}, headers=alice).json()["id"]
    on_b = b.post("/api/tables", json={"template": template}, headers=alice).json()["id"]
    assert on_a in services(a).room.tables and on_b in services(b).room.tables
    assert b.post(f"/api/tables/{on_b}/sit", json={"buy_in": 100}, headers=alice).status_code == 200

    assert toy_tables(a) == toy_tables(b) == 2
    staff = operator(a)
    for front in (a, b):
        rows = {
            r["id"]: r for r in front.get("/api/ops/tables", headers=staff.headers).json()["tables"]
        }
        assert set(rows) >= {on_a, on_b}
        here, there = (on_a, on_b) if front is a else (on_b, on_a)
        assert rows[here].get("remote") is None and rows[here]["host"] in ("host-a", "host-b")
        assert rows[there]["remote"] is True and rows[there]["lease_held"] is True
        assert rows[there]["host"] == ("host-b" if front is a else "host-a")
    row_b = next(
        r
        for r in a.get("/api/ops/tables", headers=staff.headers).json()["tables"]
        if r["id"] == on_b
    )
    assert row_b["humans"] == 1 and [s["occupied"] for s in row_b["seats"]].count(True) == 1

    # a closed table leaves the directory
    services(b).room.close(on_b)
    assert toy_tables(a) == 1
    ids = {r["id"] for r in a.get("/api/ops/tables", headers=staff.headers).json()["tables"]}
    assert on_b not in ids and on_a in ids


def test_a_lock_and_a_new_template_reach_the_other_host_at_once(
    two_hosts: tuple[TestClient, TestClient],
) -> None:
    a, b = two_hosts
    bob = signup(a, "bob", 1000)
    assert b.get("/api/wallet", headers=bob).status_code == 200  # host-b caches bob: unlocked
    staff = operator(a)
    r = a.post("/api/ops/players/bob/lock", json={"reason": "chargeback"}, headers=staff.headers)
    assert r.status_code == 200, r.text

    def locked_on_b() -> bool:
        # a lock ends the player's sessions (docs/operators.md, "Locking a player"), so host-b
        # no longer knows the token; signing in again there meets the lock itself
        if b.get("/api/wallet", headers=bob).status_code != 401:
            return False
        reply = b.post("/api/login", json={"username": "bob", "password": "secret-pw"})
        return reply.status_code == 403 and reply.json()["error"]["code"] == "account_locked"

    settle(locked_on_b, "host-b refusing the player host-a locked")
    before = services(b).cluster.metrics.invalidations._value.get()

    offered = {
        t["template"]["id"] for g in b.get("/api/games").json()["games"] for t in g["templates"]
    }
    made = offer(a, "toy", {"bet_s": 30}, name=f"new {secrets.token_hex(3)}")
    assert made not in offered

    def offered_on_b() -> bool:
        games = b.get("/api/games").json()["games"]
        return made in {t["template"]["id"] for g in games for t in g["templates"]}

    settle(offered_on_b, "host-b offering the template host-a created")
    assert services(b).cluster.metrics.invalidations._value.get() > before
