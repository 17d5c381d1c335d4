"""The gate (`qipai/server/gate.py`): an address the door has shut is reset at TCP accept,
before uvicorn's HTTP protocol exists or a byte of its request is read; other addresses are
served as before; the shut window is bounded and ends (issue 15: a client reconnecting in a
loop costs the event loop an address lookup, not a parse)."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from qipai.server.gate import GateProtocol
from qipai.server.throttle import Door

made: list[str] = []
"""The client address of every HTTP protocol the gate let uvicorn make."""


class CountingHttp(GateProtocol.inner):  # type: ignore[misc,name-defined]
    def connection_made(self, transport: Any) -> None:
        made.append(transport.get_extra_info("peername")[0])
        super().connection_made(transport)


class CountingGate(GateProtocol):
    inner = CountingHttp


class Served:
    def __init__(self) -> None:
        self.now = 1000.0
        self.refusals = 0
        self.requests: list[str] = []

        def refused() -> None:
            self.refusals += 1

        async def home(request: Request) -> PlainTextResponse:
            self.requests.append(request.client.host if request.client else "?")
            return PlainTextResponse("ok")

        self.app = Starlette(routes=[Route("/", home)])
        self.door = Door(clock=lambda: self.now, max_s=5.0, refused=refused)
        self.app.state.door = self.door
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, http=CountingGate, log_level="warning"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve()))

    def get(self, source: str) -> int:
        transport = httpx.HTTPTransport(local_address=source)
        with httpx.Client(transport=transport, timeout=10) as http:
            return http.get(f"http://127.0.0.1:{self.port}/").status_code


@pytest.fixture
def served() -> Iterator[Served]:
    made.clear()
    s = Served()
    s.thread.start()
    for _ in range(500):
        if s.server.started:
            break
        time.sleep(0.02)
    assert s.server.started
    yield s
    s.server.should_exit = True
    s.thread.join(10)


def test_a_shut_address_is_reset_at_accept_before_its_request_is_read(served: Served) -> None:
    served.door.close_to("127.0.0.1", 60.0)
    with (
        socket.create_connection(("127.0.0.1", served.port), timeout=10) as raw,
        pytest.raises(OSError),  # reset, or refused on the first write after it
    ):
        raw.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        if raw.recv(100) == b"":
            raise ConnectionResetError("closed without a response")
    with pytest.raises(httpx.TransportError):
        served.get("127.0.0.1")
    assert made == [] and served.requests == []  # no HTTP protocol, no request
    assert served.refusals == 2


def test_other_addresses_are_served_while_one_is_shut(served: Served) -> None:
    served.door.close_to("127.0.0.1", 60.0)
    assert served.get("127.0.0.2") == 200
    assert made == ["127.0.0.2"] and served.requests == ["127.0.0.2"]
    assert served.refusals == 0


def test_the_shut_window_is_bounded_and_ends(served: Served) -> None:
    served.door.close_to("127.0.0.1", 60.0)  # the limiter asked for a minute: at most 5 s
    served.now += 4.9
    with pytest.raises(httpx.TransportError):
        served.get("127.0.0.1")
    served.now += 0.2
    assert served.get("127.0.0.1") == 200
    assert served.requests == ["127.0.0.1"] and served.refusals == 1
