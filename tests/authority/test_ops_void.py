"""An operator's void of a round a live table is playing goes through that table (docs/operators.md):
the table ends the round by its own interrupted-game path (suspended, stakes back, its deal
unit ended and revealed, nothing of the round left in its memory) — never a ledger write
behind the running table's back, which would leave it dealing a round the books call void."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from qipai.authority import Authority
from qipai.ledger.schema import round_ends
from qipai.server.app import create_app
from qipai.server.settings import Settings
from qipai.tables.table import Timing
from tests.authority.helpers import enrol, offer, signup


@pytest.fixture
def room(tmp_path: Path) -> Iterator[tuple[TestClient, Authority]]:
    settings = Settings(signup_rate="1000/minute")  # type: ignore[call-arg]
    app = create_app(str(tmp_path / "room.db"), settings=settings, timing=Timing(0.02, 0.1, 1.0))
    with TestClient(app) as client:
        yield client, app.state.authority


def _bet_and_wait(client: TestClient, headers: dict[str, str], table_id: str) -> dict[str, Any]:
    """Bet 100 on the first spot over the WebSocket; the state once the bet is in (the round
    open, its long betting countdown running)."""
    token = headers["Authorization"].removeprefix("Bearer ")
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "auth", "token": token})
        ws.send_json({"type": "subscribe", "table_id": table_id})
        sent = False
        for _ in range(500):
            msg = ws.receive_json()
            if msg.get("type") == "error":
                raise AssertionError(msg)
            if msg.get("type") != "state" or not msg.get("round"):
                continue
            if msg["legal"] and not sent:
                spot = msg["legal"][0]
                assert spot["type"] == "bet", spot
                ws.send_json(
                    {
                        "type": "action",
                        "table_id": table_id,
                        "client_id": "b1",
                        "version": msg["version"],
                        "action": {"type": "bet", "spot": "P1", "amount": 100},
                    }
                )
                sent = True
            elif sent and "bets" in [e["type"] for e in msg["events"]]:
                return msg
    raise AssertionError("the bet was never taken")


def test_a_void_at_a_live_table_goes_through_the_table(
    room: tuple[TestClient, Authority],
) -> None:
    client, authority = room
    app: Any = client.app
    ledger, live = app.state.ledger, app.state.room
    olga = enrol(client, authority, "olga").headers
    template = offer(client, "pokdeng", {"betting_s": 120}, "slow betting")
    bob = signup(client, "bob", deposit=50_000)
    table_id = client.post("/api/tables", json={"template": template}, headers=bob).json()["id"]
    r = client.post(f"/api/tables/{table_id}/sit", json={"buy_in": 10_000}, headers=bob)
    assert r.status_code == 200, r.text
    state = _bet_and_wait(client, bob, table_id)
    round_id = state["round"]["round_id"]
    table = live.tables[table_id]
    assert table.record is not None and table.record.round_id == round_id
    held = ledger.stack("bob", table_id)
    assert held < 10_000  # the bet is held
    commitment = state["fairness"]["current"]["commitment"]

    r = client.post(
        f"/api/ops/rounds/{round_id}/void", json={"reason": "dealer error"}, headers=olga
    )
    assert r.status_code == 200, r.text
    assert r.json()["how"] == "table suspended"
    assert r.json()["round"]["status"] == "voided"
    # the table's own interruption: it holds no round, is suspended, the stake is back
    assert table.record is None and table.round is None
    assert table.status().state == "suspended"
    assert ledger.stack("bob", table_id) == 10_000
    with ledger.engine.connect() as conn:
        reason = conn.execute(
            select(round_ends.c.reason).where(round_ends.c.round_id == round_id)
        ).scalar_one()
    assert reason == "interrupted: round voided by an operator: dealer error"
    # the void ended the deal unit: its seed is shown, the next round gets a new commitment
    fairness = table.snapshot().fairness
    shown = [u for u in fairness["revealed"] if u["commitment"] == commitment]
    assert shown and shown[0]["seed"] and round_id in shown[0]["rounds"]
    assert fairness["next_commitment"] != commitment
    assert ledger.audit(replay=False).ok
    (entry,) = [e for e in authority.log.entries(actor="olga") if e["action"] == "round.void"]
    assert entry["target"] == round_id and entry["detail"]["how"] == "table suspended"

    # the table plays on from a new unit once resumed; the voided round cannot be voided again
    again = client.post(f"/api/ops/rounds/{round_id}/void", json={"reason": "twice"}, headers=olga)
    assert again.status_code == 409
    r = client.post(f"/api/ops/tables/{table_id}/resume", json={"reason": "fixed"}, headers=olga)
    assert r.status_code == 200, r.text
    assert table.status().state != "suspended"


def test_void_and_resume_in_one_step(room: tuple[TestClient, Authority]) -> None:
    """`resume: true` voids the round (stake back) and the table plays on at once from a new
    deal unit: both steps in the operator log, no separate resume."""
    client, authority = room
    app: Any = client.app
    ledger, live = app.state.ledger, app.state.room
    olga = enrol(client, authority, "olga").headers
    template = offer(client, "pokdeng", {"betting_s": 120}, "slow betting")
    bob = signup(client, "bob", deposit=50_000)
    table_id = client.post("/api/tables", json={"template": template}, headers=bob).json()["id"]
    r = client.post(f"/api/tables/{table_id}/sit", json={"buy_in": 10_000}, headers=bob)
    assert r.status_code == 200, r.text
    state = _bet_and_wait(client, bob, table_id)
    round_id = state["round"]["round_id"]
    commitment = state["fairness"]["current"]["commitment"]
    table = live.tables[table_id]
    bad = client.post(
        f"/api/ops/rounds/{round_id}/void",
        json={"reason": "dealer error", "resume": "yes"},
        headers=olga,
    )
    assert bad.status_code == 422 and table.record is not None  # refused, nothing changed
    r = client.post(
        f"/api/ops/rounds/{round_id}/void",
        json={"reason": "dealer error", "resume": True},
        headers=olga,
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["round"]["status"] == "voided" and body["resumed"] is True
    assert body["how"] == "table suspended and resumed"
    assert table.status().state != "suspended" and table.suspension is None
    # every stake back (a new round may already hold some of the stack again)
    stack = f"stack:bob:{table_id}"
    assert ledger.wallet("bob") + ledger.balance(stack) + ledger.balance(f"hold:{stack}") == 50_000
    assert table.snapshot().fairness["next_commitment"] != commitment  # a new deal unit
    actions = [e["action"] for e in authority.log.entries(actor="olga")]
    assert "round.void" in actions and "table.resume" in actions
    assert ledger.audit(replay=False).ok


def test_a_round_no_table_plays_is_voided_in_the_ledger(
    room: tuple[TestClient, Authority],
) -> None:
    """An open round whose table this process does not run (gone after a crash) is voided in
    the ledger: every stake returned."""
    client, authority = room
    app: Any = client.app
    ledger, live = app.state.ledger, app.state.room
    olga = enrol(client, authority, "olga").headers
    template = offer(client, "pokdeng", {"betting_s": 120}, "slow betting")
    bob = signup(client, "bob", deposit=50_000)
    table_id = client.post("/api/tables", json={"template": template}, headers=bob).json()["id"]
    client.post(f"/api/tables/{table_id}/sit", json={"buy_in": 10_000}, headers=bob)
    round_id = _bet_and_wait(client, bob, table_id)["round"]["round_id"]
    table = live.tables[table_id]
    with table.lock:
        table.timers.stop()  # the table stops here, as if its process died …
        del live.tables[table_id]  # … and nothing runs it
    r = client.post(f"/api/ops/rounds/{round_id}/void", json={"reason": "table lost"}, headers=olga)
    assert r.status_code == 200, r.text
    assert r.json()["how"] == "voided in the ledger"
    assert r.json()["round"]["status"] == "voided"
    assert ledger.stack("bob", table_id) == 10_000 and ledger.audit(replay=False).ok
