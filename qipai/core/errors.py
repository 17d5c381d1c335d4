"""Typed errors shared by every layer.

Every error a game raises leaves the round untouched (ARCHITECTURE.md, the game protocol), so a
server can answer the client with the error's `code` and `message` and carry on.
"""

from __future__ import annotations


class GameError(Exception):
    """Base of every refusal: `code` is a stable machine-readable name, the message is for people."""

    code = "error"

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        # The input field the refusal is about, as a dotted path ("bets.0.amount"), when known.
        self.field = field

    def to_json(self) -> dict[str, str]:
        out = {"code": self.code, "message": self.message}
        if self.field is not None:
            out["field"] = self.field
        return out


class InvalidInput(GameError):
    """Malformed input: an unknown card or tile, a missing field, a value of the wrong type."""

    code = "invalid_input"


class IllegalAction(GameError):
    """Well-formed, but the rules do not allow it now (a bet over the limit, an unbeatable play)."""

    code = "illegal_action"


class OutOfTurn(GameError):
    """The acting seat is not the one whose turn it is, or is not in the round at all."""

    code = "out_of_turn"


class WrongPhase(GameError):
    """The action belongs to another phase of the round (betting after the countdown, etc.)."""

    code = "wrong_phase"


class InsufficientStack(IllegalAction):
    """Well-formed and allowed, but the seat's stack cannot cover it (stake + hold, exposure)."""

    code = "insufficient_funds"
