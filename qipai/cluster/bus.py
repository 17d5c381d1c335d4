"""The room's message bus over Redis pub/sub: calls to a table's owner, and their replies;
messages from an owner's tables to players whose WebSocket is on another process.

Pub/sub, not streams: every message here is safe to lose (a state message is complete, so the
next one replaces a lost one; an action carries its `client_id`, so a client that got no ack
resends it and the owner acknowledges the duplicate without applying it again), so the bus
needs no log, no consumer groups and no acknowledgements, and a message costs one PUBLISH
with no trimming. Each host listens on its own channel `<room>:h:<host>` and on the room's
`<room>:all`.

A message is JSON: `{"k": kind, …}`. Kinds: `call` (op, args, id, from) and `reply` (id, ok
or error) between hosts; `push` (table_id, player, message) from an owner to a front door;
anything else on `<room>:all` goes to the broadcast handler.

Publishing from table threads goes through the event loop: `push_threadsafe` queues the
message, and one task publishes what is queued in one pipeline per turn of the loop.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from qipai.cluster.metrics import ClusterMetrics
from qipai.core.protocol import JSON

log = logging.getLogger("qipai.cluster.bus")

CallHandler = Callable[[str, JSON, str], Coroutine[Any, Any, JSON]]
"""(op, args, caller host) -> the reply's value (raise `CallRefused` for a typed refusal)."""
PushHandler = Callable[[str, str, JSON], None]
BroadcastHandler = Callable[[JSON], Coroutine[Any, Any, None]]

MAX_QUEUED = 100_000
"""Pushes waiting to be published at most (a Redis that is down loses the oldest)."""


