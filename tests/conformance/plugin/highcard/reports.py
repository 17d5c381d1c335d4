"""High card in the operator's reports: each seat's ante, what it staked and won or lost."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from qipai.core.spec import StakedBet


def stakes(config: Mapping[str, Any], details: Mapping[str, Any]) -> list[StakedBet]:
    antes = details.get("antes") or {}
    pot = sum(int(a) for a in antes.values())
    winner = details.get("winner")
    return [
        StakedBet("ante", str(seat), int(a), (pot if seat == winner else 0) - int(a))
        for seat, a in antes.items()
        if int(a)
    ]
