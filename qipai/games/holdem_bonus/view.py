"""The shape of a Hold'em Bonus view (`HoldemBonusRound.view`, round.py's docstring)."""

from __future__ import annotations

from typing import Any, Literal

from qipai.core.model import CommonView, ViewModel


class Limits(ViewModel):
    ante_min: int
    ante_max: int
    pool_stake: int


class PoolInfo(ViewModel):
    balance: int
    seed: int
    stake: int
    percent: dict[str, str]


class BoxBets(ViewModel):
    ante: int
    bonus: int
    pool: int
    flop: int
    turn: int
    river: int


class PokerHand(ViewModel):
    category: str
    name: str
    strength: int
    best_five: list[str]


class BoxInfo(ViewModel):
    box: str
    seated: str | None
    player: str | None
    bets: BoxBets
    status: Literal["open", "bet", "waiting", "folded", "checked", "in"]
    awaiting: Literal["flop", "turn", "river"] | None
    dealt: bool
    cards: list[str] | None
    bonus_line: str | None
    pool_hand: PokerHand | None
    hand: PokerHand | None
    outcome: Literal["win", "lose", "tie", "fold"] | None
    nets: dict[str, int] | None


class DealerInfo(ViewModel):
    dealt: bool
    cards: list[str] | None
    hand: PokerHand | None


class Me(ViewModel):
    id: str
    stack: int
    committed: int
    available: int
    done: bool
    boxes: list[str]
    net: int | None


class HoldemBonusView(CommonView):
    game: Literal["holdem-bonus"]
    phase: Literal["betting", "flop", "turn", "river", "finished"]
    limits: Limits
    bonus_table: Literal["source", "with-small-pairs"]
    bonus_pays: dict[str, int]
    pool: PoolInfo
    boxes: list[BoxInfo]
    dealer: DealerInfo
    board: list[str]
    me: Me | None
    result: dict[str, Any] | None