class CallRefused(Exception):
    """The owner refused a forwarded call with a typed error (code, message)."""

    def __init__(self, code: str, message: str, extra: JSON | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra or {}


class CallFailed(Exception):
    """No reply in time (the owner is gone, or Redis is)."""


REDIS_CONNECTIONS = 64
"""Connections to Redis per host at most (calls, replies, the publisher, the directory)."""
TIMEOUT_S = 2.0
"""The default (`QIPAI_CLUSTER__REDIS_TIMEOUT_S`): a Redis command, a connection attempt and a subscription silent for this long are given up
(then retried on a new connection): without it, a Redis unreachable without a word (a network
black hole: no reset, no close) left commands and the subscription waiting forever on
connections that were gone, and the room's hosts deaf to each other long after Redis was back
(docs/scaling.md, "Redis outages")."""
RETRY_MAX_S = 1.0
"""The subscription's reconnection back-off doubles from 0.1 s up to this."""


def _dumps(data: JSON) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class Bus:
    def __init__(
        self,
        url: str,
        name: str,
        host_id: str,
        metrics: ClusterMetrics,
        timeout_s: float = TIMEOUT_S,
    ) -> None:
        self.url = url
        self.name = name
        self.host_id = host_id
        self.metrics = metrics
        self.timeout_s = timeout_s
        # a publish waits for a free connection instead of failing past the pool's size
        # (redis-py's default pool raises "Too many connections" past 100: a failover run saw
        # calls and replies lost that way under load, each one a `table_unavailable`)
        self.redis: aioredis.Redis = aioredis.Redis.from_pool(
            aioredis.BlockingConnectionPool.from_url(
                url,
                decode_responses=True,
                max_connections=REDIS_CONNECTIONS,
                timeout=10,
                socket_timeout=timeout_s,
                socket_connect_timeout=timeout_s,
                socket_keepalive=True,
            )
        )
        self.mine = self.channel(host_id)
        self.everyone = f"{name}:all"
        self.on_call: CallHandler | None = None
        self.on_push: PushHandler | None = None
        self.on_broadcast: BroadcastHandler | None = None
        self._pending: dict[str, asyncio.Future[JSON]] = {}
        self._callee: dict[str, str] = {}  # pending call id -> the host asked
        self._queue: collections.deque[tuple[str, str]] = collections.deque(maxlen=MAX_QUEUED)
        self._queue_lock = threading.Lock()
        self._wakeup: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._running: set[asyncio.Task[None]] = set()
        self.ready = asyncio.Event()
        self.connected = False
        self.connected_at: float | None = None
        """When (time.monotonic) the subscription was last (re)established; None while lost."""
        self.on_reconnect: Callable[[], Coroutine[Any, Any, None]] | None = None
        """Run after the subscription came back from a loss: what was sent meanwhile is lost
        (the owners' watchers of this host, say), the host sends it again."""

    def channel(self, host_id: str) -> str:
        return f"{self.name}:h:{host_id}"

    # ----- life -------------------------------------------------------------------------------
    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._wakeup = asyncio.Event()
        self._tasks = [
            asyncio.create_task(self._listen(), name="qipai-bus-listen"),
            asyncio.create_task(self._publisher(), name="qipai-bus-publish"),
        ]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.ready.wait(), 5.0)

    async def stop(self) -> None:
        await self._flush_now()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        for future in self._pending.values():
            if not future.done():
                future.set_exception(CallFailed("the bus stopped"))
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # ----- receiving -----------------------------------------------------------------------
    async def _listen(self) -> None:
        """Subscribe and dispatch; on any loss, subscribe again on a new connection (back-off
        0.1 s doubling up to `RETRY_MAX_S`). The subscription is pinged whenever it has been
        quiet for half of `timeout_s`, and given up when nothing at all (not even the pong) came
        for `timeout_s`: a connection that died without a word is noticed within `timeout_s`,
        and the next attempt after Redis returns succeeds within `RETRY_MAX_S` more."""
        backoff = 0.1
        lost = False
        while True:
            # every answer is heard, confirmations and pongs included: silence means a dead link
            pubsub = self.redis.pubsub(ignore_subscribe_messages=False)
            try:
                await asyncio.wait_for(pubsub.subscribe(self.mine, self.everyone), self.timeout_s)
                await self._confirm(pubsub)
                self.connected = True
                self.connected_at = time.monotonic()
                self.ready.set()
                backoff = 0.1
                if lost:
                    lost = False
                    log.warning("redis subscription back")
                    if self.on_reconnect is not None:
                        self._spawn(self.on_reconnect())
                await self._receive(pubsub)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                raise
            except (RedisError, OSError, TimeoutError) as exc:
                if self.connected or not lost:
                    log.warning("redis subscription lost (%s); retrying", exc or type(exc))
                self.connected = False
                self.connected_at = None
                lost = True
            finally:
                with contextlib.suppress(Exception):
                    # a dead connection's close may wait too: not past the time it is given
                    await asyncio.wait_for(pubsub.aclose(), self.timeout_s)  # type: ignore[no-untyped-call]
            await asyncio.sleep(backoff)
            backoff = min(RETRY_MAX_S, backoff * 2)

    async def _confirm(self, pubsub: Any) -> None:
        """Wait for Redis's first answer on the subscription (TimeoutError after `timeout_s`):
        sending the subscription succeeds on a connection that is dead without a word (the
        pool may hand one out), so only an answer tells that Redis hears it. Any answer counts
        (the subscription's confirmations, the ping's pong: redis-py 8 hands the pong of a
        client decoding responses over in a shape of its own, so none is looked for)."""
        await asyncio.wait_for(pubsub.ping(), self.timeout_s)
        deadline = time.monotonic() + self.timeout_s
        while time.monotonic() < deadline:
            message = await pubsub.get_message(timeout=max(0.01, deadline - time.monotonic()))
            if message is not None:
                self._handle(message)
                return
        raise TimeoutError(f"no answer to the subscription within {self.timeout_s:g} s")

    def _handle(self, message: dict[str, Any]) -> None:
        if message.get("type") != "message":
            return  # a confirmation, a pong
        try:
            data = json.loads(message["data"])
        except (TypeError, ValueError):
            return
        if isinstance(data, dict):
            self._dispatch(data, message.get("channel") == self.everyone)

    async def _receive(self, pubsub: Any) -> None:
        """Dispatch the subscription's messages until it is silent for `timeout_s` (raises
        TimeoutError) or fails."""
        heard = time.monotonic()
        pinged = False
        while True:
            message = await pubsub.get_message(timeout=self.timeout_s / 4)
            now = time.monotonic()
            if message is not None:
                heard, pinged = now, False
                self._handle(message)
                continue
            if now - heard >= self.timeout_s:
                raise TimeoutError(f"the subscription was silent for {self.timeout_s:g} s")
            if not pinged and now - heard >= self.timeout_s / 2:
                await asyncio.wait_for(pubsub.ping(), self.timeout_s)
                pinged = True

    def _dispatch(self, data: JSON, broadcast: bool) -> None:
        kind = data.get("k")
        self.metrics.routed.labels(str(kind)[:16], "in").inc()
        if broadcast:
            if data.get("from") != self.host_id and self.on_broadcast is not None:
                self._spawn(self.on_broadcast(data))
            return
        if kind == "push":
            if self.on_push is not None:
                message = data.get("message")
                if isinstance(message, dict):
                    self.on_push(str(data.get("table_id")), str(data.get("player")), message)
        elif kind == "reply":
            future = self._pending.pop(str(data.get("id")), None)
            if future is not None and not future.done():
                future.set_result(data)
        elif kind == "call":
            self._spawn(self._serve(data))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _serve(self, data: JSON) -> None:
        caller = str(data.get("from"))
        reply: JSON = {"k": "reply", "id": data.get("id")}
        try:
            if self.on_call is None:
                raise CallRefused("unavailable", "this host serves no calls")
            reply["ok"] = await self.on_call(
                str(data.get("op")), dict(data.get("args") or {}), caller
            )
        except CallRefused as exc:
            reply["error"] = {"code": exc.code, "message": exc.message, **exc.extra}
        except Exception as exc:
            log.exception("forwarded call %s failed", data.get("op"))
            reply["error"] = {"code": "internal", "message": f"{type(exc).__name__}"}
        await self._publish(self.channel(caller), _dumps(reply), "reply")

    # ----- sending ---------------------------------------------------------------------------
    async def _publish(self, channel: str, payload: str, kind: str) -> None:
        try:
            await self.redis.publish(channel, payload)
            self.metrics.routed.labels(kind, "out").inc()
        except (RedisError, OSError) as exc:
            log.warning("redis publish failed: %s", exc)

    async def call(self, host_id: str, op: str, args: JSON, timeout: float) -> JSON:
        """Ask `host_id` to do `op`; its reply's value, CallRefused, or CallFailed."""
        loop = asyncio.get_running_loop()
        call_id = secrets.token_hex(8)
        future: asyncio.Future[JSON] = loop.create_future()
        self._pending[call_id] = future
        self._callee[call_id] = host_id
        started = time.perf_counter()
        payload = {"k": "call", "id": call_id, "from": self.host_id, "op": op, "args": args}
        try:
            await self._publish(self.channel(host_id), _dumps(payload), "call")
            reply = await asyncio.wait_for(future, timeout)
        except TimeoutError:
            self.metrics.call_failures.inc()
            raise CallFailed(f"no reply from {host_id} within {timeout:g} s") from None
        finally:
            self._pending.pop(call_id, None)
            self._callee.pop(call_id, None)
        self.metrics.call_seconds.observe(time.perf_counter() - started)
        error = reply.get("error")
        if isinstance(error, dict):
            extra = {k: v for k, v in error.items() if k not in ("code", "message")}
            raise CallRefused(str(error.get("code")), str(error.get("message")), extra)
        value = reply.get("ok")
        return value if isinstance(value, dict) else {}

    def fail_calls_to(self, host_id: str) -> int:
        """Give up every pending call to `host_id` now (CallFailed): it left the host
        directory (died), so no reply will come; the calls waited for it (a long timeout
        lets a busy owner answer late). On the event loop; the number given up."""
        gone = [c for c, h in self._callee.items() if h == host_id]
        for call_id in gone:
            future = self._pending.get(call_id)
            if future is not None and not future.done():
                future.set_exception(CallFailed(f"{host_id} left the room"))
        return len(gone)

    async def broadcast(self, data: JSON) -> None:
        await self._publish(self.everyone, _dumps({**data, "from": self.host_id}), "broadcast")

    def push_threadsafe(self, host_id: str, table_id: str, player: str, message: JSON) -> None:
        """From any thread: hand a table's message to the front door `host_id` (in order)."""
        payload = _dumps({"k": "push", "table_id": table_id, "player": player, "message": message})
        with self._queue_lock:
            self._queue.append((self.channel(host_id), payload))
        loop, wakeup = self._loop, self._wakeup
        if loop is not None and wakeup is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(wakeup.set)

    async def _publisher(self) -> None:
        assert self._wakeup is not None
        while True:
            await self._wakeup.wait()
            self._wakeup.clear()
            await self._flush_now()

    async def _flush_now(self) -> None:
        while True:
            with self._queue_lock:
                batch = [self._queue.popleft() for _ in range(min(500, len(self._queue)))]
            if not batch:
                return
            try:
                pipe = self.redis.pipeline(transaction=False)
                for channel, payload in batch:
                    pipe.publish(channel, payload)
                await pipe.execute()
                self.metrics.routed.labels("push", "out").inc(len(batch))
            except (RedisError, OSError) as exc:
                log.warning("redis publish of %d messages failed: %s", len(batch), exc)
                return

    # ----- the host directory (load, addresses) ---------------------------------------------
    async def announce(self, info: JSON) -> None:
        """Write this host's entry (address, load, time) in the room's host directory."""
        try:
            await self.redis.hset(
                f"{self.name}:hosts", self.host_id, _dumps({**info, "at": time.time()})
            )
        except (RedisError, OSError) as exc:
            log.warning("redis host directory write failed: %s", exc)

    async def withdraw(self) -> None:
        with contextlib.suppress(RedisError, OSError):
            await self.redis.hdel(f"{self.name}:hosts", self.host_id)

    async def hosts(self, fresh_s: float) -> dict[str, JSON]:
        """The live hosts' entries (written within `fresh_s` seconds), by host id."""
        try:
            raw = await self.redis.hgetall(f"{self.name}:hosts")
        except (RedisError, OSError):
            return {}
        now = time.time()
        out: dict[str, JSON] = {}
        for host, text in raw.items():
            try:
                info = json.loads(text)
            except ValueError:
                continue
            if isinstance(info, dict) and now - float(info.get("at", 0)) <= fresh_s:
                out[str(host)] = info
        return out


__all__ = ["Bus", "CallFailed", "CallRefused"]
