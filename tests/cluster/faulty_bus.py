"""The room's Redis bus with faults injected, for the fault workload: messages lost at a seeded
rate (on the way out and on the way in), a paused host that neither hears nor speaks, and the
Redis connections of one test room cut (`CLIENT KILL` of its own clients only, in a Redis
logical database of the cluster tests' own: the machine's Redis server is never restarted, other
tests and people use it)."""

from __future__ import annotations

import asyncio
import os
import random
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

import redis
import redis.asyncio as aioredis

from qipai.cluster.bus import Bus
from qipai.cluster.metrics import ClusterMetrics
from qipai.core.protocol import JSON

CLUSTER_REDIS_URL = os.environ.get("QIPAI_TEST_CLUSTER_REDIS_URL", "redis://127.0.0.1:6379/13")
"""A Redis logical database of the cluster tests' own (db 0 is everyone else's)."""

T = TypeVar("T")


class FaultyBus(Bus):
    """A `Bus` that loses messages: each one published or received is dropped with
    probability `drop_rate` (drawn from a seeded generator), and all of them while `paused`."""

    def __init__(
        self, url: str, name: str, host_id: str, metrics: ClusterMetrics, rng: random.Random
    ) -> None:
        super().__init__(url, name, host_id, metrics)
        # named, so that a "Redis restart" cuts exactly this room's connections
        self.redis = aioredis.Redis.from_url(url, decode_responses=True, client_name=name)
        self.rng = rng
        self.drop_rate = 0.0
        self.paused = False
        self.dropped = 0
        self._rng_lock = threading.Lock()

    def _lose(self) -> bool:
        if self.paused:
            self.dropped += 1
            return True
        with self._rng_lock:
            lost = self.drop_rate > 0 and self.rng.random() < self.drop_rate
        if lost:
            self.dropped += 1
        return lost

    async def _publish(self, channel: str, payload: str, kind: str) -> None:
        if not self._lose():
            await super()._publish(channel, payload, kind)

    def _dispatch(self, data: JSON, broadcast: bool) -> None:
        if not self._lose():
            super()._dispatch(data, broadcast)


def cut_connections(url: str, client_name: str) -> int:
    """What a Redis restart does to the room's hosts: every connection of theirs (named
    `client_name`, in this logical database) is closed by the server; they reconnect on their
    own. Returns how many were cut."""
    admin = redis.Redis.from_url(url, decode_responses=True)
    try:
        db = int(admin.connection_pool.connection_kwargs.get("db", 0))
        cut = 0
        for client in admin.client_list():
            if client.get("name") == client_name and int(client.get("db", -1)) == db:
                cut += int(bool(admin.execute_command("CLIENT", "KILL", "ID", client["id"])))
        return cut
    finally:
        admin.close()


class LoopThread:
    """One event loop in a thread of its own, for the buses of a synchronous test."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="bus-loop", daemon=True)
        self.thread.start()

    def run(self, work: Coroutine[Any, Any, T], timeout: float = 30.0) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


__all__ = ["CLUSTER_REDIS_URL", "FaultyBus", "LoopThread", "cut_connections"]
