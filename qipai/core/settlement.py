"""Banker-versus-players settlement with table-stack caps and commission (docs/rules/common.md#banker-settlement, §4).

Used by Pai Gow and Niu Niu. Each player has one raw result against the banker (positive: the
player wins that much from the banker). docs/rules/common.md#cap-algorithm Decision (cap algorithm):

1. cap each player's result at ±(that player's stack);
2. if the banker would lose more than its stack, scale every winning player's win down in
   proportion so the banker loses exactly its stack; if it would win more than its stack, scale
   every losing player's loss down so it wins exactly its stack (largest-remainder shares);
3. charge commission on each participant's *net* win only (the banker's included), rounded down,
   the leftover unit going to rounding.

Money is conserved: Σ net + commission + rounding = 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from qipai.core.errors import InvalidInput
from qipai.core.money import Rate, largest_remainder, take_commission
from qipai.core.protocol import COMMISSION, ROUNDING, Posting


@dataclass(frozen=True)
class SeatSettlement:
    seat: str
    raw: int  # result before caps (banker: minus the sum of the players' raw results)
    gross: int  # after the caps, before commission
    commission: int
    rounding: int
    net: int  # what the seat's balance changes by


@dataclass(frozen=True)
class BankerSettlement:
    banker: str
    seats: dict[str, SeatSettlement]
    capped: bool  # True when any cap changed a result

    @property
    def commission(self) -> int:
        return sum(s.commission for s in self.seats.values())

    @property
    def rounding(self) -> int:
        return sum(s.rounding for s in self.seats.values())

    def nets(self) -> dict[str, int]:
        return {seat: s.net for seat, s in self.seats.items()}

    def postings(
        self,
        memo: str,
        *,
        commission_memo: str,
        rounding_memo: str,
        zero_house_lines: bool = True,
    ) -> tuple[Posting, ...]:
        """The round's postings: each seat's net (banker first), then the commission and the
        rounding accounts (omitted when zero unless `zero_house_lines`); they sum to zero."""
        out = [Posting(seat, s.net, memo) for seat, s in self.seats.items()]
        if zero_house_lines or self.commission:
            out.append(Posting(COMMISSION, self.commission, commission_memo))
        if zero_house_lines or self.rounding:
            out.append(Posting(ROUNDING, self.rounding, rounding_memo))
        return tuple(out)


def _scale_to(amounts: dict[str, int], target: int) -> dict[str, int]:
    keys = list(amounts)
    shares = largest_remainder(target, [amounts[k] for k in keys])
    return dict(zip(keys, shares, strict=True))


def settle_banker_game(
    banker: str,
    raw_results: Mapping[str, int],
    stacks: Mapping[str, int],
    commission_rate: Rate,
) -> BankerSettlement:
    """Settle one round: `raw_results[player]` is the player's result against the banker."""
    if banker in raw_results:
        raise InvalidInput(f"the banker {banker!r} cannot also be a player")
    for seat in (banker, *raw_results):
        if seat not in stacks:
            raise InvalidInput(f"no stack given for seat {seat!r}")
        if stacks[seat] < 0:
            raise InvalidInput(f"seat {seat!r} has a negative stack")
    # Step 1: nobody wins or loses more than the stack brought into the round.
    capped = {p: max(-stacks[p], min(stacks[p], r)) for p, r in raw_results.items()}
    wins = {p: r for p, r in capped.items() if r > 0}
    losses = {p: -r for p, r in capped.items() if r < 0}
    banker_stack = stacks[banker]
    total_wins, total_losses = sum(wins.values()), sum(losses.values())
    # Step 2: the banker is capped at its stack too, by proportional scaling of the other side.
    if total_wins - total_losses > banker_stack:
        wins = _scale_to(wins, banker_stack + total_losses)
    elif total_losses - total_wins > banker_stack:
        losses = _scale_to(losses, banker_stack + total_wins)
    gross = {p: wins.get(p, 0) - losses.get(p, 0) for p in raw_results}
    banker_gross = -sum(gross.values())
    was_capped = any(gross[p] != raw_results[p] for p in raw_results)
    seats: dict[str, SeatSettlement] = {}
    banker_raw = -sum(raw_results.values())
    # Step 3: commission on net wins only.
    for seat, raw, g in [(banker, banker_raw, banker_gross)] + [
        (p, raw_results[p], gross[p]) for p in raw_results
    ]:
        split = take_commission(g, commission_rate)
        seats[seat] = SeatSettlement(seat, raw, g, split.commission, split.rounding, split.net)
    return BankerSettlement(banker, seats, was_capped)
