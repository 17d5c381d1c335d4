"""Tien Gow in the operator's reports: no stakes (nobody bets before the game; the players settle
尊钱 and the score with each other afterwards, capped at their stacks), and each seat's settled
amount, won or lost, |net|, as turnover (docs/rules/tiengow.md#turnover)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from qipai.core.spec import StakedBet


def stakes(config: Mapping[str, Any], details: Mapping[str, Any]) -> list[StakedBet]:
    return []


def turnover(config: Mapping[str, Any], details: Mapping[str, Any]) -> list[tuple[str, int]]:
    nets = details.get("net") or {}
    return [(str(seat), abs(int(net))) for seat, net in nets.items() if int(net)]
