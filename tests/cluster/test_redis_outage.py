"""A Redis outage without a word (a network black hole: no reset, no close, and the connections
of before it dead for good) ends with the room's hosts hearing each other again, on their own,
soon after Redis returns (docs/scaling.md, "Redis outages"): the bus gives up silent commands and
a silent subscription within its timeout, subscribes again with a bounded back-off, and tells
its host (`on_reconnect`), which subscribes its players again to the other hosts' tables. Real
Redis (logical database 4) behind `tests/cluster/blackhole.py`."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import threading
import time

import httpx
import pytest
from prometheus_client import CollectorRegistry
from websockets.sync.client import connect

from qipai.cluster.bus import Bus, CallFailed
from qipai.cluster.metrics import ClusterMetrics
from qipai.core.protocol import JSON
from tests.cluster.blackhole import BlackHole
from tests.cluster.hosts import (
    PACE,
    HostProcess,
    host_env,
    require_cluster_services,
    room_database,
    sign_up,
    wait_for,
)
from tests.conftest import port_open, require_service
from tests.loops import run_in_fresh_loop

pytestmark = pytest.mark.redis

OUTAGE_S = 6.0
"""Longer than the bus's timeout (2 s) several times over: every connection dies in it."""
BOUND_S = 60.0
"""How long the test waits for the hosts to hear each other again (generous: a busy machine);
the time it took is printed (benchmarks/bench_redis_outage.py measures it)."""


async def _until_heard(front: Bus, owner: str) -> float:
    """Seconds until a call from `front` to `owner` is answered (short calls, again and again)."""
    started = time.monotonic()
    while time.monotonic() - started < BOUND_S:
        try:
            await front.call(owner, "ping", {}, timeout=1.0)
            return time.monotonic() - started
        except CallFailed:
            await asyncio.sleep(0.1)
    raise AssertionError(f"{owner} not heard within {BOUND_S:g} s of Redis returning")


def test_hosts_hear_each_other_again_after_a_black_hole() -> None:
    require_service(port_open("127.0.0.1", 6379), "Redis (127.0.0.1:6379)")

    async def scenario(hole: BlackHole) -> None:
        room = f"outage-{secrets.token_hex(4)}"
        url = hole.url(4)
        buses = {
            name: Bus(url, room, name, ClusterMetrics(CollectorRegistry(), name))
            for name in ("owner", "front")
        }
        reconnected: list[str] = []

        for name, bus in buses.items():

            async def on_call(op: str, args: JSON, caller: str, name: str = name) -> JSON:
                return {"host": name}

            async def on_reconnect(name: str = name) -> None:
                reconnected.append(name)

            bus.on_call = on_call
            bus.on_reconnect = on_reconnect
            await bus.start()
        front, owner = buses["front"], buses["owner"]
        try:
            assert await front.call("owner", "ping", {}, timeout=5) == {"host": "owner"}
            hole.dark()
            await asyncio.sleep(OUTAGE_S)
            hole.light()
            to_owner = await _until_heard(front, "owner")
            to_front = await _until_heard(owner, "front")
            print(f"heard again {to_owner:.1f} s / {to_front:.1f} s after Redis returned")
            assert sorted(reconnected) == ["front", "owner"]
        finally:
            for bus in buses.values():
                await asyncio.wait_for(bus.stop(), 30)

    with BlackHole() as hole:
        run_in_fresh_loop(lambda: scenario(hole), timeout=BOUND_S * 3)


HOSTS_OUTAGE_S = 15.0
"""The outage of the room test: as long as the one that once left every table standing."""


def _watch(
    host: HostProcess,
    auth: dict[str, str],
    table_id: str,
    rounds: dict[str, float],
    stop: threading.Event,
) -> None:
    """A person at the table through `host` (a front door that does not run it): bets the
    minimum every round and notes when each round was first seen."""
    token = auth["Authorization"].split()[1]
    while not stop.is_set():
        with contextlib.suppress(Exception), connect(host.ws_url, open_timeout=30) as ws:
            ws.send(json.dumps({"type": "auth", "token": token}))
            ws.send(json.dumps({"type": "subscribe", "table_id": table_id}))
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    msg = json.loads(ws.recv(timeout=0.5))
                    rnd = msg.get("round") if msg.get("type") == "state" else None
                    if not rnd:
                        continue
                    rounds.setdefault(rnd["round_id"], time.monotonic())
                    bet = next((a for a in msg.get("legal", []) if a["type"] == "bets"), None)
                    if rnd["finished"] or bet is None:
                        continue
                    spot = next(iter(bet["spots"]))
                    ws.send(json.dumps({
                        "type": "action", "table_id": table_id,
                        "client_id": f"{token[:6]}-{rnd['round_id'][:10]}",
                        "version": msg["version"],
                        "action": {"type": "bets", "done": True,
                                   "bets": [{"spot": spot, "amount": bet["spots"][spot]["min"]}]},
                    }))  # fmt: skip
        time.sleep(0.2)


@pytest.mark.slow
@pytest.mark.postgres
def test_every_table_deals_again_to_other_front_doors_after_a_black_hole() -> None:
    """Two `qipai serve` hosts reach Redis through the black hole; people sit at A's tables
    through B. Redis goes dark for 15 s; after it returns, every person sees a new round of
    their table through B (bounded wait; the time it took is printed)."""
    require_cluster_services()
    with BlackHole() as hole, room_database() as db_url:
        env = host_env(f"t{time.time_ns()}")
        extra = [*PACE, "--redis", hole.url(4)]
        a, b = HostProcess(db_url, env, extra), HostProcess(db_url, env, extra)
        stop = threading.Event()
        seen: dict[str, dict[str, float]] = {}
        people: list[threading.Thread] = []
        try:
            a.start()
            b.start()
            with httpx.Client(base_url=a.url, timeout=60) as http:
                for i in range(2):  # automatched on A itself: its own tables
                    auth = sign_up(http, f"player{i}")
                    reply = http.post(
                        "/api/automatch",
                        json={"game": "pokdeng", "buy_in": 10_000},
                        headers={**auth, "X-Qipai-Forwarded": "1"},
                    )
                    reply.raise_for_status()
                    table_id = reply.json()["table_id"]
                    rounds: dict[str, float] = {}
                    seen[f"player{i}"] = rounds
                    people.append(
                        threading.Thread(
                            target=_watch, args=(b, auth, table_id, rounds, stop), daemon=True
                        )
                    )
                    people[-1].start()
            wait_for("every person sees a round through B", lambda: all(seen.values()))
            hole.dark()
            time.sleep(HOSTS_OUTAGE_S)
            before = {name: set(rounds) for name, rounds in seen.items()}
            back = time.monotonic()
            hole.light()

            def dealt_again() -> bool:
                return all(set(seen[name]) - before[name] for name in seen)

            wait_for("every table dealing again through B", dealt_again, timeout=BOUND_S * 2)
            took = max(
                min(t for r, t in seen[name].items() if r not in before[name]) - back
                for name in seen
            )
            print(f"every table dealt a new round through B {took:.1f} s after Redis returned")
        finally:
            stop.set()
            for thread in people:
                thread.join(10)
            for host in (a, b):
                host.stop()
