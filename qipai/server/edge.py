"""The HTTP edge (pure ASGI middlewares): security headers on every response, and a bound on
request bodies.

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
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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
    """Refuse a request body over `max_bytes` (413 in the one error shape) before it is read
    into memory: by its Content-Length, or while it streams in."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.max_bytes):
                await self._refuse(send)
                return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:  # the app's error handler answers 413
                    raise HTTPException(413, f"a request body is at most {self.max_bytes} bytes")
            return message

        await self.app(scope, counted, send)

    async def _refuse(self, send: Send) -> None:
        from qipai.server.errors import respond

        response = respond(413, "too_large", f"a request body is at most {self.max_bytes} bytes")
        await send({"type": "http.response.start", "status": 413, "headers": response.raw_headers})
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
