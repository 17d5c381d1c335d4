"""The server's first protocol on every TCP connection: an address the door has shut
(`throttle.Door`: over its WebSocket connection limit) is dropped at accept, before any byte of
its request is read or parsed; every other connection is handed to uvicorn's HTTP protocol.

A client that reconnects in a loop once refused (issue 15's flood, reconnecting ~700 times a
second) used to cost the event loop, per reconnection, uvicorn's HTTP protocol, the parse of
its upgrade request and a WebSocket protocol, only for `serving.QipaiWebSocketProtocol` to drop
it; here it costs an address lookup and a reset.

What a shut address sees: every new connection — WebSocket or plain HTTP — is reset (no
response: writing one would cost a write per reconnection, and a reset with the request unread
loses it on the way anyway). Its connections already open are untouched. The door shuts an
address only when it is over its connection limit (`QIPAI_CONNECT_RATE`, the limiter answers
that connection with 403 first), and for at most `Door.max_s` seconds at a time: if the address
is still over its limit then, the limiter refuses its next WebSocket (403) and shuts the door
again, so one request per window is looked at. docs/protocol.md ("Limits") says it for clients.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from qipai.server.throttle import Door


class GateProtocol(asyncio.Protocol):
    """Built by uvicorn for every accepted connection (as its `http` protocol class, with the
    same arguments); keeps them until `connection_made` says whether the connection is let in.
    Nothing else is made for a dropped connection: no parser, no request, no log line."""

    __slots__ = ("_kwargs",)

    inner: type[asyncio.Protocol] = AutoHTTPProtocol
    """The protocol a connection that is let in gets (uvicorn's own choice: httptools)."""

    def __init__(self, **kwargs: Any) -> None:
        self._kwargs = kwargs

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        door = _door(self._kwargs["config"])
        if door is not None:
            peer = transport.get_extra_info("peername")
            if isinstance(peer, tuple) and door.shut(peer[0]):  # counted by the door
                transport.abort()  # type: ignore[attr-defined]
                return
        protocol = self.inner(**self._kwargs)
        transport.set_protocol(protocol)
        protocol.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        pass  # a dropped connection: nothing was made for it

    def data_received(self, data: bytes) -> None:
        pass  # never: a connection let in has its own protocol before any byte is read


def _door(config: Any) -> Door | None:
    state = getattr(getattr(config, "app", None), "state", None)
    door = getattr(state, "door", None)
    return door if isinstance(door, Door) else None


__all__ = ["GateProtocol"]
