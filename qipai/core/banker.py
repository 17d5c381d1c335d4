"""The banker bid of bid-for-banker games (抢庄: Pai Gow and Niu Niu), one rule for both.

docs/rules/paigow.md and docs/rules/niuniu.md, "Banker": each seat bids a multiple or none (0);
the highest bid banks at that multiple; a tie between the highest bids is drawn weighted by the
tied seats' stacks (持有點數越多,當莊機率越大); when nobody bids a uniformly random seat banks at
the game's smallest multiple (無人搶莊時,系統隨機指定一名玩家為莊家). The draw uses the round's
own banker stream, so a replay draws the same banker.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from qipai.core.errors import InvalidInput
from qipai.core.rng import Rng

How = Literal["highest", "tie", "nobody"]


@dataclass(frozen=True)
class BankerChoice:
    """Who banks, at which multiple, and how it was decided (`tied`: the seats drawn from)."""

    seat: str
    multiple: int
    how: How
    tied: tuple[str, ...]


def choose_banker(
    bids: Mapping[str, int], stacks: Mapping[str, int], rng: Rng, no_bid_multiple: int
) -> BankerChoice:
    """The banker from every seat's bid (seat order = the mapping's order; 0 = no bid)."""
    if not bids:
        raise InvalidInput("a banker is chosen among at least one seat")
    seats = list(bids)
    top = max(bids.values())
    if top <= 0:
        return BankerChoice(rng.choice(seats), no_bid_multiple, "nobody", ())
    tied = tuple(seat for seat in seats if bids[seat] == top)
    if len(tied) == 1:
        return BankerChoice(tied[0], top, "highest", tied)
    seat = rng.weighted_choice(tied, [stacks[s] for s in tied])
    return BankerChoice(seat, top, "tie", tied)
