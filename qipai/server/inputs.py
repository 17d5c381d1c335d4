"""Checks at the boundary, before anything reaches a table or the database.

* Text the databases cannot store — a lone UTF-16 surrogate (neither SQLite nor PostgreSQL
  take one; Python's JSON decoder makes them from `"\\ud800"`) or NUL (PostgreSQL refuses it
  in text) — is refused with a typed error naming the field.
* A WebSocket frame is parsed under bounds: its size, its nesting depth, integers of at most
  4,300 digits (Python's own limit, turned into a typed error), and no `NaN`/`Infinity`.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any

from pydantic import AfterValidator, Field, StringConstraints

UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


class FrameError(ValueError):
    """A frame that is not acceptable JSON: `code` for the error message, `field` if one."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field


def storable(text: str) -> str:
    """`text` unchanged if a database can store it, else ValueError (pydantic reports it
    under the field's name)."""
    if UNSTORABLE.search(text):
        raise ValueError("contains a character that cannot be stored (NUL or a lone surrogate)")
    return text


def scrubbed(text: str) -> str:
    """`text` with every character a database cannot store replaced by U+FFFD: for what the
    server itself records of a refused request (its path in the operator log), which must
    be written and not refused."""
    return UNSTORABLE.sub("\ufffd", text)


StoredStr = Annotated[str, AfterValidator(storable)]
"""A string a database can store (for pydantic models of requests)."""

MAX_ROW_ID = 2**63 - 1
"""The largest integer both databases store (PostgreSQL BIGINT, SQLite INTEGER)."""

# Path and query parameters: one declaration each, so FastAPI refuses an out-of-range or
# unstorable value (400 naming the parameter, qipai/server/errors.py) before the route runs.
Key = Annotated[str, StringConstraints(min_length=1, max_length=64), AfterValidator(storable)]
"""An id or a name in a path or query (table, round, template, player, game, host …): the
ledger and the authority store these in columns of at most 64 characters."""
LongKey = Annotated[str, StringConstraints(min_length=1, max_length=200), AfterValidator(storable)]
"""A ledger account (`wallet:alice`, `stack:alice:table-…`) or a file name in a path."""
RowId = Annotated[int, Field(ge=1, le=MAX_ROW_ID)]
"""A database row id (a money request, an operator-log row, a ledger entry)."""


def _no_constant(name: str) -> Any:
    raise FrameError("invalid_message", f"{name} is not a number this server accepts")


def _path(parent: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    return f"{parent}.{key}" if parent else key


def check_tree(value: Any, max_depth: int) -> None:
    """Refuse a decoded frame nested deeper than `max_depth` or holding unstorable text
    (in a key or a value), naming the path of the first offender. Iterative: a hostile
    frame cannot exhaust the stack."""
    stack: list[tuple[Any, str, int]] = [(value, "", 1)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, str):
            if UNSTORABLE.search(item):
                raise FrameError(
                    "invalid_text",
                    f"{path or 'the message'} contains a character that cannot be stored "
                    "(NUL or a lone surrogate)",
                    path or None,
                )
        elif isinstance(item, dict | list):
            if depth > max_depth:
                raise FrameError(
                    "invalid_message", f"the message is nested deeper than {max_depth} levels"
                )
            if isinstance(item, dict):
                for key, sub in item.items():
                    if UNSTORABLE.search(key):
                        raise FrameError(
                            "invalid_text",
                            f"a key in {path or 'the message'} cannot be stored",
                            path or None,
                        )
                    stack.append((sub, _path(path, key), depth + 1))
            else:
                stack.extend((sub, _path(path, i), depth + 1) for i, sub in enumerate(item))


def parse_frame(text: str, *, max_bytes: int, max_depth: int) -> Any:
    """Decode one WebSocket frame under the bounds, or raise FrameError."""
    if len(text) > max_bytes:  # characters >= bytes / 4; the transport bounds bytes too
        raise FrameError("too_large", f"a message is at most {max_bytes} bytes")
    # Nesting beyond the limit is refused before the decoder sees it: an opening bracket
    # count is a cheap upper bound of the depth (brackets inside strings only overcount).
    if over_depth(text, max_depth):
        raise FrameError("invalid_message", f"the message is nested deeper than {max_depth} levels")
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except FrameError:
        raise
    except RecursionError:
        raise FrameError("invalid_message", "the message is nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, and integers past 4,300 digits
        if "digits" in str(exc):
            raise FrameError("invalid_message", "a number has too many digits") from None
        raise FrameError("invalid_message", "not JSON") from None
    check_tree(value, max_depth)
    return value


def over_depth(text: str, max_depth: int) -> bool:
    """Whether a JSON text nests brackets deeper than `max_depth`: the bracket count first
    (C speed: a body with few brackets is never scanned), then the linear scan."""
    return text.count("[") + text.count("{") > max_depth and nesting_depth(text) > max_depth


def nesting_depth(text: str) -> int:
    """The deepest bracket nesting of a JSON text, outside strings (a linear scan)."""
    deepest = depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


__all__ = [
    "MAX_ROW_ID",
    "FrameError",
    "Key",
    "LongKey",
    "RowId",
    "StoredStr",
    "check_tree",
    "nesting_depth",
    "over_depth",
    "parse_frame",
    "scrubbed",
    "storable",
]
