"""A Redis outage without a word (a network black hole: no reset, no close, and the connections
of before it dead for good) ends with the room's hosts hearing each other again, on their own,
soon after Redis returns (docs/scaling.md, "Redis outages"): the bus gives up silent commands and
a silent subscription within its timeout, subscribes again with a bounded back-off, and tells
its host (`on_reconnect`), which subscribes its players again to the other hosts' tables. Real
Redis (logical database 4) behind `tests/cluster/blackhole.py`."""

from __future__ import annotations

import asyncio
import secrets
import time

import pytest
from prometheus_client import CollectorRegistry

from qipai.cluster.bus import Bus, CallFailed
from qipai.cluster.metrics import ClusterMetrics
from qipai.core.protocol import JSON
from tests.cluster.blackhole import BlackHole
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
