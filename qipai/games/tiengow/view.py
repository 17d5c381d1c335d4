"""The shape of a Tien Gow view (`TienGowRound.view`, documented in round.py's docstring)."""

from __future__ import annotations

from typing import Any, Literal

from qipai.core.model import CommonView, ViewModel


class TileInfo(ViewModel):
    id: int
    tile: str
    zh: str
    en: str
    civil: bool
    order: int  # the hand's sorting order: civil high to low, then military high to low


class PlayInfo(ViewModel):
    kind: str
    kind_zh: str
    rank: int
    zh: str
    en: str
    zun: bool


class Entry(ViewModel):
    seat: str
    action: Literal["play", "discard"]
    tiles: list[TileInfo] | None = None  # a discard's tiles: only in its player's own view
    play: PlayInfo | None = None
    count: int | None = None


class Trick(ViewModel):
    number: int
    leader: str
    size: int | None
    kind: str | None
    best: str | None
    entries: list[Entry]
    winner: str | None = None
    dong: int | None = None


class Zun(ViewModel):
    seat: str
    zh: str
    en: str
    units: int
    trick: int


class Me(ViewModel):
    id: str
    hand: list[TileInfo]


class TienGowView(CommonView):
    game: Literal["tiengow"]
    phase: Literal["play", "finished"]
    me: Me | None
    seats: list[str]
    banker: str
    banker_streak: int
    multiplier: int
    config: dict[str, Any]
    hand_counts: dict[str, int]
    dong: dict[str, int]
    turn: str | None
    leader: str
    last_trick: bool
    trick: Trick | None
    tricks: list[Trick]
    zun: list[Zun]
    result: dict[str, Any] | None
