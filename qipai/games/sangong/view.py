"""The shape of a San Gong view (`SangongRound.view`, documented in round.py's docstring)."""

from __future__ import annotations

from typing import Literal

from qipai.core.model import CommonView, ViewModel


class HandInfo(ViewModel):
    cards: list[str]
    type: str
    zh: str
    en: str
    points: int
    courts: int
    top_card: str
    multiplier: int


class Pairing(ViewModel):
    winner: str
    stake: int
    multiplier: int
    raw: int


class SeatMoney(ViewModel):
    raw: int
    gross: int
    commission: int
    rounding: int
    net: int
    valid_bet: int


class SeatInfo(ViewModel):
    id: str
    stack: int
    cards: list[str] | None
    card_count: int
    shown: bool
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
    hand: HandInfo | None


class SangongView(CommonView):
    game: Literal["sangong"]
    phase: Literal["bid", "bet", "show", "finished"]
    me: Me | None
    base: int
    commission: str
    multipliers: dict[str, int]
    banker: str | None
    banker_multiple: int | None
    banker_by: Literal["bid", "tie", "random"] | None
    deal_order: list[str] | None
    seats: list[SeatInfo]
    silence: dict[str, str] | None
    commission_total: int | None
    rounding: int | None
