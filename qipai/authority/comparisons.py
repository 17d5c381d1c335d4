"""Flags over many comparisons at once: the back office tests every bet of every template version
shown, so a flag at the nominal 5 % per bet would flag about one fair bet in twenty. The flags
are corrected with Holm's step-down procedure (Holm 1979), which keeps the chance of flagging
any fair bet of the report at most `alpha` whatever the dependence between the bets, and is
never less powerful than Bonferroni."""

from __future__ import annotations

import math
from collections.abc import Sequence

ALPHA = 0.05
"""The family-wise error rate of one report's flags."""


def p_value(z: float) -> float:
    """The two-sided p-value of a standard normal z-score."""
    return math.erfc(abs(z) / math.sqrt(2))


def holm(p_values: Sequence[float], alpha: float = ALPHA) -> tuple[list[bool], list[float]]:
    """(rejected, adjusted p-values) in the order given: the i-th smallest p is compared with
    alpha / (m − i), stopping at the first that is not below it; the adjusted p-value is the
    running maximum of (m − i)·p, capped at 1."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    rejected = [False] * m
    running = 0.0
    stopped = False
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
        if not stopped and p_values[i] <= alpha / (m - rank):
            rejected[i] = True
        else:
            stopped = True
    return rejected, adjusted


__all__ = ["ALPHA", "holm", "p_value"]
