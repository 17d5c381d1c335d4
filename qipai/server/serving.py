"""Running the app under uvicorn: settings → uvicorn's config, and a WebSocket protocol that
can drop a socket whose reader stays behind.

A WebSocket whose peer never reads fills the kernel's send buffer and then the transport's;
from then on every send — a close frame included — waits for a reader that never comes, and
`transport.close()` waits for the buffer to drain. So when the app closes a socket with the
code `SLOW` (4408: it stayed behind), this protocol aborts the transport instead: the buffers
are freed at once and the peer sees the connection reset.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from qipai.server.sockets import SLOW


class QipaiWebSocketProtocol(WebSocketsSansIOProtocol):
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


__all__ = ["QipaiWebSocketProtocol"]
