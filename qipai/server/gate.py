"""The server's first protocol on every TCP connection: an address the door has shut
(`throttle.Door`: over its WebSocket connection limit) is refused at accept, before any byte of
its request is read or parsed; every other connection is handed to uvicorn's HTTP protocol.

A client that reconnects in a loop once refused (a measured flood, reconnecting thousands of
times a second) used to cost the event loop, per reconnection, uvicorn's HTTP protocol, the
parse of its upgrade request and a WebSocket protocol, only for
`serving.QipaiWebSocketProtocol` to drop it; here it costs an address lookup.

What a shut address sees: its new connections — WebSocket or plain HTTP — are *held* unread
(`Tarpit`: the connection is accepted, nothing is read or answered, and it is reset when the
address's window ends), a few per address and a bounded number in all; past those bounds they
are reset at once. Holding is what a firewall's DROP does rather than REJECT: a client that
reconnects as soon as it is refused waits on its held connection instead of spinning, so the
flood of reconnections itself stops (a reset answered in microseconds let it reconnect
thousands of times a second, each one an accept, a wake-up and a close on this loop). Nothing
is written to a refused connection: a response would cost a write per refusal and the reset
loses it anyway. Connections the address already had open are untouched. The door shuts an
address only when it is over its connection limit (`QIPAI_CONNECT_RATE`, the limiter answers
that connection with 403 first), and for at most `Door.max_s` seconds at a time: if the address
is still over its limit then, the limiter refuses its next WebSocket (403) and shuts the door
again, so one request per window is looked at. docs/protocol.md ("Bounds") says it for clients.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from qipai.server.throttle import Door


class Tarpit:
    """The refused connections held unread until their address's window ends: at most
    `per_address` for one address and `total` in all (each is a socket and a timer); a refusal
    past either bound is reset at once. Used on the event loop only."""

    def __init__(self, per_address: int = 4, total: int = 1024):
        self.per_address = per_address
        self.total = total
        self._held: dict[str, int] = {}
        self._count = 0

    def held(self, address: str | None = None) -> int:
        """How many connections are held (from `address`, or in all)."""
        return self._count if address is None else self._held.get(address, 0)

    def take(self, address: str) -> bool:
        """Whether one more connection of `address` may be held (if so, it is counted)."""
        if self._count >= self.total or self._held.get(address, 0) >= self.per_address:
            return False
        self._held[address] = self._held.get(address, 0) + 1
        self._count += 1
        return True

    def let_go(self, address: str) -> None:
        """A held connection ended (reset at its window's end, or closed by its client)."""
        left = self._held.get(address, 0) - 1
        if left > 0:
            self._held[address] = left
        else:
            self._held.pop(address, None)
        self._count -= 1


class GateProtocol(asyncio.Protocol):
    """Built by uvicorn for every accepted connection (as its `http` protocol class, with the
    same arguments); keeps them until `connection_made` says whether the connection is let in.
    Nothing else is made for a refused connection: no parser, no request, no log line."""

    __slots__ = ("_held", "_kwargs", "_timer")

    inner: type[asyncio.Protocol] = AutoHTTPProtocol
    """The protocol a connection that is let in gets (uvicorn's own choice: httptools)."""

    def __init__(self, **kwargs: Any) -> None:
        self._kwargs = kwargs
        self._held: tuple[Tarpit, str] | None = None
        self._timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        state = _state(self._kwargs["config"])
        door = getattr(state, "door", None)
        if isinstance(door, Door):
            peer = transport.get_extra_info("peername")
            if isinstance(peer, tuple) and door.shut(peer[0]):  # counted by the door
                self._refuse(transport, peer[0], door, getattr(state, "tarpit", None))
                return
        protocol = self.inner(**self._kwargs)
        transport.set_protocol(protocol)
        protocol.connection_made(transport)

    def _refuse(
        self, transport: asyncio.BaseTransport, address: str, door: Door, tarpit: object
    ) -> None:
        if isinstance(tarpit, Tarpit) and tarpit.take(address):
            self._held = (tarpit, address)
            transport.pause_reading()  # type: ignore[attr-defined]
            delay = door.remaining(address)
            self._timer = asyncio.get_running_loop().call_later(delay, transport.abort)  # type: ignore[attr-defined]
            return
        transport.abort()  # type: ignore[attr-defined]

    def connection_lost(self, exc: Exception | None) -> None:
        # a refused connection: reset, or held and now ended (its window over, or its client gone)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._held is not None:
            tarpit, address = self._held
            self._held = None
            tarpit.let_go(address)

    def data_received(self, data: bytes) -> None:
        pass  # never: a held connection does not read, one let in has its own protocol


def _state(config: Any) -> Any:
    return getattr(getattr(config, "app", None), "state", None)


__all__ = ["GateProtocol", "Tarpit"]
