"""The gate (`qipai/server/gate.py`): an address the door has shut is reset at TCP accept,
before uvicorn's HTTP protocol exists or a byte of its request is read; other addresses are
served as before; the shut window is bounded and ends (a client reconnecting in a
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

from qipai.server.gate import GateProtocol, Tarpit
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
    def __init__(self, tarpit: Tarpit | None = None) -> None:
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
        if tarpit is not None:
            self.app.state.tarpit = tarpit
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
def served(request: pytest.FixtureRequest) -> Iterator[Served]:
    made.clear()
    s = Served(getattr(request, "param", None))
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


def wait_for(check: Any) -> None:
    for _ in range(500):
        if check():
            return
        time.sleep(0.02)
    raise AssertionError("never happened")


def request_from(port: int, timeout: float) -> socket.socket:
    raw = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    raw.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    return raw


def answered_nothing(raw: socket.socket) -> bool:
    """The connection ended with no byte of a response (an EOF or a reset)."""
    try:
        return raw.recv(100) == b""
    except ConnectionResetError:
        return True


@pytest.mark.parametrize("served", [Tarpit(per_address=2, total=8)], indirect=True)
def test_a_shut_address_is_held_unread_until_its_window_ends(served: Served) -> None:
    """A client that reconnects as soon as it is refused waits on its held connection instead
    of spinning (with the reset alone, a reconnecting flooder came back thousands of times a
    second); the held connection is read by nobody and reset when the window ends."""
    tarpit = served.app.state.tarpit
    served.door.close_to("127.0.0.1", 0.5)  # the window the refusal is held for: 0.5 s
    with request_from(served.port, timeout=30) as raw:
        wait_for(lambda: tarpit.held("127.0.0.1") == 1)
        assert tarpit.held() == 1
        assert answered_nothing(raw)  # when the window ends: reset, never answered
    wait_for(lambda: tarpit.held() == 0)
    assert made == [] and served.requests == []  # no HTTP protocol, no request
    assert served.refusals == 1


@pytest.mark.parametrize("served", [Tarpit(per_address=1, total=8)], indirect=True)
def test_past_its_bound_a_shut_address_is_reset_at_once(served: Served) -> None:
    tarpit = served.app.state.tarpit
    served.door.close_to("127.0.0.1", 30.0)  # held for up to the door's 5 s
    with request_from(served.port, timeout=30) as held:
        wait_for(lambda: tarpit.held("127.0.0.1") == 1)
        # the address has its one held connection: the next is reset, not held (a held one
        # would wait out the window: the 2 s timeout would end it first, unanswered)
        with request_from(served.port, timeout=2) as second:
            assert answered_nothing(second)
        assert tarpit.held("127.0.0.1") == 1 and served.refusals == 2
        assert served.get("127.0.0.2") == 200  # another address is served meanwhile
        assert answered_nothing(held)
    assert made == ["127.0.0.2"] and served.requests == ["127.0.0.2"]


def test_the_tarpit_bounds_each_address_and_the_whole() -> None:
    tarpit = Tarpit(per_address=2, total=3)
    assert tarpit.take("a") and tarpit.take("a")
    assert not tarpit.take("a")  # the address's bound
    assert tarpit.take("b")
    assert not tarpit.take("c")  # the whole's bound
    tarpit.let_go("a")
    assert tarpit.held("a") == 1 and tarpit.held() == 2
    assert tarpit.take("c") and tarpit.held("c") == 1
    tarpit.let_go("a")
    assert tarpit.held("a") == 0 and tarpit.held() == 2
    assert not Tarpit(per_address=0).take("a")  # QIPAI_HELD_PER_ADDRESS=0: every refusal reset
