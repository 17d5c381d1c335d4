"""The bets of a settled San Gong round, for the operator's reports (turnover and return).

What a "stake" is: a player's bet against the banker is staked at A·X·Y (base × banker multiple
× own multiple), the unit the pairing's result is a multiple of (× the winning hand's
multiplier) and the unit `analysis.rtp_for` quotes the exact return per — so that a report's
actual return (Σ net / Σ staked) is comparable with the exact figure, as for Niu Niu and Pai Gow.
The banker places no bet: its result is the mirror of the players', and counting it too would
count each pairing twice. (The result after the cap and before commission, |gross|, is also in
each round's details as `valid_bet`, docs/rules/paigow.md#settlement's 有效投注額.)

`stakes` is the spec's `stakes`; the turnover is these stakes (no `turnover` of its own).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from qipai.core.spec import StakedBet

KIND = "player"  # the bet's name, as `analysis.rtp_for` names it


def stakes(config: Mapping[str, Any], details: Mapping[str, Any]) -> list[StakedBet]:
    """Each player's bet of a settled round from its recorded config and result details.

    >>> stakes({"base": 100}, {"banker": "B", "banker_multiple": 2, "bets": {"P": 3},
    ...                        "seats": {"B": {"net": -1800}, "P": {"net": 1710}}})
    [StakedBet(kind='player', seat='P', staked=600, net=1710)]
    """
    base = int(config.get("base", 100))
    x = int(details.get("banker_multiple") or 1)
    banker = details.get("banker")
    seats = details.get("seats") or {}
    out = []
    for seat, y in (details.get("bets") or {}).items():
        if seat == banker or not y:
            continue
        out.append(StakedBet(KIND, str(seat), base * x * int(y), int(seats[seat]["net"])))
    return out
