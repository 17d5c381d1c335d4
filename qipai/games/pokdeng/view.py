"""The shape of a Pok Deng view (`PokDengRound.view`, documented in round.py's docstring)."""

from __future__ import annotations

from typing import Literal

from qipai.core.model import CommonView, ViewModel


class SpotInfo(ViewModel):
    kind: Literal["player", "banker", "pair"]
    hand: str
    min: int
    max: int
    hold: int


class PlayerRow(ViewModel):
    id: str
    done: bool
    spots: list[str]


class Me(ViewModel):
    id: str
    stack: int
    taken: int
    available: int
    done: bool
    bets: dict[str, int]


class HandInfo(ViewModel):
    cards: list[str]
    points: int
    rank: str
    zh: str
    en: str
    suited: bool
    pair: bool
    double: bool


class ResultCell(ViewModel):
    result: Literal["win", "lose", "tie"]
    color: str
    ring: bool
    pair: bool


class BetPayout(ViewModel):
    id: str
    player: str
    spot: str
    amount: int
    taken: int
    returned: int
    net: int
    outcome: Literal["win", "lose", "tie"]
    multiple: int
    rounding: int


class Payouts(ViewModel):
    bets: list[BetPayout]
    net: int


class RoadView(ViewModel):
    code: str
    counts: dict[str, dict[Literal["win", "lose", "tie"], int]]


class ShoeInfo(ViewModel):
    decks: int
    round: int
    cards_used: int
    cards_remaining: int
    new_shoe: bool
    cut_card_out: bool
    last_round: bool


class PokDengView(CommonView):
    game: Literal["pokdeng"]
    phase: Literal["betting", "finished"]
    mode: Literal["classic", "banker-player"]
    spots: dict[str, SpotInfo]
    players: list[PlayerRow]
    spot_totals: dict[str, int]
    me: Me | None
    cards: dict[str, list[str]] | None
    hands: dict[str, HandInfo] | None
    results: dict[str, ResultCell] | None
    payouts: Payouts | None
    road: RoadView
    shoe: ShoeInfo
