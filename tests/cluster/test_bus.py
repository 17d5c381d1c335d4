"""The Redis bus between two hosts (real Redis): a call reaches the owner and its reply comes
back, a typed refusal stays typed, a call to a host that is gone fails in time instead of
hanging, pushes from table threads arrive in order, broadcasts reach the others only."""

from __future__ import annotations

import asyncio
import secrets
import threading

import pytest
from prometheus_client import CollectorRegistry

from qipai.cluster.bus import Bus, CallFailed, CallRefused
from qipai.cluster.metrics import ClusterMetrics
from qipai.core.protocol import JSON
from tests.cluster.hosts import REDIS_URL
from tests.conftest import port_open, require_service
from tests.loops import run_in_fresh_loop

pytestmark = pytest.mark.redis


def make_bus(room: str, host: str) -> Bus:
    return Bus(REDIS_URL, room, host, ClusterMetrics(CollectorRegistry(), host))


def test_calls_pushes_and_broadcasts_between_two_hosts() -> None:
    require_service(port_open("127.0.0.1", 6379), f"Redis ({REDIS_URL})")

    async def scenario() -> None:
        room = f"bus-{secrets.token_hex(4)}"
        owner, front = make_bus(room, "owner"), make_bus(room, "front")

        async def on_call(op: str, args: JSON, caller: str) -> JSON:
            if op == "refuse":
                raise CallRefused("wrong_phase", "not now")
            return {"op": op, "echo": args, "caller": caller}

        owner.on_call = on_call
        pushed: list[tuple[str, str, JSON]] = []
        front.on_push = lambda t, p, m: pushed.append((t, p, m))
        heard: list[JSON] = []

        async def on_broadcast(data: JSON) -> None:
            heard.append(data)

        owner.on_broadcast = on_broadcast
        front.on_broadcast = on_broadcast
        await owner.start()
        await front.start()
        try:
            reply = await front.call("owner", "act", {"x": 1}, timeout=5)
            assert reply == {"op": "act", "echo": {"x": 1}, "caller": "front"}
            with pytest.raises(CallRefused) as refused:
                await front.call("owner", "refuse", {}, timeout=5)
            assert refused.value.code == "wrong_phase"
            with pytest.raises(CallFailed):
                await front.call("nobody", "act", {}, timeout=0.3)

            def table_thread() -> None:
                for i in range(50):
                    owner.push_threadsafe("front", "t1", "alice", {"n": i})

            worker = threading.Thread(target=table_thread)
            worker.start()
            worker.join()
            for _ in range(100):
                if len(pushed) == 50:
                    break
                await asyncio.sleep(0.05)
            assert [m["n"] for _, _, m in pushed] == list(range(50))
            assert {(t, p) for t, p, _ in pushed} == {("t1", "alice")}

            await owner.broadcast({"k": "moved", "table_id": "t1", "owner": "owner"})
            for _ in range(100):
                if heard:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.1)
            assert [h["k"] for h in heard] == ["moved"]  # the sender does not hear itself
            assert heard[0]["from"] == "owner"
        finally:
            await owner.stop()
            await front.stop()

    run_in_fresh_loop(scenario)  # a loop of its own (tests/loops.py)


def test_calls_to_a_host_that_left_the_room_fail_at_once() -> None:
    """A forwarded action waits long for a busy owner (`play_timeout_s`), but not for a dead
    one: when the owner leaves the host directory its pending calls fail (CallFailed) at
    once, and calls to other hosts go on waiting."""
    require_service(port_open("127.0.0.1", 6379), f"Redis ({REDIS_URL})")

    async def scenario() -> None:
        room = f"bus-{secrets.token_hex(4)}"
        front = make_bus(room, "front")
        await front.start()
        try:
            doomed = asyncio.create_task(front.call("dead", "act", {}, timeout=30))
            other = asyncio.create_task(front.call("slow", "act", {}, timeout=30))
            await asyncio.sleep(0.2)
            assert front.fail_calls_to("dead") == 1
            with pytest.raises(CallFailed):
                await asyncio.wait_for(doomed, 1.0)
            assert not other.done()
            other.cancel()
        finally:
            await front.stop()

    run_in_fresh_loop(scenario)
