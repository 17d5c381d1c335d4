"""Journal first: what the table does with an action before the round may take it.

Every action (a player's, a bot's, or the countdown's default) goes through the same three
steps, in this order (ARCHITECTURE.md "The game protocol"):

1. `canonical(game, action)` — the action as the journal stores it: the game's canonical JSON
   (`GameSpec.parse_action` + `action_json`: unknown fields refused, nothing else kept) or, for a
   game without a spec, the action itself once it is bounded (at most `MAX_ACTION_BYTES` of JSON,
   at most `MAX_DEPTH` deep) and holds only text a database can store (no NUL, no lone
   surrogate) — so no padding reaches the journal and no write can fail on the text;
2. `check(round_, seat, action)` — the round validates it exactly as `act` would, changing
   nothing;
3. the table journals it (the ledger write), and only then `round_.act(seat, action)`.

If step 1 or 2 refuses, the reply is the typed error and nothing changed; if the journal write
fails, the action is refused and the round is exactly as it was.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from qipai.core.errors import GameError, InvalidInput
from qipai.core.protocol import JSON, Round

MAX_ACTION_BYTES = 2048
MAX_DEPTH = 6


class JournalUnavailable(GameError):
    """The journal write failed: the action was not taken (the client may retry it)."""

    code = "journal_unavailable"


def unavailable(exc: BaseException) -> bool:
    """A write failed because the database could not be reached or was busy (worth trying
    again), not because of what was written (an overdrawn stack, a number out of range)."""
    from sqlalchemy import exc as sa

    passing = (OSError, TimeoutError, sa.OperationalError, sa.InterfaceError, sa.TimeoutError)
    if isinstance(exc, sa.DBAPIError) and exc.connection_invalidated:
        return True
    return isinstance(exc, passing)


def retry_or_raise(exc: Exception, what: str) -> Exception:
    """What to raise for a failed round write: JournalUnavailable (nothing changed, the table
    tries again) if the database was unavailable, else the failure itself (the table is
    suspended)."""
    if unavailable(exc):
        return JournalUnavailable(f"{what}; it is tried again")
    return exc


def storable_text(value: str, what: str) -> str:
    """`value` if every database can store it: no NUL, no lone surrogate (InvalidInput)."""
    if "\x00" in value:
        raise InvalidInput(f"{what} contains a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput(f"{what} contains a lone surrogate (not valid Unicode text)") from None
    return value


def _walk(value: Any, path: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise InvalidInput(f"{path} is nested too deeply")
    if isinstance(value, str):
        storable_text(value, path)
    elif isinstance(value, float) and not math.isfinite(value):
        raise InvalidInput(f"{path} is not a finite number")
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidInput(f"{path} has a key that is not text")
            storable_text(key, f"{path} key")
            _walk(item, f"{path}.{key}", depth + 1)
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            _walk(item, f"{path}[{i}]", depth + 1)


def canonical(game: Any, action: Mapping[str, Any]) -> JSON:
    """The action as the journal will store it, or InvalidInput naming what is wrong."""
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise InvalidInput("an action is an object with a string 'type'")
    to_json = getattr(game, "action_json", None)
    if callable(to_json):  # a GameSpec: parsed by the game's action models, unknown fields refused
        _walk(action, "action", 0)
        out = dict(to_json(action))
    else:
        _walk(action, "action", 0)
        out = json.loads(json.dumps(action))  # a plain copy: nothing the caller keeps aliases it
    if len(json.dumps(out, separators=(",", ":"))) > MAX_ACTION_BYTES:
        raise InvalidInput(f"the action is longer than {MAX_ACTION_BYTES} bytes of JSON")
    return out


def check(round_: Round[Any], seat: str, action: Mapping[str, Any]) -> None:
    """Validate `action` exactly as `round_.act` would, changing nothing (GameError if not):
    every round has `Round.check` (core/protocol.py), the one source of legality."""
    round_.check(seat, action)


__all__ = [
    "MAX_ACTION_BYTES",
    "JournalUnavailable",
    "canonical",
    "check",
    "retry_or_raise",
    "storable_text",
    "unavailable",
]
