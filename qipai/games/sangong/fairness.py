"""San Gong's deal made public (deal-spec/1; docs/fairness.md, "The games"; rules/en.md): the
round's public inputs for the export, the deal recomputed from a unit key and those inputs
without the engine, what the table showed, and how the two are compared (`DESCRIPTION`, the
spec's `fairness`).

The deal (the labelled streams of `qipai.core.rng`):

* `deck` — one shuffle of the 52 cards in `card_order()` (2c 2d 2h 2s 3c … As), a fresh deck
  every round;
* `banker` — the highest bid banks; a tie is drawn among the tied seats (in seat order)
  weighted by their stacks; nobody bid: a uniform choice of all seats (`draw_banker`);
* the deal order is clockwise (seat order) from the seat after the banker, and card k of the
  deck goes to the (k mod n)-th seat of that order: one card at a time, three passes.

Inputs: `{"seats": [ids in seat order], "bids": {seat: multiple, 0 = none} | null (before the
banker is chosen), "stacks": {seat: table stack}}`. The cards cannot be placed before the banker
is known, so without bids the deal gives the deck only.
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
    card_order,
    compare_items,
    draw_banker,
    join,
    per_seat_input,
    seats_input,
    shuffled,
)

HAND = 3
# What the table showed that the recomputed deal must equal, field by field.
COMPARED = ("banker", "deal_order", "hands")
# `draw_banker`'s answer → the round's `banker_by` (round.py, its view and result).
BANKER_BY = {"nobody-bid": "random", "highest-bid": "bid", "tie": "tie"}


def inputs(round_: Any, config: Any, seats: Sequence[Seat], context: Mapping[str, Any]) -> JSON:
    """The public inputs the deal depends on (the export's `inputs`): the bids only once the
    banker is chosen, since until then nobody's cards are placed."""
    ids = [s.id for s in seats]
    chosen = round_.banker is not None
    return {
        "seats": ids,
        "bids": {s: v or 0 for s, v in round_.bids.items()} if chosen else None,
        "stacks": {s.id: s.stack for s in seats},
    }


def dealt(round_: Any, key: bytes, record: Mapping[str, Any], with_seed: bool) -> JSON | None:
    """What every player was shown at the end (None before the end)."""
    if not round_.finished:
        return None
    return {
        "banker": round_.banker,
        "deal_order": list(round_.deal_order),
        "hands": {s: [str(c) for c in cs] for s, cs in round_.cards.items()},
    }


def sangong_deal(key: bytes, inputs: Mapping[str, Any]) -> JSON:
    """The deal from the unit key and the public inputs (see the module docstring)."""
    seats = seats_input(inputs)
    if not 2 <= len(seats) <= 6:
        raise InvalidInput(f"inputs.seats must name 2 to 6 seats, got {len(seats)}")
    deck = shuffled(key, "deck", card_order())
    out: JSON = {
        "game": "sangong",
        "deck": deck,
        "banker": None,
        "banker_by": None,
        "deal_order": None,
        "hands": None,
    }
    bids = per_seat_input(inputs, "bids", seats)
    if bids is None:
        return out
    stacks = per_seat_input(inputs, "stacks", seats) or dict.fromkeys(seats, 0)
    banker, how = draw_banker(Rng(key).fork("banker"), seats, bids, stacks)
    start = seats.index(banker) + 1
    order = seats[start:] + seats[:start]
    n = len(order)
    out.update(
        banker=banker,
        banker_by=BANKER_BY[how],
        deal_order=order,
        hands={seat: [deck[p * n + i] for p in range(HAND)] for i, seat in enumerate(order)},
    )
    return out


def lines(deal: Mapping[str, Any]) -> list[str]:
    """The recomputed deal as `qipai verify` prints it, line by line."""
    out = [f"deck (shuffled): {join(deal['deck'])}"]
    if deal["hands"] is not None:
        out.append(
            f"banker: {deal['banker']} ({deal['banker_by']}); "
            f"dealt clockwise from {deal['deal_order'][0]}"
        )
        out += [f"  {s}: {join(cs)}" for s, cs in deal["hands"].items()]
    return out


DESCRIPTION = DealDescription(
    inputs=inputs,
    deal=sangong_deal,
    dealt=dealt,
    lines=lines,
    # the banker and the deal order as a whole, then each seat's three cards
    compare=partial(compare_items, keys=COMPARED),
    streams=("deck", "banker"),
)
