"""A sign-in guard's counts shared by every host of a room (Redis), so that a guesser spreading
attempts over the hosts gets no more than from one (docs/security.md, "Sign-in limits").

The host's own `SignInGuard` still decides first (a flood this host already refuses costs no
round trip); `RoomSignIns` then applies the same limits to the room's counts in Redis: the
attempts per address (moving windows, the `limits` library's Redis storage), the wrong ones per
name from all addresses, the back-offs per name and address and per address (a count and the
time of the last failure per key, kept for the longest back-off), and the addresses each name
signed in from (the last 8). Every command has `timeout_s`; when Redis does not answer, the
host's own counts alone decide (a Redis outage must not stop sign-ins), and that is logged at
most once a minute.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import redis.asyncio as aioredis
from limits import RateLimitItem, parse_many
from limits.aio.storage import RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter
from redis.exceptions import RedisError

from qipai.server.throttle import Backoff, SignInGuard, SignInRefused

log = logging.getLogger("qipai.server.signins")

T = TypeVar("T")
KNOWN = 8
"""Addresses remembered per name (a name past its wrong-attempt limit is open to them)."""
WARN_EVERY_S = 60.0


class RoomSignIns:
    """The room's counts of one kind of sign-in (`guard.kind`), in Redis under
    `<room>:signin:<kind>:…`."""

    def __init__(
        self,
        guard: SignInGuard,
        *,
        url: str,
        room: str,
        rate: str,
        name_rate: str,
        timeout_s: float = 1.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.guard = guard
        self.prefix = f"{room}:signin:{guard.kind}"
        self.clock = clock
        self.timeout_s = timeout_s
        options: dict[str, Any] = {
            "socket_timeout": timeout_s,
            "socket_connect_timeout": timeout_s,
        }
        self.redis: aioredis.Redis = aioredis.Redis.from_url(url, decode_responses=True, **options)
        storage = RedisStorage(
            f"async+{url}", implementation="redispy", key_prefix=self.prefix, **options
        )
        self.limiter = MovingWindowRateLimiter(storage)
        self.attempt: list[RateLimitItem] = parse_many(rate)
        self.name_failures: list[RateLimitItem] = parse_many(name_rate)
        self._warned = -WARN_EVERY_S
        self._tasks: set[asyncio.Task[Any]] = set()

    # ----- the guard's steps (after the host's own guard) ---------------------------------
    async def admit(self, name: str, address: str) -> None:
        """Refuse (`SignInRefused`) on the room's counts, or count the attempt as wrong there
        until `succeed`/`forgive`; Redis not answering refuses nothing."""
        refusal = await self._quietly(self._admit(name, address), None)
        if refusal is not None:
            raise refusal

    def failed(self, name: str) -> None:
        """The admitted attempt was wrong: it counts against the name too (in the background:
        the answer does not wait for Redis)."""
        self._soon(self._hit(self.name_failures, "n", name))

    def forgive(self, name: str, address: str) -> None:
        self._soon(self._forgive(name, address))

    def succeed(self, name: str, address: str) -> None:
        self._soon(self._succeed(name, address))

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await self.redis.aclose()

    def _soon(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(self._quietly(work, None))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ----- in Redis ------------------------------------------------------------------------
    def _key(self, *parts: str) -> str:
        return ":".join((self.prefix, *parts))

    async def _admit(self, name: str, address: str) -> SignInRefused | None:
        pair, addr = self._key("p", name, address), self._key("a", address)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(pair, "count", "last")
            pipe.hmget(addr, "count", "last")
            pipe.lrange(self._key("k", name), 0, KNOWN)
            (pair_state, addr_state, known) = await pipe.execute()
        wait = max(
            self._wait(self.guard.pair, pair_state), self._wait(self.guard.address, addr_state)
        )
        if wait > 0:
            return SignInRefused("too_many_attempts", wait)
        if address not in known and not await self._room_for(self.name_failures, "n", name):
            return SignInRefused("too_many_attempts", await self._retry(self.name_failures, name))
        if not await self._hit(self.attempt, "r", address):
            return SignInRefused("rate_limited", await self._retry(self.attempt, address, "r"))
        keep = int(self.guard.pair.max_s) + 60
        async with self.redis.pipeline(transaction=False) as pipe:
            for key in (pair, addr):
                pipe.hincrby(key, "count", 1)
                pipe.hset(key, "last", repr(self.clock()))
                pipe.expire(key, keep)
            await pipe.execute()
        return None

    def _wait(self, backoff: Backoff, state: list[str | None]) -> float:
        count, last = state
        if count is None or last is None:
            return 0.0
        delay = backoff._delay(int(count))
        return max(0.0, float(last) + delay - self.clock())

    async def _room_for(self, items: list[RateLimitItem], kind: str, key: str) -> bool:
        for item in items:
            if not await self.limiter.test(item, kind, key):
                return False
        return True

    async def _hit(self, items: list[RateLimitItem], kind: str, key: str) -> bool:
        """One event in every window (all or none: tested first)."""
        if not await self._room_for(items, kind, key):
            return False
        for item in items:
            await self.limiter.hit(item, kind, key)
        return True

    async def _retry(self, items: list[RateLimitItem], key: str, kind: str = "n") -> float:
        waits = []
        for item in items:
            stats = await self.limiter.get_window_stats(item, kind, key)
            if stats.remaining <= 0:
                waits.append(stats.reset_time - self.clock())
        return max(waits, default=1.0)

    async def _forgive(self, name: str, address: str) -> None:
        keep = int(self.guard.pair.max_s) + 60
        async with self.redis.pipeline(transaction=False) as pipe:
            for key in (self._key("p", name, address), self._key("a", address)):
                pipe.hincrby(key, "count", -1)
                pipe.expire(key, keep)
            await pipe.execute()

    async def _succeed(self, name: str, address: str) -> None:
        known = self._key("k", name)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.delete(self._key("p", name, address))
            pipe.hincrby(self._key("a", address), "count", -1)
            pipe.expire(self._key("a", address), int(self.guard.pair.max_s) + 60)
            pipe.lrem(known, 0, address)
            pipe.lpush(known, address)
            pipe.ltrim(known, 0, KNOWN - 1)
            pipe.expire(known, 30 * 86400)
            await pipe.execute()

    async def _quietly(self, work: Awaitable[T], default: T) -> T:
        """`work`'s result, or `default` when Redis does not answer (logged once a minute)."""
        try:
            return await work
        except (RedisError, OSError, TimeoutError) as exc:
            now = time.monotonic()
            if now - self._warned >= WARN_EVERY_S:
                self._warned = now
                log.warning("room sign-in counts unavailable (%s): this host's alone", exc)
            return default


__all__ = ["RoomSignIns"]
