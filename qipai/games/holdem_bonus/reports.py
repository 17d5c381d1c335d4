"""Hold'em Bonus's bets of a settled round for the operator's reports
(docs/rules/holdem-bonus.md#bets): per box the main game (ante, with the flop, turn and river
bets' results), the bonus side bet and the jackpot pool bet.

The main bet's stake in `stakes` is the ante alone, because the exact return it is compared with
is quoted per ante (docs/rtp.md). Turnover (有效投注額) is every bet a box placed — ante, bonus,
pool, flop, turn and river (docs/rules/holdem-bonus.md#turnover) — so it has its own `turnover`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from qipai.core.spec import StakedBet

BETS = ("ante", "bonus", "pool", "flop", "turn", "river")
"""Every bet a box can place (docs/rules/holdem-bonus.md#bets)."""


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


def turnover(config: Mapping[str, Any], details: Mapping[str, Any]) -> list[tuple[str, int]]:
    """(seat, amount) per box: the sum of every bet it placed."""
    out = []
    for box in (details.get("boxes") or {}).values():
        bets = box["bets"]
        staked = sum(int(bets.get(kind) or 0) for kind in BETS)
        if staked:
            out.append((str(box.get("player", box.get("box"))), staked))
    return out
