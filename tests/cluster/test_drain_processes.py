"""An operator drains a table host, with real processes (PostgreSQL + Redis): two `qipai serve`
hosts with tables mid-round; an operator with a full TOTP session asks host B to drain host A
(`POST /api/ops/hosts/{A}/drain`, forwarded over Redis); A hands each of its tables over at the
table's round boundary, so B owns them all with the same seats, every round that was open when
the drain began was settled once, `qipai audit` passes, and A then exits by itself (code 0).
An auditor and a player may not drain."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import httpx
import pyotp
import pytest
from websockets.sync.client import connect

from tests.cluster.hosts import (
    ROOT,
    Directory,
    HostProcess,
    audit,
    host_env,
    host_of,
    require_cluster_services,
    room_database,
    seats_of,
    sign_up,
    start_hosts,
    wait_for,
)

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]

NEW_PASSWORD = "a long operator password for the drain"


def room() -> Iterator[tuple[str, dict[str, str]]]:
    require_cluster_services()
    with room_database() as db_url:
        yield db_url, host_env(f"t{time.time_ns()}")


def staff(db_url: str, env: dict[str, str], http: httpx.Client, name: str, role: str) -> str:
    """`qipai operator add` and the first sign-in (password changed, TOTP enrolled): a full
    session's token."""
    added = subprocess.run(
        [sys.executable, "-m", "qipai.cli", "operator", "add", name, "--role", role,
         "--db", db_url],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    once = added.stdout.strip().splitlines()[-1]
    login = http.post("/api/ops/login", json={"name": name, "password": once}).json()
    auth = {"Authorization": f"Bearer {login['token']}"}
    changed = http.post(
        "/api/ops/password",
        json={"old_password": once, "new_password": NEW_PASSWORD},
        headers=auth,
    )
    assert changed.status_code == 200, changed.text
    secret = http.post("/api/ops/totp/enrol", headers=auth).json()["secret"]
    done = http.post(
        "/api/ops/totp/confirm", json={"code": pyotp.TOTP(secret).now()}, headers=auth
    ).json()
    assert done["stage"] == "full", done
    return str(login["token"])


def play(host: HostProcess, auth: dict[str, str], table_id: str, stop: threading.Event) -> None:
    """A person at the table who bets the minimum every round (so nobody is ever stood up as
    away); reconnects when its front door's socket ends, and keeps going until `stop`."""
    token = auth["Authorization"].split()[1]
    while not stop.is_set():
        with contextlib.suppress(Exception), connect(host.ws_url, open_timeout=30) as ws:
            ws.send(json.dumps({"type": "auth", "token": token}))
            ws.send(json.dumps({"type": "subscribe", "table_id": table_id}))
            acted: set[str] = set()
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    msg = json.loads(ws.recv(timeout=0.5))
                    rnd = msg.get("round") if msg.get("type") == "state" else None
                    if not rnd or rnd["finished"] or rnd["round_id"] in acted:
                        continue
                    bet = next((a for a in msg.get("legal", []) if a["type"] == "bets"), None)
                    if bet is None:
                        continue
                    spot = next(iter(bet["spots"]))
                    acted.add(rnd["round_id"])
                    ws.send(json.dumps({
                        "type": "action", "table_id": table_id,
                        "client_id": f"{token[:6]}-{rnd['round_id'][:10]}",
                        "version": msg["version"],
                        "action": {"type": "bets", "done": True,
                                   "bets": [{"spot": spot, "amount": bet["spots"][spot]["min"]}]},
                    }))  # fmt: skip
        time.sleep(0.2)


def test_an_operator_drains_a_host_and_its_tables_move_at_round_boundaries(
    room: tuple[str, dict[str, str]],
) -> None:
    db_url, env = room
    directory = Directory(db_url)
    a, b = start_hosts(db_url, env, 2)
    stop = threading.Event()
    players: list[threading.Thread] = []
    try:
        with httpx.Client(base_url=a.url, timeout=60) as http:
            seated: dict[str, str] = {}
            people: list[tuple[dict[str, str], str]] = []
            for i in range(3):  # automatched on A itself: its tables (alone, with bots)
                auth = sign_up(http, f"player{i}")
                reply = http.post(
                    "/api/automatch",
                    json={"game": "pokdeng", "buy_in": 10_000},
                    headers={**auth, "X-Qipai-Forwarded": "1"},  # placed here, not by load
                )
                reply.raise_for_status()
                seated[f"player{i}"] = reply.json()["table_id"]
                people.append((auth, seated[f"player{i}"]))
        for auth, table_id in people:  # each person plays through B, the front door
            players.append(
                threading.Thread(target=play, args=(b, auth, table_id, stop), daemon=True)
            )
            players[-1].start()
        owners = directory.owners()
        doomed = sorted({t for t in seated.values() if host_of(owners[t][0], [a]) is a})
        assert doomed, owners
        host_a = str(owners[doomed[0]][0])
        wait_for("a round in play at A", lambda: any(directory.open_round(t) for t in doomed))
        seats_before = {t: seats_of(b, t) for t in doomed}

        with httpx.Client(base_url=b.url, timeout=60) as http:
            operator = {"Authorization": f"Bearer {staff(db_url, env, http, 'olga', 'supervisor')}"}
            auditor = {"Authorization": f"Bearer {staff(db_url, env, http, 'aldo', 'auditor')}"}
            listed = http.get("/api/ops/hosts", headers=auditor).json()
            assert host_a in {h["host"] for h in listed["hosts"]}, listed
            reason = {"reason": "kernel upgrade on A"}
            refused = http.post(f"/api/ops/hosts/{host_a}/drain", json=reason, headers=auditor)
            assert refused.status_code == 403, refused.text
            player = sign_up(http, "mallory")
            refused = http.post(f"/api/ops/hosts/{host_a}/drain", json=reason, headers=player)
            assert refused.status_code == 403, refused.text
            unknown = http.post("/api/ops/hosts/nobody-1-x/drain", json=reason, headers=operator)
            assert unknown.status_code == 404, unknown.text

            in_play = {t: found for t in doomed if (found := directory.open_round(t))}
            drained = http.post(f"/api/ops/hosts/{host_a}/drain", json=reason, headers=operator)
            assert drained.status_code == 200, drained.text
            status = drained.json()
            assert status["draining"] is True and status["host"] == host_a, status
            assert status["by"] == "olga" and status["tables"] == len(doomed), status

        assert a.proc is not None
        wait_for("host A to stop once drained", lambda: a.proc.poll() is not None)  # type: ignore[union-attr]
        assert a.proc.returncode == 0, a.log.read_text()[-3000:]
        assert "drained: stopping" in a.log.read_text()
        assert "did not reach a round boundary" not in a.log.read_text()

        def moved() -> bool:
            now = directory.owners()
            return all(now[t][1] and host_of(now[t][0], [b]) is b for t in doomed)

        wait_for("every table of A owned by B", moved)
        for round_id, _ in in_play.values():
            # the round open when the drain began was finished on A, at its end, and settled
            assert directory.round_status(round_id) == "settled", round_id
        for table_id in doomed:
            assert seats_of(b, table_id) == seats_before[table_id]
        assert b.metric("qipai_takeovers_total") >= len(doomed)
    finally:
        stop.set()
        for thread in players:
            thread.join(10)
        for host in (a, b):
            host.stop()
    assert directory.settled_twice() == [] and directory.settlements_twice() == []
    directory.close()
    checked = audit(db_url, env)
    assert checked.returncode == 0, checked.stdout + checked.stderr
