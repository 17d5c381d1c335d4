"""The shape of a Swap Niu Niu view (`NiuniuRound.view`, documented in round.py's docstring)."""

from __future__ import annotations

from typing import Any, Literal

from qipai.core.model import CommonView, ViewModel


class HandInfo(ViewModel):
    cards: list[str]
    type: str
    zh: str
    en: str
    multiplier: int
    bull_cards: list[str] | None  # no bull (and hands that need none)
    point_cards: list[str] | None
    top_card: str


class Pairing(ViewModel):
    winner: str
    stake: int
    multiplier: int
    raw: int


class SeatMoney(ViewModel):
    raw: int
    gross: int
    commission: int
    net: int


class SeatInfo(ViewModel):
    id: str
    stack: int
    cards: list[str] | None
    card_count: int
    swap_confirmed: bool
    swapped: int | None
    bid: int | None
    bet: int | None
    is_banker: bool
    hand: HandInfo | None
    pairing: Pairing | None
    settlement: SeatMoney | None


class Me(ViewModel):
    id: str
    stack: int
    cards: list[str]
    marked: list[str] | None
    discarded: list[str] | None
    received: list[str] | None
    hint: dict[str, Any] | None


class NiuniuView(CommonView):
    game: Literal["niuniu"]
    phase: Literal["swap", "bid", "bet", "finished"]
    me: Me | None
    base: int
    commission: str
    banker: str | None
    banker_multiple: int | None
    banker_by: Literal["bid", "tie", "random"] | None
    seats: list[SeatInfo]
    commission_total: int | None
    rounding: int | None
