"""The shape of a Pai Gow view (`PaigowRound.view`, documented in round.py's docstring)."""

from __future__ import annotations

from typing import Any, Literal

from qipai.core.model import CommonView, ViewModel


class TileInfo(ViewModel):
    pips: str
    zh: str
    en: str
    points: int


class Name(ViewModel):
    zh: str
    en: str


class HandInfo(ViewModel):
    tiles: list[str]
    tile_names: list[Name]
    zh: str
    zh_hant: str
    en: str
    key: str
    rank: int
    points: int
    values: list[int]
    strength: int


class SeatInfo(ViewModel):
    id: str
    stack: int
    position: int
    bid: int | None
    bet: int | None
    banker: bool
    ready: bool
    tiles: list[TileInfo] | None
    hand: HandInfo | None
    outcome: Literal["banker", "player", "push"] | None
    net: int | None


class PaigowView(CommonView):
    game: Literal["paigow"]
    phase: Literal["bid", "bet", "reveal", "finished"]
    me: SeatInfo | None
    round: int
    rounds: int
    config: dict[str, Any]
    seats: list[SeatInfo]
    banker: str | None
    banker_multiple: int | None
    dice: list[int] | None
    first_seat: str | None
    deal_order: list[str] | None
    reveal_order: list[str] | None
    tiles_left: int
    seen_tiles: list[TileInfo]
    result: dict[str, Any] | None
