"""The rate limits: moving windows per key that never start a thread (the `limits` library's
memory storage started a timer thread on a hit, and `Thread.start` waits for the new thread:
a stall of the event loop on a busy machine), with its limits' meaning and bounded memory."""

from __future__ import annotations

import threading
import time

import pytest

from qipai.server.throttle import Door, Rates


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_hit_never_starts_a_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    rates = Rates(login="30/minute", connect="10/second;300/minute")

    def refuse(self: threading.Thread) -> None:
        raise AssertionError(f"a rate-limit hit started a thread ({self!r})")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    for _ in range(3):
        assert rates.hit("login", "127.0.0.1")
        assert rates.hit("connect", "127.0.0.1")
        time.sleep(0.03)  # quiet for longer than the old storage's 10 ms expiry timer


def test_moving_windows_per_key_and_the_wait_they_announce() -> None:
    clock = Clock()
    rates = Rates(clock=clock, connect="3/second;5/minute")
    assert [rates.hit("connect", "a") for _ in range(4)] == [True, True, True, False]
    assert rates.hit("connect", "b")  # another key has its own windows
    assert rates.retry_after("connect", "a") == 1
    clock.now += 1.0
    assert [rates.hit("connect", "a") for _ in range(3)] == [True, True, False]  # 5 a minute
    assert 58 <= rates.retry_after("connect", "a") <= 60
    clock.now += 60.0
    assert rates.hit("connect", "a")
    assert rates.retry_after("connect", "nobody") == 1


def test_memory_is_bounded_idle_keys_first() -> None:
    clock = Clock()
    rates = Rates(clock=clock, max_keys=10, action="2/second")
    for i in range(10):
        rates.hit("action", f"old{i}")
    clock.now += 5.0  # the old keys are idle now: the first new key makes room
    assert rates.hit("action", "new")
    assert len(rates._windows) == 1
    for i in range(30):  # none idle: the oldest tenth goes
        rates.hit("action", f"new{i}")
    assert len(rates._windows) <= 10


def test_the_door_shuts_for_the_limiters_wait_at_most_max_s_and_counts_refusals() -> None:
    clock = Clock()
    counted: list[int] = []
    door = Door(clock=clock, max_s=5.0, refused=lambda: counted.append(1))
    door.close_to("a", 1.5)
    assert door.shut("a") and not door.shut("b")
    clock.now += 1.6
    assert not door.shut("a")  # its own window has room again
    door.close_to("a", 58.0)  # a minute's window: the door stays shut 5 s, not 58
    clock.now += 4.9
    assert door.shut("a")
    clock.now += 0.2
    assert not door.shut("a")
    assert len(counted) == 2  # one per refusal, none for a connection let in
