"""The jackpot's money, labelled one way wherever it is reported (house results, `qipai audit`,
the back office; docs/operators.md#jackpot):

* **funding** — the operator's transfers from the house jackpot account (`house-jackpot`) into a
  pool (`Ledger.fund_pool`), outside any round;
* **seed** — in a round, the house's top-up of a pool that is below its seed amount before the
  deal (a new pool);
* **top-ups** — in a round, the house's top-ups back to the seed right after an award;
* **contributions** — the players' pool stakes, into the pool;
* **awards** — what the pool paid to winning hands.

Seed and top-ups are the house's money into the jackpot, posted from the table's house account
in the round's settlement; they are the jackpot's cost, not the table's play, so the reports
count them here and leave them out of the table's result. A round's result details say what
they were (`details["pool"]`: `opening_top_up`, `awards[].top_up` and `.amount`, written by the
game that has a pool).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

TERMS = ("funding", "seed", "top_ups", "contributions", "awards")
"""The jackpot's movements, in the order reports show them."""


@dataclass(frozen=True)
class RoundPool:
    """What a round's settlement did to its pool, beside the pool's net entry (`moved`)."""

    seed: int
    top_ups: int
    contributions: int
    awards: int


def round_pool(details: Mapping[str, Any] | None, moved: int) -> RoundPool:
    """Split a round's net movement of its pool (`moved`, the pool account's entries) into seed,
    top-ups, contributions and awards: from the result's `pool` when the game recorded one,
    else (a game without a seed) what came in is contributions and what went out awards."""
    pool = (details or {}).get("pool")
    if not isinstance(pool, Mapping):
        return RoundPool(0, 0, max(moved, 0), max(-moved, 0))
    awards = [a for a in pool.get("awards") or [] if isinstance(a, Mapping)]
    seed = int(pool.get("opening_top_up") or 0)
    top_ups = sum(int(a.get("top_up") or 0) for a in awards)
    paid = sum(int(a.get("amount") or 0) for a in awards)
    return RoundPool(seed, top_ups, moved - seed - top_ups + paid, paid)


__all__ = ["TERMS", "RoundPool", "round_pool"]
