"""The HTTP edge (pure ASGI middlewares): security headers on every response, and bounds on
request bodies.

Bodies: a body over `QIPAI_MAX_BODY_BYTES` is refused (413) by its Content-Length, or as soon
as the bytes streamed in pass the bound; a body nested deeper than `QIPAI_MAX_JSON_DEPTH`
(the WebSocket's bound on frames too) is refused (400 `too_deep`). Both answer before any JSON
parsing or route work, so a hostile body costs a bounded read and one linear scan
(docs/operators.md, 'Limits at the edge').

Security headers:
The browser client loads only its own files (no inline script, no other origin), so the
policy is strict: scripts, styles, images and connections from this origin only; inline
`style` attributes are allowed because the client sets some from script. No page may be
framed (clickjacking), no response is sniffed into another type, no referrer leaves. The
interactive API pages (`/docs`, `/redoc`) load FastAPI's viewer from its CDN and an inline
bootstrap script, so they get a policy that allows just that.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from qipai.server.inputs import over_depth

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "img-src 'self' data: https://fastapi.tiangolo.com; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
COMMON = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
DOCS_PATHS = ("/docs", "/redoc")


class BodyLimit:
    """Refuse a request body over `max_bytes` (413) or nested deeper than `max_depth` (400),
    in the one error shape, before the app parses it: the body (bounded) is read here, checked,
    and handed on whole."""

    def __init__(self, app: ASGIApp, max_bytes: int, max_depth: int = 16) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.max_depth = max_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in BODILESS:
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.max_bytes):
                await _refuse(send, 413, "too_large", self._too_large())
                return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left: nothing to answer
                return
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.max_bytes:
                await _refuse(send, 413, "too_large", self._too_large())
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if over_depth(body.decode("utf-8", "replace"), self.max_depth):
            why = f"the body is nested deeper than {self.max_depth} levels (QIPAI_MAX_JSON_DEPTH)"
            await _refuse(send, 400, "too_deep", why)
            return
        await self.app(scope, _replay(body, receive), send)

    def _too_large(self) -> str:
        return f"a request body is at most {self.max_bytes} bytes (QIPAI_MAX_BODY_BYTES)"


BODILESS = ("GET", "HEAD", "OPTIONS")
"""Methods whose body no route reads (passed through unread)."""


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the app the body read at the edge, then the client's own
    messages (its disconnect)."""
    given = False

    async def replayed() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


async def _refuse(send: Send, status: int, code: str, message: str) -> None:
    from qipai.server.errors import respond

    response = respond(status, code, message)
    await send({"type": "http.response.start", "status": status, "headers": response.raw_headers})
    await send({"type": "http.response.body", "body": response.body})


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        policy = DOCS_CSP if path.startswith(DOCS_PATHS) else CSP

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in COMMON.items():
                    headers.setdefault(name, value)
                headers.setdefault("Content-Security-Policy", policy)
                if path.startswith("/api/"):
                    headers.setdefault("Cache-Control", "no-store")
            await send(message)

        await self.app(scope, receive, with_headers)


__all__ = ["CSP", "BodyLimit", "SecurityHeaders"]
