"""One event loop per test, in a thread of its own: a session-wide Playwright browser (the
browser tests) keeps an event loop running in the main thread, where `asyncio.run()` is
refused, so a test that needs a loop must not depend on the test order.

* `loop_thread()` — a loop running in its own thread while the test goes on in its thread;
  at exit its remaining tasks are cancelled and it is closed (as `asyncio.run` would).
* `run_in_fresh_loop(scenario)` — `asyncio.run(scenario())` on such a loop; the result, or the
  scenario's exception re-raised in the test's thread.
* `with_loop(fn)` — `fn(loop)` called in the test's thread while the loop runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, TypeVar

T = TypeVar("T")


@contextlib.contextmanager
def loop_thread(name: str = "test-loop") -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name=name, daemon=True)
    thread.start()
    try:
        yield loop
    finally:

        async def tidy() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await loop.shutdown_asyncgens()
            await loop.shutdown_default_executor()

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(tidy(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
        if not thread.is_alive():
            loop.close()


def run_in_fresh_loop(scenario: Callable[[], Coroutine[Any, Any, T]], timeout: float = 120.0) -> T:
    with loop_thread() as loop:
        return asyncio.run_coroutine_threadsafe(scenario(), loop).result(timeout)


def with_loop(fn: Callable[[asyncio.AbstractEventLoop], T]) -> T:
    with loop_thread() as loop:
        return fn(loop)
