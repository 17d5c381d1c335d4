"""Poker hand categories and the layout of a hand's strength integer.

A hand's *strength* is one integer, higher is better, equal for hands that tie:
`strength = category << 12 | index`, where `index` orders the hands of one category (0 = the
weakest). The category is therefore `strength >> 12`; the royal flush is its own category (the
top straight flush) because the Hold'em Bonus jackpot pays it separately (docs/rules/holdem-bonus.md).
"""

from __future__ import annotations

from enum import IntEnum

CATEGORY_SHIFT = 12


class Category(IntEnum):
    """Poker hand categories, weakest first."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def label(self) -> str:
        """Human-readable name, e.g. 'Full house'."""
        return _LABELS[self]

    @property
    def key(self) -> str:
        """Stable snake_case name for JSON, e.g. 'full_house'."""
        return self.name.lower()


_LABELS = {
    Category.HIGH_CARD: "High card",
    Category.PAIR: "Pair",
    Category.TWO_PAIR: "Two pair",
    Category.THREE_OF_A_KIND: "Three of a kind",
    Category.STRAIGHT: "Straight",
    Category.FLUSH: "Flush",
    Category.FULL_HOUSE: "Full house",
    Category.FOUR_OF_A_KIND: "Four of a kind",
    Category.STRAIGHT_FLUSH: "Straight flush",
    Category.ROYAL_FLUSH: "Royal flush",
}

# Number of distinct 5-card hand classes per category (7,462 in all).
CLASS_COUNTS = {
    Category.HIGH_CARD: 1277,
    Category.PAIR: 2860,
    Category.TWO_PAIR: 858,
    Category.THREE_OF_A_KIND: 858,
    Category.STRAIGHT: 10,
    Category.FLUSH: 1277,
    Category.FULL_HOUSE: 156,
    Category.FOUR_OF_A_KIND: 156,
    Category.STRAIGHT_FLUSH: 9,
    Category.ROYAL_FLUSH: 1,
}

# Known counts of all 2,598,960 five-card hands and all 133,784,560 seven-card hands (best five
# of seven) by category; the evaluator's exhaustive tests check them.
FIVE_CARD_COUNTS = {
    Category.HIGH_CARD: 1_302_540,
    Category.PAIR: 1_098_240,
    Category.TWO_PAIR: 123_552,
    Category.THREE_OF_A_KIND: 54_912,
    Category.STRAIGHT: 10_200,
    Category.FLUSH: 5_108,
    Category.FULL_HOUSE: 3_744,
    Category.FOUR_OF_A_KIND: 624,
    Category.STRAIGHT_FLUSH: 36,
    Category.ROYAL_FLUSH: 4,
}
SEVEN_CARD_COUNTS = {
    Category.HIGH_CARD: 23_294_460,
    Category.PAIR: 58_627_800,
    Category.TWO_PAIR: 31_433_400,
    Category.THREE_OF_A_KIND: 6_461_620,
    Category.STRAIGHT: 6_180_020,
    Category.FLUSH: 4_047_644,
    Category.FULL_HOUSE: 3_473_184,
    Category.FOUR_OF_A_KIND: 224_848,
    Category.STRAIGHT_FLUSH: 37_260,
    Category.ROYAL_FLUSH: 4_324,
}


def category_of(strength: int) -> Category:
    """The category of a strength integer."""
    return Category(int(strength) >> CATEGORY_SHIFT)
