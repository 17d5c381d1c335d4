"""The shape of a High card view (its JSON Schema comes from here)."""

from __future__ import annotations

from typing import Literal

from qipai.core.model import CommonView, ViewModel


class Me(ViewModel):
    id: str
    stack: int
    ante: int | None
    card: str | None


class HighCardView(CommonView):
    game: Literal["highcard"]
    phase: Literal["ante", "draw", "finished"]
    me: Me | None
    antes: dict[str, int]
    turn: str | None
    cards: dict[str, str]
    winner: str | None
