"""The progressive pool (jackpot) of Hold'em Bonus, settled in exactly docs/rules/holdem-bonus.md#pool-order's order.

1. (Opening) A pool below its seed amount — a new table — is first topped up by the house.
2. Awards, computed from the pool as it stands at the start of the round: winners in order of
   hand (highest first), then box order; each award is its percentage of the pool as it then
   stands, rounded down (the fraction stays in the pool); after each award the house tops the
   pool up to the seed if it fell below.
3. Only then are this round's contributions added: each non-winning stake flows in at the
   table's rate, rounded down; the rest of it (and every winning stake) is house revenue, and the
   unit lost to rounding goes to the "rounding" account.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from qipai.core.money import round_down
from qipai.poker import Category


@dataclass(frozen=True)
class PoolEntry:
    """One box's pool stake: its hand (hole + flop) and its place in box order."""

    box: str
    order: int
    stake: int
    strength: int
    category: Category


@dataclass(frozen=True)
class Award:
    box: str
    category: Category
    rate: Fraction
    pool_before: int
    amount: int
    top_up: int  # the house's top-up to the seed right after this award

    def to_json(self) -> dict[str, Any]:
        return {
            "box": self.box,
            "category": self.category.key,
            "percent": str(self.rate * 100),
            "pool_before": self.pool_before,
            "amount": self.amount,
            "top_up": self.top_up,
        }


@dataclass(frozen=True)
class Contribution:
    box: str
    stake: int
    to_pool: int
    to_house: int
    rounding: int

    def to_json(self) -> dict[str, Any]:
        return {
            "box": self.box,
            "stake": self.stake,
            "to_pool": self.to_pool,
            "to_house": self.to_house,
            "rounding": self.rounding,
        }


@dataclass(frozen=True)
class PoolResult:
    """Every step of the pool this round, and its balance after."""

    opening: int
    opening_top_up: int
    awards: tuple[Award, ...]
    contributions: tuple[Contribution, ...]
    winning_stakes: int  # stakes of winning entries: house revenue
    closing: int

    def award_of(self, box: str) -> Award | None:
        return next((a for a in self.awards if a.box == box), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "opening": self.opening,
            "opening_top_up": self.opening_top_up,
            "awards": [a.to_json() for a in self.awards],
            "contributions": [c.to_json() for c in self.contributions],
            "winning_stakes": self.winning_stakes,
            "balance_after": self.closing,
        }


def settle_pool(
    opening: int,
    entries: Sequence[PoolEntry],
    rates: Mapping[Category, Fraction],
    contribution: Fraction,
    seed: int,
) -> PoolResult:
    """Settle every pool stake of a round; `rates` maps a winning category to its share."""
    balance = opening
    opening_top_up = max(0, seed - balance)
    balance += opening_top_up
    winners = sorted(
        (e for e in entries if e.category in rates), key=lambda e: (-e.strength, e.order)
    )
    awards: list[Award] = []
    for entry in winners:
        rate = rates[entry.category]
        amount = round_down(balance * rate).value
        before = balance
        balance -= amount
        top_up = max(0, seed - balance)
        balance += top_up
        awards.append(Award(entry.box, entry.category, rate, before, amount, top_up))
    contributions: list[Contribution] = []
    for entry in sorted(entries, key=lambda e: e.order):
        if entry.category in rates:
            continue
        to_pool = round_down(entry.stake * contribution).value
        to_house = round_down(entry.stake * (1 - contribution)).value
        contributions.append(
            Contribution(
                entry.box, entry.stake, to_pool, to_house, entry.stake - to_pool - to_house
            )
        )
        balance += to_pool
    winning = sum(e.stake for e in entries if e.category in rates)
    return PoolResult(
        opening, opening_top_up, tuple(awards), tuple(contributions), winning, balance
    )
