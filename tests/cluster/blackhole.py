"""A TCP relay to Redis that can turn into a black hole, for the Redis-outage tests: the room's
hosts reach Redis through it; `dark()` makes it forward nothing and answer nothing (no reset, no
close: what a network black hole does), `light()` ends the outage. The connections open during
the outage stay dead for good (Redis dropped them meanwhile, and its close was lost in the
hole): only a client that notices on its own and connects again is heard after the outage. The
machine's Redis server is never touched."""

from __future__ import annotations

import asyncio
import contextlib
import threading


class BlackHole:
    """Relays 127.0.0.1:`port` to Redis at (`host`, `redis_port`), on its own event loop in a
    thread (usable from tests on any loop and from host processes)."""

    def __init__(self, host: str = "127.0.0.1", redis_port: int = 6379) -> None:
        self.target = (host, redis_port)
        self.port = 0
        self._dark = threading.Event()
        self._generation = 0
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    def __enter__(self) -> BlackHole:
        self._thread.start()
        started = asyncio.run_coroutine_threadsafe(self._start(), self._loop)
        self.port = started.result(10)
        return self

    def __exit__(self, *_: object) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def url(self, db: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def dark(self) -> None:
        """From now on nothing passes, either way; new connections are accepted and ignored."""
        self._generation += 1
        self._dark.set()

    def light(self) -> None:
        """New connections pass again; those of before the outage stay dead."""
        self._generation += 1
        self._dark.clear()

    async def _start(self) -> int:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return int(self._server.sockets[0].getsockname()[1])

    async def _stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for writer in list(self._writers):
            writer.close()

    async def _relay(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        self._writers.add(client_w)
        born = self._generation
        try:
            if self._dark.is_set():
                await asyncio.Event().wait()  # held open, never answered
            redis_r, redis_w = await asyncio.open_connection(*self.target)
            self._writers.add(redis_w)

            def alive() -> bool:
                return self._generation == born and not self._dark.is_set()

            async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
                while True:
                    data = await src.read(65536)
                    if not data:
                        break
                    if not alive():
                        await asyncio.Event().wait()  # swallowed: the hole, then dead
                    dst.write(data)
                    await dst.drain()

            await asyncio.gather(pipe(client_r, redis_w), pipe(redis_r, client_w))
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            with contextlib.suppress(Exception):
                client_w.close()
