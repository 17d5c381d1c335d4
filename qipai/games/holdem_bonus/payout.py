"""Settle a dealt Hold'em Bonus round: main bets, bonus, pool — as balanced postings.

Pure: `settle_round(plays, dealer, board, settings, pool_opening)` is shared by the round state
machine and `qipai settle`.

Main bets (docs/rules/holdem-bonus.md#main-payout): a folded box loses its ante. Otherwise each box's best five of seven
meets the dealer's (no qualification): the player wins with a straight or better → ante, flop,
turn, river all pay 1:1; wins with less → the ante is returned (push), flop/turn/river pay 1:1;
the dealer wins → all lost; **Decision:** a tie returns every main bet.
Bonus: the hole cards' line of the pay table, paid even after a fold. Pool: see `pool.py`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final, Literal

from qipai.core.cards import Card
from qipai.core.protocol import HOUSE, JACKPOT, ROUNDING, Posting
from qipai.games.holdem_bonus.config import BonusTable
from qipai.games.holdem_bonus.hands import BonusLine, PokerHand, bonus_line, pool_category
from qipai.games.holdem_bonus.pool import PoolEntry, PoolResult, settle_pool
from qipai.poker import Category

Outcome = Literal["win", "lose", "tie", "fold"]
BETS: Final = ("ante", "flop", "turn", "river", "bonus", "pool")


@dataclass(frozen=True)
class BoxPlay:
    """What one box bet and decided. `flop` False means the box folded (then no turn/river)."""

    box: str
    player: str  # the account that plays this box (its own player, or a 抢押 taker)
    hole: tuple[Card, Card]
    ante: int
    bonus: int = 0
    pool: int = 0  # the pool stake, 0 when not bet
    flop: bool = False
    turn: bool = False
    river: bool = False


@dataclass(frozen=True)
class PoolSettings:
    rates: Mapping[Category, Fraction]
    contribution: Fraction
    seed: int


@dataclass(frozen=True)
class BoxResult:
    play: BoxPlay
    hand: PokerHand
    outcome: Outcome
    nets: Mapping[str, int]  # per bet in BETS
    bonus_line: BonusLine | None
    pool_hand: PokerHand

    @property
    def net(self) -> int:
        return sum(self.nets.values())

    def to_json(self) -> dict[str, Any]:
        p = self.play
        return {
            "box": p.box,
            "player": p.player,
            "hole": [str(c) for c in p.hole],
            "hand": self.hand.to_json(),
            "outcome": self.outcome,
            "bets": {
                "ante": p.ante,
                "bonus": p.bonus,
                "pool": p.pool,
                "flop": 2 * p.ante if p.flop else 0,
                "turn": p.ante if p.turn else 0,
                "river": p.ante if p.river else 0,
            },
            "nets": dict(self.nets),
            "net": self.net,
            "bonus_line": None if self.bonus_line is None else self.bonus_line.key,
            "pool_hand": self.pool_hand.to_json(),
        }


@dataclass(frozen=True)
class Settlement:
    boxes: tuple[BoxResult, ...]
    dealer: PokerHand
    pool: PoolResult | None
    postings: tuple[Posting, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "boxes": {r.play.box: r.to_json() for r in self.boxes},
            "dealer": self.dealer.to_json(),
            "pool": None if self.pool is None else self.pool.to_json(),
        }


def main_nets(play: BoxPlay, hand: PokerHand, dealer: PokerHand) -> tuple[Outcome, dict[str, int]]:
    """Outcome and net of ante, flop, turn, river (docs/rules/holdem-bonus.md#main-payout main payout)."""
    a = play.ante
    staked = {
        "ante": a,
        "flop": 2 * a if play.flop else 0,
        "turn": a if play.turn else 0,
        "river": a if play.river else 0,
    }
    if not play.flop:
        return "fold", {"ante": -a, "flop": 0, "turn": 0, "river": 0}
    if hand.strength > dealer.strength:
        nets = dict(staked)
        if hand.category < Category.STRAIGHT:
            nets["ante"] = (
                0  # docs/rules/holdem-bonus.md#main-payout: a win with less than a straight pushes the ante
            )
        return "win", nets
    if hand.strength < dealer.strength:
        return "lose", {k: -v for k, v in staked.items()}
    return "tie", {
        k: 0 for k in staked
    }  # docs/rules/holdem-bonus.md#main-payout Decision: a tie returns every main bet


def settle_round(
    plays: Sequence[BoxPlay],
    dealer_hole: Sequence[Card],
    board: Sequence[Card],
    bonus_table: BonusTable,
    pool: PoolSettings,
    pool_opening: int,
) -> Settlement:
    """Settle every box of a fully dealt round, in box order as given."""
    dealer = PokerHand.of([*dealer_hole, *board])
    flop = board[:3]
    results: list[BoxResult] = []
    entries: list[PoolEntry] = []
    for order, play in enumerate(plays):
        hand = PokerHand.of([*play.hole, *board])
        outcome, nets = main_nets(play, hand, dealer)
        line = bonus_line(play.hole, dealer_hole, bonus_table) if play.bonus else None
        nets["bonus"] = 0 if not play.bonus else (play.bonus * line.odds if line else -play.bonus)
        pool_hand = pool_category(play.hole, flop)
        if play.pool:
            entries.append(
                PoolEntry(play.box, order, play.pool, pool_hand.strength, pool_hand.category)
            )
        results.append(BoxResult(play, hand, outcome, nets, line, pool_hand))
    pool_result = (
        settle_pool(pool_opening, entries, pool.rates, pool.contribution, pool.seed)
        if entries or pool_opening < pool.seed
        else None
    )
    final: list[BoxResult] = []
    for r in results:
        nets = dict(r.nets)
        if r.play.pool:
            award = pool_result.award_of(r.play.box) if pool_result else None
            nets["pool"] = (award.amount if award else 0) - r.play.pool
        else:
            nets["pool"] = 0
        final.append(BoxResult(r.play, r.hand, r.outcome, nets, r.bonus_line, r.pool_hand))
    return Settlement(tuple(final), dealer, pool_result, _postings(final, pool_result))


def _postings(results: Sequence[BoxResult], pool: PoolResult | None) -> tuple[Posting, ...]:
    out: list[Posting] = []

    def move(account: str, counter: str, amount: int, memo: str) -> None:
        if amount:
            out.append(Posting(account, amount, memo))
            out.append(Posting(counter, -amount, memo))

    for r in results:
        p = r.play
        for bet in ("ante", "flop", "turn", "river", "bonus"):
            move(p.player, HOUSE, r.nets[bet], f"box {p.box} {bet}")
    if pool is None:
        return tuple(out)
    if pool.opening_top_up:
        move(JACKPOT, HOUSE, pool.opening_top_up, "pool seed (opening)")
    stakes = {r.play.box: r.play for r in results if r.play.pool}
    for award in pool.awards:
        play = stakes[award.box]
        move(play.player, HOUSE, -play.pool, f"box {play.box} pool stake")
        move(play.player, JACKPOT, award.amount, f"box {play.box} pool award")
        move(JACKPOT, HOUSE, award.top_up, f"pool seed after box {play.box}")
    for c in pool.contributions:
        play = stakes[c.box]
        memo = f"box {play.box} pool stake"
        move(play.player, HOUSE, -c.stake, memo)
        move(JACKPOT, HOUSE, c.to_pool, f"box {play.box} pool contribution")
        move(ROUNDING, HOUSE, c.rounding, memo + " rounding")
    return tuple(out)
