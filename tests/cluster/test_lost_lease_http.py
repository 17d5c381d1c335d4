"""A request racing the loss of its table's lease (another host took the table over) on a
real PostgreSQL: sitting down, standing up and acting answer 409 `table_moved` in the server's
one error shape, never a 500, and move no money; an operator's void of a round at a table
another live host runs is refused (409 `table_elsewhere`, naming that host), the round still
open and its seed still sealed."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tables"))
import helpers  # noqa: F401  (registers the toy game)

from qipai.cluster.settings import ClusterSettings
from qipai.ledger import Ledger
from qipai.server.app import create_app
from qipai.server.settings import Settings
from qipai.tables.table import Timing
from tests.authority.helpers import enrol, error, offer, signup
from tests.cluster.hosts import room_database

pytestmark = pytest.mark.postgres


@pytest.fixture
def host_a() -> Iterator[tuple[TestClient, Ledger]]:
    with room_database() as url:
        settings = Settings(cluster=ClusterSettings(host_id="host-a"))
        app = create_app(url, settings=settings, timing=Timing(0.05, 0.2, 0.05))
        with TestClient(app) as client:
            # the lease thread stands still: the test decides when host-a notices its loss
            client.app.state.services.cluster.ownership.stop()  # type: ignore[attr-defined]
            other = Ledger.open(url)
            try:
                yield client, other
            finally:
                other.close()


def take_over(ledger: Ledger, table_id: str, host: str = "host-b") -> int:
    """`host` claims the table (its lease made to lapse first: host-a was paused)."""
    with ledger.engine.begin() as conn:
        conn.execute(
            text(
                "UPDATE table_leases SET expires_at = now() - interval '1 second' WHERE table_id = :t"
            ),
            {"t": table_id},
        )
    epoch = ledger.claim_table(table_id, host, 600.0)
    assert epoch is not None
    return epoch


def moved(response: Any) -> None:
    assert response.status_code == 409, response.text
    assert set(response.json()) == {"error"}
    assert error(response)["code"] == "table_moved"


def test_sit_leave_and_act_racing_a_lost_lease_are_409_table_moved(
    host_a: tuple[TestClient, Ledger],
) -> None:
    client, ledger = host_a
    alice, bob = signup(client, "alice", 5000), signup(client, "bob", 5000)
    template = offer(client, "toy", {"bet_s": 600})
    tid = client.post("/api/tables", json={"template": template}, headers=alice).json()["id"]
    assert (
        client.post(f"/api/tables/{tid}/sit", json={"buy_in": 100}, headers=alice).status_code
        == 200
    )
    take_over(ledger, tid)
    wallets = (ledger.wallet("alice"), ledger.wallet("bob"), ledger.stack("alice", tid))

    # host-a has not noticed yet: its buy-in / cash-out are refused by the fence in the
    # transfer's own transaction, and the request is told the table moved
    moved(client.post(f"/api/tables/{tid}/sit", json={"buy_in": 100}, headers=bob))
    # the table stopped here at once: every later request is told so too
    moved(client.post(f"/api/tables/{tid}/leave", headers=alice))
    moved(client.post(f"/api/tables/{tid}/bots", json={}, headers=alice))
    with client.websocket_connect("/ws") as ws:
        token = alice["Authorization"].removeprefix("Bearer ")
        ws.send_json({"type": "auth", "token": token})
        ws.send_json(
            {
                "type": "action",
                "table_id": tid,
                "action": {"type": "bet", "amount": 3},
                "client_id": "c-1",
                "version": "-.0000000000000000",  # well-formed: the table's move is what counts
            }
        )
        for _ in range(50):
            msg = ws.receive_json()
            if msg.get("type") == "error":
                break
        assert msg["code"] == "table_moved", msg

    # host-a's lease pass drops the table: a request after that is told it moved, not 404
    svc = client.app.state.services  # type: ignore[attr-defined]
    svc.cluster.ownership.renew()
    assert tid not in svc.room.tables
    moved(client.post(f"/api/tables/{tid}/sit", json={"buy_in": 100}, headers=bob))
    moved(client.post(f"/api/tables/{tid}/leave", headers=alice))
    assert (ledger.wallet("alice"), ledger.wallet("bob"), ledger.stack("alice", tid)) == wallets


def test_an_operator_void_of_another_hosts_round_is_refused_naming_the_host(
    host_a: tuple[TestClient, Ledger],
) -> None:
    client, ledger = host_a
    authority = client.app.state.authority  # type: ignore[attr-defined]
    staff = enrol(client, authority, "olga")
    alice, bob = signup(client, "alice", 5000), signup(client, "bob", 5000)
    template = offer(client, "toy", {"bet_s": 600})
    tid = client.post("/api/tables", json={"template": template}, headers=alice).json()["id"]
    for who in (alice, bob):
        assert (
            client.post(f"/api/tables/{tid}/sit", json={"buy_in": 100}, headers=who).status_code
            == 200
        )
    svc = client.app.state.services  # type: ignore[attr-defined]
    for _ in range(400):
        rounds = ledger.open_rounds(tid)
        if rounds:
            break
        svc.room.wake(tid)
        import time

        time.sleep(0.05)  # (the table's worker opens the round: not a timed assertion)
    assert rounds, "no round opened"
    round_id = str(rounds[0]["round_id"])
    take_over(ledger, tid, "host-b")
    svc.cluster.ownership.renew()  # host-a drops the table
    assert tid not in svc.room.tables

    r = client.post(
        f"/api/ops/rounds/{round_id}/void", json={"reason": "a stuck round"}, headers=staff.headers
    )
    assert r.status_code == 409, r.text
    body = error(r)
    assert body["code"] == "table_elsewhere" and "host-b" in body["message"]
    info = ledger.round(round_id)
    assert info["status"] == "open"
    assert info["seed"] is None and not info["seed_revealed"]  # still sealed
