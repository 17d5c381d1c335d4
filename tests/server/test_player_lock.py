"""An operator's lock acts at once (docs/operators.md#locking-a-player): the locked player's round
settles with their stake, they are dealt nothing after it, their seat stands up, their sockets
close with `account_locked` (4403), sign-in is refused; unlocked, they play again. On SQLite
and PostgreSQL."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from starlette.websockets import WebSocketDisconnect

from qipai.ledger.schema import round_ends
from qipai.server.sockets import ACCOUNT_LOCKED
from tests.authority.helpers import enrol, error, offer, signup
from tests.server.rooms import room, room_settings

__all__ = ["room", "room_settings"]


def _bet(ws: Any, table_id: str, done: bool, round_id: str | None = None) -> str:
    """Bet 100 on P1 in the next betting round (not `round_id`); returns the round's id."""
    for _ in range(2000):
        msg = ws.receive_json()
        if msg.get("type") == "error":
            raise AssertionError(msg)
        rnd = msg.get("round") if msg.get("type") == "state" else None
        if rnd and rnd["round_id"] != round_id and msg["legal"]:
            ws.send_json(
                {
                    "type": "action",
                    "table_id": table_id,
                    "client_id": "b",
                    "version": msg["version"],
                    "action": {
                        "type": "bets",
                        "bets": [{"spot": "P1", "amount": 100}],
                        "done": done,
                    },
                }
            )
            return str(rnd["round_id"])
    raise AssertionError("no betting round came")


def _socket(stack: ExitStack, client: TestClient, headers: dict[str, str], table_id: str) -> Any:
    sock = stack.enter_context(client.websocket_connect("/ws"))
    sock.send_json({"type": "auth", "token": headers["Authorization"].removeprefix("Bearer ")})
    sock.send_json({"type": "subscribe", "table_id": table_id})
    return sock


def _closed(ws: Any) -> WebSocketDisconnect:
    for _ in range(2000):
        try:
            ws.receive_json()
        except WebSocketDisconnect as exc:
            return exc
    raise AssertionError("the socket stayed open")


@pytest.mark.timeout(120)
def test_a_lock_stands_the_player_up_after_the_round_and_closes_their_sockets(
    room: tuple[TestClient, str],
) -> None:
    client, _ = room
    app: Any = client.app
    ledger, live, authority = app.state.ledger, app.state.room, app.state.authority
    olga = enrol(client, authority, "olga").headers
    template = offer(client, "pokdeng", {"betting_s": 120}, "slow betting")
    bob = signup(client, "bob", deposit=50_000)
    carol = signup(client, "carol", deposit=50_000)
    table_id = client.post("/api/tables", json={"template": template}, headers=bob).json()["id"]
    for who in (bob, carol):
        r = client.post(f"/api/tables/{table_id}/sit", json={"buy_in": 10_000}, headers=who)
        assert r.status_code == 200, r.text
    with ExitStack() as stack:  # a test that fails still closes its sockets
        bob_ws = _socket(stack, client, bob, table_id)
        carol_ws = _socket(stack, client, carol, table_id)
        round_id = _bet(bob_ws, table_id, done=True)
        table = live.tables[table_id]
        for _ in range(2000):  # bob's stake is held by the running round (carol has not confirmed)
            if ledger.stack("bob", table_id) < 10_000:
                break
            bob_ws.receive_json()
        assert ledger.stack("bob", table_id) < 10_000

        r = client.post(
            "/api/ops/players/bob/lock", json={"reason": "self-exclusion request"}, headers=olga
        )
        assert r.status_code == 200, r.text
        closed = _closed(bob_ws)
        assert closed.code == ACCOUNT_LOCKED and closed.reason.startswith("account_locked")
        # still seated, in the running round, its stake in play; it is dealt nothing after it
        seat = table.seating.seat_of("bob")
        assert seat is not None and table.seating.seats[seat].leaving
        assert table.record is not None and table.record.round_id == round_id
        # no request, no new socket, no sign-in
        assert error(client.get("/api/me", headers=bob))["code"] in {
            "auth_required",
            "account_locked",
        }
        with client.websocket_connect("/ws") as again:
            again.send_json({"type": "auth", "token": bob["Authorization"].removeprefix("Bearer ")})
            assert _closed(again).code in {ACCOUNT_LOCKED, 4401}
        r = client.post("/api/login", json={"username": "bob", "password": "secret-pw"})
        assert r.status_code == 403 and error(r)["code"] == "account_locked", r.text

        # carol confirms: the round settles with bob's stake, and bob stands up after it
        _bet(carol_ws, table_id, done=True, round_id=None)
        next_round = _bet(carol_ws, table_id, done=False, round_id=round_id)
        with ledger.engine.connect() as conn:
            end = conn.execute(
                select(round_ends.c.status, round_ends.c.accounts).where(
                    round_ends.c.round_id == round_id
                )
            ).one()
        assert end.status == "settled"
        assert table.seating.seat_of("bob") is None and ledger.stack("bob", table_id) == 0
        assert table.record is not None and table.record.round_id == next_round
        assert all(s != seat for s, _, _ in table.record.seats)  # bob is not dealt in
        # the stack, less or more the settled stake, is back in the wallet
        assert 49_000 <= ledger.wallet("bob") <= 51_000 and ledger.wallet("bob") != 40_000
        assert ledger.audit(replay=False).ok

    # unlocked: bob signs in and sits again
    r = client.post("/api/ops/players/bob/unlock", json={"reason": "lifted"}, headers=olga)
    assert r.status_code == 200, r.text
    r = client.post("/api/login", json={"username": "bob", "password": "secret-pw"})
    assert r.status_code == 200, r.text
    bob2 = {"Authorization": f"Bearer {r.json()['token']}"}
    r = client.post(f"/api/tables/{table_id}/sit", json={"buy_in": 10_000}, headers=bob2)
    assert r.status_code == 200, r.text
