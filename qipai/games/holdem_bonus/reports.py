"""Hold'em Bonus's bets of a settled round for the operator's reports
(docs/rules/holdem-bonus.md#bets): per box the main game (ante, with the flop, turn and river
bets' results), the bonus side bet and the jackpot pool bet."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from qipai.core.spec import StakedBet


def stakes(config: Mapping[str, Any], details: Mapping[str, Any]) -> list[StakedBet]:
    out = []
    for box in (details.get("boxes") or {}).values():
        bets, nets = box["bets"], box["nets"]
        seat = str(box.get("player", box.get("box")))
        main = sum(int(nets[k]) for k in ("ante", "flop", "turn", "river"))
        out.append(StakedBet("main", seat, int(bets["ante"]), main))
        for kind in ("bonus", "pool"):
            if int(bets.get(kind) or 0) > 0:
                out.append(StakedBet(kind, seat, int(bets[kind]), int(nets[kind])))
    return out
