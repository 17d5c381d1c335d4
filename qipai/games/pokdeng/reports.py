"""Pok Deng's bets of a settled round for the operator's reports (docs/rules/pokdeng.md#bets):
each spot's bet, the pair side bet and the banker bet, with what each staked and won."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from qipai.core.spec import StakedBet


def stakes(config: Mapping[str, Any], details: Mapping[str, Any]) -> list[StakedBet]:
    out = []
    for b in details.get("bets") or []:
        spot = str(b["spot"])
        kind = "pair" if spot.endswith("pair") else ("player" if spot.startswith("P") else "banker")
        out.append(StakedBet(kind, str(b["player"]), int(b["amount"]), int(b["net"])))
    return out
