"""Hold'em Bonus hands: the showdown hand (best five of seven), the bonus line of two hole cards
and the pool (jackpot) line of hole cards + flop. The poker ranking itself is `qipai.poker`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from qipai.core.cards import ACE, JACK, KING, QUEEN, TEN, Card
from qipai.games.holdem_bonus.config import BonusTable
from qipai.poker import Category, best_five, category_of


class BonusLine(Enum):
    """The lines of the bonus pay table (docs/rules/holdem-bonus.md#bonus), with their odds (x:1)."""

    ACES_VS_ACES = ("aces_vs_dealer_aces", 1000, "AA, dealer AA")
    ACES = ("aces", 30, "AA")
    AK_SUITED = ("ak_suited", 25, "AK suited")
    AQ_AJ_SUITED = ("aq_aj_suited", 20, "AQ or AJ suited")
    AK_OFFSUIT = ("ak_offsuit", 15, "AK offsuit")
    KK_QQ_JJ = ("kk_qq_jj", 10, "KK, QQ or JJ")
    AQ_AJ_OFFSUIT = ("aq_aj_offsuit", 5, "AQ or AJ offsuit")
    SMALL_PAIR = ("small_pair", 3, "22 to TT (with-small-pairs table only)")

    def __init__(self, key: str, odds: int, label: str) -> None:
        self.key = key
        self.odds = odds
        self.label = label


def bonus_line(
    hole: Sequence[Card], dealer: Sequence[Card] | None, table: BonusTable = "source"
) -> BonusLine | None:
    """The bonus line two hole cards win, or None (the bonus is lost).

    docs/rules/holdem-bonus.md#bonus: AA and dealer AA 1000:1; AA 30:1; AK suited 25:1; AQ or AJ suited 20:1; AK
    offsuit 15:1; KK, QQ or JJ 10:1; AQ or AJ offsuit 5:1; the "with-small-pairs" preset adds
    any pair 2-2 … 10-10 at 3:1. `dealer` (the dealer's hole cards) matters only for AA; pass
    None before the dealer's cards are shown (AA then reads as the 30:1 line).
    """
    a, b = hole
    hi, lo = (a, b) if a.rank >= b.rank else (b, a)
    suited = a.suit == b.suit
    if hi.rank == lo.rank:
        if hi.rank == ACE:
            if dealer is not None and all(c.rank == ACE for c in dealer):
                return BonusLine.ACES_VS_ACES
            return BonusLine.ACES
        if hi.rank in (KING, QUEEN, JACK):
            return BonusLine.KK_QQ_JJ
        if table == "with-small-pairs" and hi.rank <= TEN:
            return BonusLine.SMALL_PAIR
        return None
    if hi.rank != ACE:
        return None
    if lo.rank == KING:
        return BonusLine.AK_SUITED if suited else BonusLine.AK_OFFSUIT
    if lo.rank in (QUEEN, JACK):
        return BonusLine.AQ_AJ_SUITED if suited else BonusLine.AQ_AJ_OFFSUIT
    return None


@dataclass(frozen=True)
class PokerHand:
    """A hand's strength (higher is better; equal = tie), category and the five cards shown."""

    strength: int
    category: Category
    five: tuple[Card, ...]

    @classmethod
    def of(cls, cards: Sequence[Card]) -> PokerHand:
        strength, five = best_five(cards)
        return cls(strength, category_of(strength), tuple(five))

    def to_json(self) -> dict[str, Any]:
        return {
            "category": self.category.key,
            "name": self.category.label,
            "strength": self.strength,
            "best_five": [str(c) for c in self.five],
        }


def pool_category(hole: Sequence[Card], flop: Sequence[Card]) -> PokerHand:
    """The pool (jackpot) hand: exactly the five cards hole + flop (docs/rules/holdem-bonus.md#pool)."""
    return PokerHand.of([*hole, *flop])
