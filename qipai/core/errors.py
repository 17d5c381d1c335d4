"""Typed errors shared by every layer.

Every error a game raises leaves the round untouched (ARCHITECTURE.md, the game protocol), so a
server can answer the client with the error's `code` and `message` and carry on.
"""

from __future__ import annotations


class GameError(Exception):
    """Base of every refusal: `code` is a stable machine-readable name, the message is for people."""

    code = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


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
