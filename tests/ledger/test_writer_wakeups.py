"""The writer's leader wakes, after each batch, the threads of that batch and the next leader
only — not every table thread waiting for the writer (with `notify_all` each of them took the
interpreter lock to look and wait again: O(waiting) wake-ups per commit, the largest single
cost of a round in the server's profiles, docs/scaling.md "The hot path")."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace
from typing import Any

import pytest

from qipai.ledger import book

THREADS = 8


class SameChain:
    """An operation on one chain that does not stack: each batch takes one of them."""

    chain = "round:r1"
    stackable = False

    def __init__(self, n: int) -> None:
        self.n = n

    def fast(self, ledger: Any) -> None:
        return None


def test_a_batch_wakes_its_own_threads_and_the_next_leader_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wakes = [0]
    real = threading.Condition

    class Counting(real):  # type: ignore[misc, valid-type]
        def wait(self, timeout: float | None = None) -> bool:
            woke = super().wait(timeout)
            wakes[0] += 1
            return woke

    first = threading.Event()  # made before the count begins: only the writer's are counted
    order: list[int] = []
    results: dict[int, Any] = {}
    threads = [threading.Thread(target=lambda n=n: run(n)) for n in range(THREADS)]
    monkeypatch.setattr(book.threading, "Condition", Counting)
    ledger = SimpleNamespace(cache=SimpleNamespace(lock=threading.Lock()))
    writer = book.Writer(ledger)

    def batch(items: list[Any]) -> None:
        if not first.is_set():  # the first batch waits for every other thread to queue
            first.set()
            deadline = time.monotonic() + 30
            while len(writer._queue) < THREADS - 1 and time.monotonic() < deadline:
                time.sleep(0.005)
        time.sleep(0.02)  # a commit: the others are back waiting before it ends
        for item in items:
            order.append(item.op.n)
            item.value = item.op.n
            item.done = True

    def run(n: int) -> None:
        results[n] = writer.run(SameChain(n))

    monkeypatch.setattr(writer, "_batch", batch)
    threads[0].start()
    first.wait(10)
    for t in threads[1:]:
        t.start()
    for t in threads:
        t.join(30)
    assert results == {n: n for n in range(THREADS)}
    assert sorted(order) == list(range(THREADS))
    # each follower wakes once to lead or to be answered (a spurious wake-up is allowed);
    # waking all of them after every batch was 7 + 6 + … + 1 = 28 wake-ups for 8 threads
    assert wakes[0] <= 2 * (THREADS - 1), wakes[0]
