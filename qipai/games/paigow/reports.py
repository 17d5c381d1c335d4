"""Pai Gow's turnover in the operator's reports: each seat's valid bet (有效投注額), the absolute
value of its result in the round after the cap and before commission — the source's "有效投注額的
計算:玩家的輸贏值" (docs/rules/paigow.md#valid-bet), recorded in each round's details as
`valid_bet`. The stakes (each player's A·X·Y against the banker, `stakes_against_banker`) stay
what the observed return is measured against, the unit of the exact figure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def turnover(config: Mapping[str, Any], details: Mapping[str, Any]) -> list[tuple[str, int]]:
    """(seat, valid bet) of every seat that won or lost, the banker's included."""
    out = []
    for seat, row in (details.get("seats") or {}).items():
        valid = int((row or {}).get("valid_bet") or 0)
        if valid:
            out.append((str(seat), valid))
    return out
