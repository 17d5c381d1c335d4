"""scrypt's threads yield to the event loop: they run at a nice value `NICE` above the
process's (a guesser's wrong passwords must not take a contended core from the
loop that serves everyone else), and the rest of the process keeps its priority."""

from __future__ import annotations

import asyncio
import os
import sys
import threading

import pytest

from qipai.server.passwords import NICE, Hasher


def nice_of_this_thread() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@pytest.mark.skipif(sys.platform != "linux", reason="the nice value is per thread on Linux")
def test_hashing_threads_run_at_a_lower_priority_than_the_loop() -> None:
    before = nice_of_this_thread()
    hasher = Hasher(workers=2, queue=4)
    try:

        async def hash_and_ask() -> tuple[bool, int]:
            ok = await hasher.verify("a-long-password", None, None)  # real scrypt work
            loop = asyncio.get_running_loop()
            return ok, await loop.run_in_executor(hasher._pool, nice_of_this_thread)

        # the event loop in a thread of its own (as the server's is): this test's thread may
        # already run one (playwright's sync API keeps a loop running in the main thread)
        got: dict[str, object] = {}

        def serve() -> None:
            got["result"] = asyncio.run(hash_and_ask())
            got["loop_nice"] = nice_of_this_thread()

        loop_thread = threading.Thread(target=serve)
        loop_thread.start()
        loop_thread.join(120)
        assert "result" in got, "the hashing did not finish"
        ok, hashing = got["result"]  # type: ignore[misc]
    finally:
        hasher.close()
    assert not ok
    assert hashing == min(19, before + NICE)
    assert got["loop_nice"] == before  # the event loop's thread keeps its priority
    assert nice_of_this_thread() == before
    assert os.getpriority(os.PRIO_PROCESS, os.getpid()) == before
