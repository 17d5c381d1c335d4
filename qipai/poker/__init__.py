"""Poker hands: categories and a fast evaluator for 5, 6 or 7 cards (numba, lookup tables).

`evaluate(cards) -> int` gives a strength (higher is better, equal for tied hands);
`category_of(strength)` its `Category`; `evaluate_batch(array)` does millions per second;
`best_five(cards)` picks the five cards shown. See `evaluator.py` for calling the compiled
kernels from other numba code.
"""

from __future__ import annotations

from qipai.poker.categories import (
    FIVE_CARD_COUNTS,
    SEVEN_CARD_COUNTS,
    Category,
    category_of,
)
from qipai.poker.evaluator import (
    best_five,
    category_counts,
    evaluate,
    evaluate_batch,
    hand_classes,
)

__all__ = [
    "FIVE_CARD_COUNTS",
    "SEVEN_CARD_COUNTS",
    "Category",
    "best_five",
    "category_counts",
    "category_of",
    "evaluate",
    "evaluate_batch",
    "hand_classes",
]
