"""Running the app under uvicorn: settings → uvicorn's config, a WebSocket protocol that
can drop a socket whose reader stays behind, and a server that lets the app close its own
sockets at SIGTERM. (Every connection first meets `gate.GateProtocol`, which refuses an address
the door has shut — held unread, then reset — before uvicorn's HTTP protocol is made.)

At SIGTERM uvicorn stops listening, queues a disconnect behind whatever each socket has not
read yet, and cancels (with a logged traceback each) every handler still running after its
graceful timeout: a handler waiting for its table's answer to an action behind a busy table
outlives it. `QipaiServer` first runs the app's `before_shutdown` hook, which closes every
signed-in socket itself (1001, "the server is stopping") so that the handlers end at once.

A WebSocket whose peer never reads fills the kernel's send buffer and then the transport's;
from then on every send — a close frame included — waits for a reader that never comes, and
`transport.close()` waits for the buffer to drain. So when the app closes a socket with the
code `SLOW` (4408: it stayed behind), this protocol aborts the transport instead: the buffers
are freed at once and the peer sees the connection reset.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import uvicorn
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from qipai.server.sockets import SLOW


def uvicorn_options(settings: Any) -> dict[str, Any]:
    """What the card room's uvicorn servers share (one process, `qipai.server.run`, or the
    table hosts of `qipai.cluster.launcher`): the WebSocket protocol, its frame limit and
    compression, and the graceful shutdown's bound."""
    return {
        "ws": QipaiWebSocketProtocol,
        "ws_max_size": 4 * settings.max_frame_bytes,
        "ws_per_message_deflate": settings.ws_compression,
        "timeout_graceful_shutdown": int(settings.shutdown_timeout_s + 0.999),
    }


class QipaiWebSocketProtocol(WebSocketsSansIOProtocol):
    refused_at_door = False

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        state = getattr(getattr(self.config, "app", None), "state", None)
        door = getattr(state, "door", None)
        if door is not None and self.client is not None and door.shut(self.client[0]):
            # over its connection limit (`throttle.Door`, which counts it): accepted before
            # the door shut (`gate.GateProtocol` refuses the later ones at accept), dropped
            # before the handshake
            self.refused_at_door = True
            transport.abort()

    def data_received(self, data: bytes) -> None:
        if self.refused_at_door:
            return
        super().data_received(data)

    async def send(self, message: Any) -> None:
        if (
            message.get("type") == "websocket.close"
            and message.get("code") == SLOW
            and self.handshake_complete
            and not self.transport.is_closing()
        ):
            self.close_sent = True
            self.queue.put_nowait({"type": "websocket.disconnect", "code": SLOW})
            self.transport.abort()
            return
        await super().send(message)


class QipaiServer(uvicorn.Server):
    """uvicorn's server; at shutdown it stops listening, then awaits `before_shutdown` (the
    app closes its sockets), then does uvicorn's own shutdown (what is left: HTTP requests,
    sockets not signed in yet)."""

    def __init__(
        self,
        config: uvicorn.Config,
        before_shutdown: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        super().__init__(config)
        self.before_shutdown = before_shutdown

    async def shutdown(self, sockets: Any = None) -> None:
        for server in self.servers:
            server.close()  # no new connection meanwhile (closing again later does nothing)
        if self.before_shutdown is not None:
            try:
                await self.before_shutdown()
            except Exception:
                logging.getLogger("qipai.server").exception("closing the sockets failed")
        await super().shutdown(sockets)


__all__ = ["QipaiServer", "QipaiWebSocketProtocol"]
