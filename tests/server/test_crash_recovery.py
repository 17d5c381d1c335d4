"""kill -9 a real server mid-round; on restart the round resumes from its journal with the same
seed and deal (the players' private views come back), and settles correctly."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "browser"))
import helpers  # registers the toy game
from roomserver import ROOT, Server

from qipai.authority import Authority
from qipai.authority.oplog import SYSTEM
from qipai.core.rng import verify
from qipai.ledger import Ledger

assert helpers.TOY

TOY_ENV = {
    "QIPAI_EXTRA_GAMES": "helpers",
    "PYTHONPATH": str(ROOT / "tests" / "tables"),
    "QIPAI_BOT_DELAY": "0.1",
    "QIPAI_BETWEEN_ROUNDS": "30",
}


def until(ws: Any, pred: Any, limit: float = 60.0) -> dict[str, Any]:
    end = time.time() + limit
    while time.time() < end:
        msg = json.loads(ws.recv(timeout=max(0.1, end - time.time())))
        if pred(msg):
            return msg  # type: ignore[no-any-return]
    raise AssertionError("message never came")


@pytest.mark.slow
def test_kill_9_mid_round_then_resume(tmp_path: Path) -> None:
    with Ledger.open(str(tmp_path / "room.db")) as ledger:  # the operator's slow toy table
        slow = Authority(ledger.engine).templates.create(
            {"game": "toy", "name": "slow toy", "settings": {"bet_s": 120}}, SYSTEM
        )
    server = Server(tmp_path / "room.db", TOY_ENV)
    server.start()
    try:
        http = httpx.Client(base_url=server.url, timeout=60)
        tokens = {}
        for name in ("alice", "bob"):
            r = http.post("/api/signup", json={"username": name, "password": "secret-pw"})
            tokens[name] = r.json()["token"]
            auth = {"Authorization": f"Bearer {tokens[name]}"}
            http.post("/api/wallet/deposit", json={"amount": 1000}, headers=auth)
        alice = {"Authorization": f"Bearer {tokens['alice']}"}
        bob = {"Authorization": f"Bearer {tokens['bob']}"}
        tid = http.post("/api/tables", json={"template": slow.id}, headers=alice).json()["id"]
        http.post(f"/api/tables/{tid}/sit", json={"buy_in": 100}, headers=alice)
        http.post(f"/api/tables/{tid}/sit", json={"buy_in": 100}, headers=bob)
        ws_url = server.url.replace("http", "ws")
        with connect(f"{ws_url}/ws") as ws:
            ws.send(json.dumps({"type": "auth", "token": tokens["alice"]}))
            ws.send(json.dumps({"type": "subscribe", "table_id": tid}))
            before = until(ws, lambda m: m["type"] == "state" and m["legal"])
            ws.send(
                json.dumps(
                    {
                        "type": "action",
                        "table_id": tid,
                        "client_id": "a-1",
                        "version": before["version"],
                        "action": {"type": "bet", "amount": 7},
                    }
                )
            )
            until(ws, lambda m: m["type"] == "ack")
        round_id = before["round"]["round_id"]
        my_card = before["round"]["view"]["cards"]["A"]
        commitment = before["round"]["commitment"]
        server.kill9()

        server.start()
        http = httpx.Client(base_url=server.url, timeout=60)
        with (
            connect(f"{ws_url}/ws") as wa,
            connect(f"{ws_url}/ws") as wb,
        ):
            wa.send(json.dumps({"type": "auth", "token": tokens["alice"]}))
            wb.send(json.dumps({"type": "auth", "token": tokens["bob"]}))
            wa.send(json.dumps({"type": "subscribe", "table_id": tid}))
            wb.send(json.dumps({"type": "subscribe", "table_id": tid}))
            back = until(wa, lambda m: m["type"] == "state" and m["round"] is not None)
            # the same round, the same deal, alice's journaled bet, her private view back
            assert back["round"]["round_id"] == round_id
            assert back["round"]["commitment"] == commitment
            assert back["round"]["view"]["cards"]["A"] == my_card
            assert back["round"]["view"]["cards"]["B"] is None
            assert back["round"]["view"]["bets"] == {"A": 7}
            # a retry of the journaled action is recognised after the restart
            wa.send(
                json.dumps(
                    {
                        "type": "action",
                        "table_id": tid,
                        "client_id": "a-1",
                        "version": before["version"],
                        "action": {"type": "bet", "amount": 7},
                    }
                )
            )
            assert until(wa, lambda m: m["type"] == "ack")["duplicate"] is True
            bob_sees = until(wb, lambda m: m["type"] == "state" and m["legal"])
            # docs/rules/common.md#countdowns: the countdown the crash interrupted starts again in
            # full once the player it waits for is back (however long the restart took)
            assert bob_sees["round"]["round_id"] == round_id
            assert bob_sees["round"]["deadline"] - bob_sees["server_time"] == pytest.approx(
                120, abs=1
            )
            wb.send(
                json.dumps(
                    {
                        "type": "action",
                        "table_id": tid,
                        "client_id": "b-1",
                        "version": bob_sees["version"],
                        "action": {"type": "bet", "amount": 3},
                    }
                )
            )
            until(wb, lambda m: m["type"] == "ack")
            for ws, seat in ((wa, "A"), (wb, "B")):
                state = until(
                    ws,
                    lambda m, s=seat: (
                        m["type"] == "state" and m["round"] and m["round"]["awaiting"] == [s]
                    ),
                    30,
                )
                ws.send(
                    json.dumps(
                        {
                            "type": "action",
                            "table_id": tid,
                            "client_id": f"{seat}-stand",
                            "version": state["version"],
                            "action": {"type": "stand"},
                        }
                    )
                )
                assert state["round"]["round_id"] == round_id
            done = until(
                wa,
                lambda m: (
                    m["type"] == "state" and m["result"] and m["result"]["round_id"] == round_id
                ),
            )
        nets = done["result"]["nets"]
        assert sorted(nets.values()) in ([-7, 7], [-3, 3])
        detail = http.get(f"/api/rounds/{round_id}", headers=alice).json()
        assert detail["status"] == "settled" and detail["commitment"] == commitment
        assert detail["seed"] and verify(detail["seed"], commitment)
        me = http.get("/api/me", headers=alice).json()
        assert me["tables"][0]["stack"] == 100 + nets["A"]
    finally:
        server.stop()


@pytest.mark.slow
def test_a_round_that_cannot_be_replayed_suspends_its_table_alone_at_start_up(
    tmp_path: Path,
) -> None:
    """Start-up never fails because of what is in the database. One table's open
    round cannot be replayed (its journal holds an action the deal refuses): the server starts,
    the other table plays on, the bad one is listed as suspended with its reason and its stakes
    are back on the players' stacks, and `qipai audit` passes."""
    import subprocess

    from qipai.tables.ledger_adapter import LedgerAdapter
    from qipai.tables.ports import JournalEntry

    db = tmp_path / "room.db"
    with Ledger.open(str(db)) as ledger:
        slow = Authority(ledger.engine).templates.create(
            {"game": "toy", "name": "slow toy", "settings": {"bet_s": 120}}, SYSTEM
        )
    server = Server(db, TOY_ENV)
    server.start()
    try:
        http = httpx.Client(base_url=server.url, timeout=60)
        auth = {}
        for name in ("alice", "bob", "carol", "dave"):
            r = http.post("/api/signup", json={"username": name, "password": "secret-pw"})
            auth[name] = {"Authorization": f"Bearer {r.json()['token']}"}
            http.post("/api/wallet/deposit", json={"amount": 1000}, headers=auth[name])
        tids = []
        for a, b in (("alice", "bob"), ("carol", "dave")):
            r = http.post("/api/tables", json={"template": slow.id}, headers=auth[a])
            tid = r.json()["id"]
            for p in (a, b):
                sat = http.post(f"/api/tables/{tid}/sit", json={"buy_in": 100}, headers=auth[p])
                assert sat.status_code == 200, sat.text
            tids.append(tid)
        bad, good = tids
        end = time.time() + 60
        while time.time() < end:  # both tables deal their first round
            infos = [http.get(f"/api/tables/{t}").json() for t in tids]
            if all(i["playing"] for i in infos):
                break
            time.sleep(0.2)
        server.kill9()

        with Ledger.open(str(db)) as ledger:  # the bad table's journal now cannot be replayed
            adapter = LedgerAdapter(ledger)
            [open_round] = adapter.open_rounds(bad)
            seq = len(open_round.entries) + 1
            adapter.append(
                open_round.record.round_id,
                JournalEntry(seq, "A", {"type": "bet", "amount": 999}, None),
            )
            bad_round = open_round.record.round_id

        server.start()
        http = httpx.Client(base_url=server.url, timeout=60)
        listed = {t["id"]: t for t in http.get("/api/tables").json()["tables"]}
        assert listed, server.output()
        assert listed[bad]["status"] == "suspended"
        assert bad_round in listed[bad]["status_reason"]
        assert "could not be resumed" in listed[bad]["status_reason"]
        assert listed[good]["status"] == "playing"
        me = http.get("/api/me", headers=auth["alice"]).json()
        assert [t["stack"] for t in me["tables"] if t["table_id"] == bad] == [100]
        ws_url = server.url.replace("http", "ws")
        with connect(f"{ws_url}/ws") as ws:  # the other table plays on
            ws.send(json.dumps({"type": "auth", "token": auth["carol"]["Authorization"][7:]}))
            ws.send(json.dumps({"type": "subscribe", "table_id": good}))
            carol_sees = until(ws, lambda m: m["type"] == "state" and m["legal"])
            ws.send(
                json.dumps(
                    {
                        "type": "action",
                        "table_id": good,
                        "client_id": "c-1",
                        "version": carol_sees["version"],
                        "action": {"type": "bet", "amount": 4},
                    }
                )
            )
            heard: dict[str, Any] = {}

            def both(m: dict[str, Any]) -> bool:
                if m["type"] in ("ack", "error"):
                    heard["reply"] = m
                if m["type"] == "state" and m["round"] and m["round"]["view"]["bets"].get("A"):
                    heard["state"] = m
                return len(heard) == 2

            until(ws, both)
            assert heard["reply"]["type"] == "ack"
            assert heard["state"]["round"]["view"]["bets"]["A"] == 4
    finally:
        server.stop()
    audit = subprocess.run(
        [sys.executable, "-m", "qipai.cli", "audit", "--db", str(db)],
        cwd=ROOT,
        env=server.env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert audit.returncode == 0, audit.stdout + audit.stderr
