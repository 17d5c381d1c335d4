"""One error shape for every HTTP error: `{"error": {"code", "message", "field"?}}`.

Game and table refusals (`GameError`), ledger refusals (`LedgerError`), FastAPI's request
validation (422, naming the field), unknown routes (404), throttling (429) and bugs (500) all
answer in it; the WebSocket's `{"type": "error", …}` carries the same `code`/`message`/`field`.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request

from qipai.core.errors import GameError, InvalidInput
from qipai.ledger import LedgerError

log = logging.getLogger("qipai.server")


class ErrorBody(BaseModel):
    code: str
    message: str
    field: str | None = None


class ErrorResponse(BaseModel):
    """What every refused HTTP request answers."""

    error: ErrorBody


class ApiError(Exception):
    """A refusal raised by the server's own code: `status`, a stable `code`, a message for
    people and, where one field of the request is at fault, its dotted name."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        field: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.headers = headers


class AuthFailed(InvalidInput):
    """Wrong username or password (401)."""

    code = "auth_failed"


class Conflict(InvalidInput):
    """The request clashes with what exists (a taken username: 409)."""

    code = "conflict"


class FieldError(InvalidInput):
    """Bad input in one named field (400)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


PARAMETERS = ("path", "query", "header", "cookie")
"""Where FastAPI places a parameter's validation error (`loc[0]`)."""

GAME_STATUS = {
    "auth_failed": 401,
    "auth_required": 401,
    "conflict": 409,
    "forbidden": 403,
    "table_moved": 409,  # another host runs the table now (its lease was lost mid-request)
    "host_draining": 503,
}
STATUS_CODES = {
    400: "invalid_input",
    401: "auth_required",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    422: "invalid_input",
    429: "rate_limited",
    500: "internal",
    503: "unavailable",
}


def error_json(code: str, message: str, field: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if field is not None:
        body["field"] = field
    return {"error": body}


def respond(
    status: int,
    code: str,
    message: str,
    field: str | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    return JSONResponse(error_json(code, message, field), status_code=status, headers=headers)


def snake(name: str) -> str:
    """`InsufficientFunds` -> `insufficient_funds` (ledger error class names as codes)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def field_name(loc: tuple[int | str, ...] | list[int | str]) -> str | None:
    """A pydantic error location as a dotted field name, without FastAPI's `body`/`query`."""
    parts = [str(p) for p in loc]
    if parts and parts[0] in ("body", "query", "path", "header", "cookie"):
        parts = parts[1:]
    return ".".join(parts) or None


def validation_message(err: dict[str, Any]) -> str:
    """A person's sentence for one pydantic error, never echoing the input (which may be
    NaN, megabytes, or unprintable)."""
    name = field_name(err.get("loc", ()))
    kind = str(err.get("type", ""))
    if kind == "json_invalid":
        return "the body is not valid JSON"
    msg = str(err.get("msg", "invalid value"))
    return f"{name}: {msg}" if name else msg


def install(app: FastAPI) -> None:
    """Register the handlers that put every error in the one shape."""

    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        return respond(exc.status, exc.code, exc.message, exc.field, exc.headers)

    @app.exception_handler(GameError)
    async def game_error(_: Request, exc: GameError) -> JSONResponse:
        status = GAME_STATUS.get(exc.code, 400)
        field = getattr(exc, "field", None)
        return respond(status, exc.code, exc.message, field if isinstance(field, str) else None)

    @app.exception_handler(LedgerError)
    async def ledger_error(_: Request, exc: LedgerError) -> JSONResponse:
        return respond(400, snake(type(exc).__name__), exc.message)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = list(exc.errors())
        first: dict[str, Any] = dict(errors[0]) if errors else {}
        code = "invalid_json" if first.get("type") == "json_invalid" else "invalid_input"
        field = None if code == "invalid_json" else field_name(first.get("loc", ()))
        # a bad path or query parameter is a bad address (400); a body that parses but does
        # not fit its model stays 422 (docs/protocol.md, 'Errors')
        where = first.get("loc", ("body",))[:1]
        status = 400 if where and where[0] in PARAMETERS else 422
        return respond(status, code, validation_message(first), field)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = STATUS_CODES.get(exc.status_code, "error")
        detail = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
        return respond(
            exc.status_code, code, detail, headers=dict(exc.headers) if exc.headers else None
        )

    @app.exception_handler(Exception)
    async def bug(request: Request, exc: Exception) -> JSONResponse:
        log.error(
            "unhandled error in %s %s",
            request.method,
            request.url.path,
            exc_info=exc,
            extra={
                "event": "error",
                "fields": {"method": request.method, "path": request.url.path},
            },
        )
        return respond(500, "internal", "internal server error")


__all__ = [
    "ApiError",
    "AuthFailed",
    "Conflict",
    "ErrorBody",
    "ErrorResponse",
    "FieldError",
    "error_json",
    "install",
    "respond",
]
