"""Pai Gow's deal made public (docs/fairness.md, "The games"; docs/rules/paigow.md): the game's 32-tile
shuffle, the round's banker and dice, the deal order and each seat's four tiles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from qipai.core.errors import InvalidInput
from qipai.core.protocol import JSON, Seat
from qipai.core.rng import Rng
from qipai.core.spec import DealDescription
from qipai.fairness.deal import (
    compare_items,
    draw_banker,
    int_input,
    join,
    per_seat_input,
    seats_input,
    shuffled,
    tile_order,
)


def paigow_deal(key: bytes, inputs: Mapping[str, Any]) -> JSON:
    """docs/rules/paigow.md. One shuffle of the 32 tiles per game (`tiles`); round N deals tiles
    8(N−1) … 8N−1. The banker comes from the bids (`round<N>/banker` for a tie or nobody
    bidding), then two dice from `round<N>/dice` (each 1 + randbelow(6)). With the seats in
    clockwise order and b the banker's index, the first seat is (b + d1 + d2 − 1) mod 4; the
    round's tiles go one at a time counter-clockwise from it, two passes: seat indexes
    (f − k) mod 4 for k = 0 … 3, twice."""
    seats = seats_input(inputs, 4)
    round_no = int_input(inputs, "round", 1, 1)
    if round_no > 2:
        raise InvalidInput(f"inputs.round is 1 or 2, got {round_no}")
    tiles = shuffled(key, "tiles", tile_order())
    own = tiles[8 * (round_no - 1) : 8 * round_no]
    out: JSON = {
        "game": "paigow",
        "tiles": tiles,
        "round": round_no,
        "round_tiles": own,
        "banker": None,
        "banker_by": None,
        "dice": None,
        "first_seat": None,
        "deal_order": None,
        "hands": None,
    }
    bids = per_seat_input(inputs, "bids", seats)
    if bids is None:
        return out
    stacks = per_seat_input(inputs, "stacks", seats) or dict.fromkeys(seats, 0)
    rng = Rng(key)
    banker, how = draw_banker(rng.fork(f"round{round_no}/banker"), seats, bids, stacks)
    dice = rng.fork(f"round{round_no}/dice").dice(2)
    first = (seats.index(banker) + sum(dice) - 1) % 4
    order = [seats[(first - k) % 4] for k in range(4)] * 2
    hands: dict[str, list[str]] = {s: [] for s in seats}
    for seat, tile in zip(order, own, strict=True):
        hands[seat].append(tile)
    out.update(
        banker=banker,
        banker_by=how,
        dice=list(dice),
        first_seat=seats[first],
        deal_order=order,
        hands=hands,
    )
    return out


def inputs(round_: Any, config: Any, seats: Sequence[Seat], context: Mapping[str, Any]) -> JSON:
    """The public inputs the deal depends on (the export's `inputs`)."""
    ids = [s.id for s in seats]
    stacks = {s.id: s.stack for s in seats}
    chosen = round_.banker is not None
    return {
        "round": round_.round_no,
        "seats": ids,
        "bids": dict(round_.bids) if chosen else None,
        "stacks": stacks,
    }


def dealt(round_: Any, key: bytes, record: Mapping[str, Any], with_seed: bool) -> Any:
    """What the table showed at the end (None before the end, or when it was not shown)."""
    if not round_.finished:
        return None
    return {
        "banker": round_.banker,
        "dice": list(round_.dice),
        "first_seat": round_.first_seat,
        "deal_order": list(round_.deal_seats),
        "hands": {s: [str(t) for t in ts] for s, ts in round_.tiles.items()},
    }


def lines(deal: Mapping[str, Any]) -> list[str]:
    """The deal as `qipai verify` prints it."""
    out: list[str] = []
    out.append(f"tiles (shuffled): {join(deal['tiles'])}")
    out.append(f"round {deal['round']} deals: {join(deal['round_tiles'])}")
    if deal["banker"] is not None:
        out.append(f"banker: {deal['banker']} ({deal['banker_by']}); dice {deal['dice']}")
        out.append(f"first seat: {deal['first_seat']}; order {join(deal['deal_order'])}")
        out += [f"  {s}: {join(t)}" for s, t in deal["hands"].items()]
    return out


DESCRIPTION = DealDescription(
    inputs=inputs,
    deal=paigow_deal,
    dealt=dealt,
    lines=lines,
    compare=partial(compare_items, keys=("banker", "dice", "first_seat", "deal_order", "hands")),
    streams=("tiles", "round<N>/banker", "round<N>/dice"),
)
