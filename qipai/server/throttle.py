"""Rate limits (moving windows in memory, the `limits` library's notation: one process owns
its database) and the sign-in back-off.

* `Rates`: named moving-window limits ("40/second;600/minute") hit per key — actions per player,
  connections, sign-ups and sign-in attempts per address (a few per second at most).
* `Window`: the same moving windows for one key that one task owns (one socket's frames), a
  comparison per event: a flood of thousands of frames per second is refused for almost
  nothing.
* `Backoff`: after `free` wrong passwords in a row for one key (an account, an address), every
  attempt is refused without looking at the password until the back-off has passed; it starts
  at `base_s` and doubles with each further failure up to `max_s`. A right password resets the
  account's count. So 40 wrong passwords in 2.5 s followed by the right one do not sign in:
  the right one arrives during the back-off and is refused like the others.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from limits import RateLimitItem, parse_many


class Window:
    """The moving windows of one key, one per limit ("40/second;600/minute": at most 40 events
    in any second and 600 in any minute), as the times of the events still in each window: an
    event costs a comparison and an append, a refused one a comparison (the `limits` library's
    in-memory store, used before, cost ~0.1 ms per refused hit: a flood of thousands of frames
    a second took most of a core). A refused event is not counted. Not thread-safe: one
    socket's reader owns it; `Rates` guards the windows it keeps per key with its lock."""

    __slots__ = ("_clock", "_windows")

    def __init__(self, items: list[RateLimitItem], clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self._windows = [
            (i.amount, float(i.get_expiry()), deque[float](maxlen=i.amount)) for i in items
        ]

    def wait_s(self) -> float:
        """Seconds until an event would be taken (0: now)."""
        now = self._clock()
        waits = [
            period - (now - times[0])
            for amount, period, times in self._windows
            if len(times) >= amount and now - times[0] < period
        ]
        return max(waits, default=0.0)

    def idle(self, now: float) -> bool:
        """Nothing of this key is in any of its windows any more."""
        return all(not times or now - times[-1] >= period for _, period, times in self._windows)

    def take(self) -> bool:
        """One event: True if every window has room (then it counts in each)."""
        now = self._clock()
        for amount, period, times in self._windows:
            if len(times) >= amount and now - times[0] < period:
                return False
        for _, _, times in self._windows:
            times.append(now)  # full: the oldest (out of its window) falls out
        return True


class Rates:
    """Several named moving-window limits ("40/second;600/minute"), counted per key in this
    process's memory: one `Window` per (limit, key). The `limits` library parses the limits;
    its in-memory storage is not used: after every quiet 10 ms, a hit started a timer thread
    for the storage's expiry, and `Thread.start` waits until the new thread runs, so a sign-in
    or a connection stalled the event loop for as long as a busy machine took to schedule a
    thread. At most `max_keys` keys are kept: the idle ones go first."""

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 100_000,
        **limits: str,
    ) -> None:
        self._clock = clock
        self.max_keys = max_keys
        self._items: dict[str, list[RateLimitItem]] = {
            name: parse_many(text) for name, text in limits.items()
        }
        self._windows: dict[tuple[str, str], Window] = {}
        self._lock = threading.Lock()

    def window(self, name: str) -> Window:
        """A fresh `Window` of limit `name` (for one key that one task owns)."""
        return Window(self._items[name], self._clock)

    def hit(self, name: str, key: str) -> bool:
        """Count one event of `key` under limit `name`; False if over the limit (then the
        event is not counted)."""
        with self._lock:
            found = self._windows.get((name, key))
            if found is None:
                if len(self._windows) >= self.max_keys:
                    self._prune()
                found = self._windows[(name, key)] = Window(self._items[name], self._clock)
            return found.take()

    def retry_after(self, name: str, key: str) -> int:
        """Whole seconds until `key` may try again under `name` (at least 1)."""
        with self._lock:
            found = self._windows.get((name, key))
        return max(1, math.ceil(found.wait_s() if found is not None else 0.0))

    def _prune(self) -> None:
        """Forget the keys with nothing left in their windows; if that frees nothing, the
        oldest tenth."""
        now = self._clock()
        idle = [k for k, w in self._windows.items() if w.idle(now)]
        if not idle:
            idle = list(self._windows)[: max(1, len(self._windows) // 10)]
        for key in idle:
            del self._windows[key]


@dataclass
class _Failures:
    count: int = 0
    last: float = 0.0


class Backoff:
    """Exponential back-off after repeated failures per key (thread-safe)."""

    def __init__(
        self,
        free: int,
        base_s: float,
        max_s: float,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 100_000,
    ) -> None:
        self.free = free
        self.base_s = base_s
        self.max_s = max_s
        self.clock = clock
        self.max_keys = max_keys
        self._failures: dict[str, _Failures] = {}
        self._lock = threading.Lock()

    def _delay(self, count: int) -> float:
        if count < self.free:
            return 0.0
        return float(min(self.max_s, self.base_s * 2.0 ** min(count - self.free, 60)))

    def wait_s(self, key: str) -> float:
        """Seconds `key` must still wait before an attempt is looked at (0: go ahead)."""
        with self._lock:
            entry = self._failures.get(key)
            if entry is None:
                return 0.0
            left = entry.last + self._delay(entry.count) - self.clock()
            if left <= 0 and self.clock() - entry.last > self.max_s:
                del self._failures[key]  # quiet for longer than any back-off: forgotten
            return max(0.0, left)

    def fail(self, key: str) -> None:
        with self._lock:
            if key not in self._failures and len(self._failures) >= self.max_keys:
                self._forget_oldest()
            entry = self._failures.setdefault(key, _Failures())
            entry.count += 1
            entry.last = self.clock()

    def forgive(self, key: str) -> None:
        """Take back one failure counted in advance (the attempt turned out right, or was
        never looked at)."""
        with self._lock:
            entry = self._failures.get(key)
            if entry is not None:
                entry.count -= 1
                if entry.count <= 0:
                    del self._failures[key]

    def succeed(self, key: str) -> None:
        with self._lock:
            self._failures.pop(key, None)

    def _forget_oldest(self) -> None:
        """Bounded memory: drop the longest-quiet tenth when the table is full."""
        ordered = sorted(self._failures.items(), key=lambda kv: kv[1].last)
        for key, _ in ordered[: max(1, len(ordered) // 10)]:
            del self._failures[key]


class Door:
    """Addresses over their WebSocket connection limit, refused at the door for a while: the
    server's first protocol (`gate.GateProtocol`) refuses their new connections at accept (held
    unread until the window ends, then reset: `gate.Tarpit`), before any request is read (a
    client reconnecting in a loop cost the event loop an HTTP parse, a handshake and a request
    each); `serving.QipaiWebSocketProtocol` drops an upgrade that was
    accepted before the door shut. An address is shut for the time its limiter window needs,
    but never longer than `max_s` at a time (the door shuts plain HTTP too: a bounded window,
    after which the limiter looks at one connection again). `refused` is called once per
    refusal (the metric). Used on the event loop only."""

    def __init__(
        self,
        max_keys: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
        max_s: float = 5.0,
        refused: Callable[[], None] | None = None,
    ):
        self.max_keys = max_keys
        self.clock = clock
        self.max_s = max_s
        self.refused = refused
        self._until: dict[str, float] = {}

    def close_to(self, address: str, seconds: float) -> None:
        if len(self._until) >= self.max_keys:
            now = self.clock()
            self._until = {k: v for k, v in self._until.items() if v > now}
            if len(self._until) >= self.max_keys:
                return  # full of live refusals: the limiter still refuses them one by one
        self._until[address] = self.clock() + min(seconds, self.max_s)

    def remaining(self, address: str) -> float:
        """Seconds until `address`'s door opens again (0.0 when it is open); not a refusal."""
        until = self._until.get(address)
        return 0.0 if until is None else max(0.0, until - self.clock())

    def shut(self, address: str) -> bool:
        """Whether `address` is refused now (a refusal: counted)."""
        until = self._until.get(address)
        if until is None:
            return False
        if until <= self.clock():
            del self._until[address]
            return False
        if self.refused is not None:
            self.refused()
        return True


class SignInGuard:
    """Sign-in attempts of one kind (players' or operators'), refused before any password is
    hashed (docs/security.md, "Sign-in limits"):

    * per address: at most `rate` attempts (moving windows), and a back-off after
      `address_free` wrong ones from it;
    * per name and address: a back-off after `pair_free` wrong ones — a stranger's guesses back
      off the stranger's address, never the owner's (no account lock-out anyone can trigger);
    * per name: at most `name_rate` wrong ones from all addresses together; past it, only the
      addresses that signed in to that name before are looked at (a guesser spread over many
      addresses gets a bounded number of guesses; the owner at a known address still signs in).

    A wrong attempt is counted when admitted (`admit`) and taken back if it turns out right or
    was never looked at (`forgive`, `succeed`): guesses sent together cannot all pass while the
    first ones are still being hashed. Thread-safe; memory bounded by each part's `max_keys`."""

    def __init__(
        self,
        kind: str,
        *,
        rate: str,
        name_rate: str,
        pair_free: int,
        address_free: int,
        base_s: float,
        max_s: float,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 100_000,
    ) -> None:
        self.kind = kind
        self.rates = Rates(clock=clock, max_keys=max_keys, attempt=rate, name_failures=name_rate)
        self.pair = Backoff(pair_free, base_s, max_s, clock, max_keys)
        self.address = Backoff(address_free, base_s, max_s, clock, max_keys)
        self._known: dict[str, deque[str]] = {}
        self.max_keys = max_keys
        self._lock = threading.Lock()

    def admit(self, name: str, address: str) -> None:
        """Refuse (`SignInRefused`, with the seconds to wait) or count one attempt as wrong
        until `succeed`/`forgive` say otherwise."""
        pair = f"{name}\x00{address}"
        wait = max(self.pair.wait_s(pair), self.address.wait_s(address))
        if wait > 0:
            raise SignInRefused("too_many_attempts", wait)
        if self._name_closed(name) and not self._known_at(name, address):
            wait = self.rates.retry_after("name_failures", name)
            raise SignInRefused("too_many_attempts", wait)
        if not self.rates.hit("attempt", address):
            raise SignInRefused("rate_limited", self.rates.retry_after("attempt", address))
        self.pair.fail(pair)
        self.address.fail(address)

    def failed(self, name: str) -> None:
        """The admitted attempt was wrong: it counts against the name too."""
        self.rates.hit("name_failures", name)

    def forgive(self, name: str, address: str) -> None:
        """The admitted attempt was not looked at (busy, cancelled) or its password was right
        (a second factor still to come): not a wrong one."""
        self.pair.forgive(f"{name}\x00{address}")
        self.address.forgive(address)

    def succeed(self, name: str, address: str) -> None:
        self.pair.succeed(f"{name}\x00{address}")
        self.address.forgive(address)
        with self._lock:
            if name not in self._known and len(self._known) >= self.max_keys:
                self._known.pop(next(iter(self._known)))
            known = self._known.setdefault(name, deque(maxlen=8))
            if address not in known:
                known.append(address)

    def _name_closed(self, name: str) -> bool:
        with self.rates._lock:
            window = self.rates._windows.get(("name_failures", name))
            return window is not None and window.wait_s() > 0

    def _known_at(self, name: str, address: str) -> bool:
        with self._lock:
            return address in self._known.get(name, ())


class SignInRefused(Exception):
    """A sign-in refused before its password was looked at: `code` (`rate_limited`,
    `too_many_attempts`) and the whole seconds to wait."""

    def __init__(self, code: str, wait_s: float) -> None:
        self.code = code
        self.seconds = max(1, math.ceil(wait_s))
        super().__init__(f"{code}: try again in {self.seconds} s")


__all__ = ["Backoff", "Door", "Rates", "SignInGuard", "SignInRefused", "Window"]
