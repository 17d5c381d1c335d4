"""Exact outcome distributions of one bet, per unit staked, in `Fraction` arithmetic.

A bet's figures are a list of outcomes (label, net result per unit staked, probability). From it
follow the return to player (1 + expected net), the house edge (−expected net) and the standard
deviation of the net per unit. Probabilities come from integer enumeration weights, so every
figure is exact; floats appear only when a figure is printed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class Outcome:
    """One result of a bet: its label, net per unit staked and exact probability."""

    label: str
    net: Fraction
    probability: Fraction

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.label,
            "net": fraction_json(self.net),
            "probability": fraction_json(self.probability),
        }


@dataclass(frozen=True)
class BetFigures:
    """The exact figures of one bet: its outcomes (probabilities summing to 1) and notes."""

    bet: str
    outcomes: tuple[Outcome, ...]
    note: str = ""
    estimate: bool = False  # True when the probabilities are a Monte Carlo estimate
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        total = sum((o.probability for o in self.outcomes), Fraction(0))
        if not self.estimate and total != 1:
            raise AssertionError(f"{self.bet}: probabilities sum to {total}, not 1")

    @property
    def ev(self) -> Fraction:
        """Expected net result per unit staked."""
        return sum((o.net * o.probability for o in self.outcomes), Fraction(0))

    @property
    def rtp(self) -> Fraction:
        return 1 + self.ev

    @property
    def house_edge(self) -> Fraction:
        return -self.ev

    @property
    def variance(self) -> Fraction:
        mean = self.ev
        return sum((o.probability * (o.net - mean) ** 2 for o in self.outcomes), Fraction(0))

    @property
    def sd(self) -> float:
        return math.sqrt(self.variance)

    def to_json(self) -> dict[str, Any]:
        return {
            "bet": self.bet,
            "rtp": fraction_json(self.rtp),
            "house_edge": fraction_json(self.house_edge),
            "sd": self.sd,
            "estimate": self.estimate,
            "note": self.note,
            "outcomes": [o.to_json() for o in self.outcomes],
            **dict(self.extra),
        }


def from_weights(
    bet: str,
    weights: Mapping[tuple[str, Fraction], int],
    note: str = "",
    order: Iterable[str] | None = None,
) -> BetFigures:
    """Build a bet's figures from integer enumeration weights keyed by (label, net per unit)."""
    total = sum(weights.values())
    if total <= 0:
        raise ValueError(f"{bet}: no weight to normalise")
    items = [(label, net, w) for (label, net), w in weights.items() if w]
    rank = {label: i for i, label in enumerate(order or [])}
    items.sort(key=lambda t: (rank.get(t[0], len(rank)), -t[1], t[0]))
    outcomes = tuple(Outcome(label, net, Fraction(w, total)) for label, net, w in items)
    return BetFigures(bet, outcomes, note)


def fraction_json(value: Fraction) -> dict[str, Any]:
    """A Fraction as JSON: the exact ratio as text and a float for reading."""
    return {"exact": f"{value.numerator}/{value.denominator}", "value": float(value)}


def percent(value: Fraction | float, digits: int = 4) -> str:
    """`Fraction(973, 1000)` → `"97.3000 %"`."""
    return f"{float(value) * 100:.{digits}f} %"
