"""Tien Gow's deal made public (docs/fairness.md, "The games", "Tien Gow's tile commitment";
docs/rules/tiengow.md): the first banker, the 32-tile shuffle, each seat's eight tiles, the root
of the tile commitment.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from qipai.core.errors import InvalidInput
from qipai.core.protocol import JSON, Seat
from qipai.core.rng import Rng
from qipai.core.spec import DealDescription
from qipai.fairness.deal import compare_items, join, seats_input, shuffled, tile_order
from qipai.fairness.tiles import dealt_positions, tiles_commitment


def tiengow_deal(key: bytes, inputs: Mapping[str, Any]) -> JSON:
    """docs/rules/tiengow.md. Seats in counter-clockwise order (the order of play). With no banker from
    the previous game, the banker is `choice(seats)` from `banker`. The 32 tiles are shuffled by
    `deal`; position i of the result is tile id i. Batches of four (positions 4b … 4b+3) go
    counter-clockwise from the banker: batch b to the (b mod 4)-th seat from the banker. The
    tile commitment (`qipai.fairness.tiles`) covers the positions in this order."""
    seats = seats_input(inputs, 4)
    banker = inputs.get("banker")
    if banker is None:
        banker, how = Rng(key).fork("banker").choice(seats), "random"
    elif banker in seats:
        how = "previous-game"
    else:
        raise InvalidInput(f"inputs.banker {banker!r} is not one of the seats")
    tiles = shuffled(key, "deal", tile_order())
    hands = {s: [tiles[p] for p in ps] for s, ps in dealt_positions(seats, banker).items()}
    return {
        "game": "tiengow",
        "tiles": tiles,
        "banker": banker,
        "banker_by": how,
        "hands": hands,
        "tiles_root": tiles_commitment(key, tiles).root,
    }


def inputs(round_: Any, config: Any, seats: Sequence[Seat], context: Mapping[str, Any]) -> JSON:
    """The public inputs the deal depends on (the export's `inputs`)."""
    ids = [s.id for s in seats]
    {s.id: s.stack for s in seats}
    return {"seats": ids, "banker": context.get("banker")}


def dealt(round_: Any, key: bytes, record: Mapping[str, Any], with_seed: bool) -> Any:
    """What the table showed at the end (None before the end, or when it was not shown)."""
    if not round_.finished:
        return None
    if not with_seed:
        return None
    first = type(round_).start(round_.config, round_.seats, Rng(key), record.get("context") or {})
    return {
        "banker": first.banker,
        "hands": {s: [str(t) for _, t in first.hand_of(s)] for s in first.seat_ids()},
    }


def lines(deal: Mapping[str, Any]) -> list[str]:
    """The deal as `qipai verify` prints it."""
    out: list[str] = []
    out.append(f"tiles (shuffled): {join(deal['tiles'])}")
    out.append(f"banker: {deal['banker']} ({deal['banker_by']})")
    out += [f"  {s}: {join(t)}" for s, t in deal["hands"].items()]
    out.append(f"tile commitment root: {deal['tiles_root']}")
    return out


DESCRIPTION = DealDescription(
    inputs=inputs,
    deal=tiengow_deal,
    dealt=dealt,
    lines=lines,
    compare=partial(compare_items, keys=("banker", "hands")),
    streams=("banker", "deal", "salts"),
)
