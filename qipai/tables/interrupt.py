"""The interrupted-game policy: what each player gets when a round cannot be finished.

A round is interrupted when its table is suspended (a failure in the table's tick, recovery or
settlement, or an operator's decision) or closed while the round is open. No player may lose by
an interruption that is not theirs, and none may be paid for what the rules had not yet decided:

* every stake the round holds is returned (the round is voided in the ledger: every hold is
  released, nothing is posted);
* a player whose part of the round had already been decided in their favour — what
  `round.won_so_far()` reports, e.g. the Tien Gow 栋 already won — receives that amount on top,
  paid by the house (one transaction `interrupted_game` per player, from `house` to the player's
  table stack, tied to the round);
* so each player receives the better of "what it had won so far" and "its stakes returned"; a
  player who was losing loses nothing, and the house bears the difference.

A round whose game does not report `won_so_far` (or whose state could not even be rebuilt) is
simply voided: every stake returned.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

log = logging.getLogger("qipai.tables")


def won_so_far(round_: Any) -> dict[str, int]:
    """The round's `won_so_far()` per seat (0 for a game without it, or if it fails)."""
    if round_ is None:
        return {}
    report = getattr(round_, "won_so_far", None)
    if not callable(report):
        return {}
    try:
        raw = report()
    except Exception:  # a round too broken to say: stakes returned
        log.exception("won_so_far failed on an interrupted round")
        return {}
    if not isinstance(raw, Mapping):
        return {}
    return {str(seat): int(amount) for seat, amount in raw.items() if isinstance(amount, int)}


def payouts(round_: Any, players: Mapping[str, str]) -> dict[str, int]:
    """Player id -> what the house pays that player on top of the returned stakes (> 0 only)."""
    out: dict[str, int] = {}
    for seat, amount in won_so_far(round_).items():
        player = players.get(seat)
        if player and amount > 0:
            out[player] = out.get(player, 0) + amount
    return out


__all__ = ["payouts", "won_so_far"]
