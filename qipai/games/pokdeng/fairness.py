"""Pok Deng's deal made public (docs/fairness.md, "The games"; docs/rules/pokdeng.md#cards-and-shoe):
the shoe and its cut from the unit key, the round's position in it, the two cards of each spot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from qipai.core.errors import InvalidInput
from qipai.core.protocol import JSON, Seat
from qipai.core.rng import Rng
from qipai.core.spec import DealDescription
from qipai.fairness.deal import card_order, compare_items, int_input, join, shuffled

SPOTS = ("P1", "P2", "P3", "P4", "P5", "B")
CARDS_PER_ROUND = 13


def pokdeng_deal(key: bytes, inputs: Mapping[str, Any]) -> JSON:
    """docs/rules/pokdeng.md#cards-and-shoe. The shoe (`decks` × the 52 cards) is shuffled by `shoe`; the cut card leaves
    `behind = lo + randbelow(hi − lo + 1)` cards behind it (stream `cut`), i.e. it lies before
    index `cut_index = size − behind`. A round at `position` p burns card p and deals cards
    p+1 … p+12 one at a time to P1, P2, P3, P4, P5, B, then again in the same order. It is the
    shoe's last round when p + 13 > cut_index."""
    decks = int_input(inputs, "decks", 8, 1)
    cut = inputs.get("cut_behind", [52, 104])
    if not (isinstance(cut, list | tuple) and len(cut) == 2 and all(type(c) is int for c in cut)):
        raise InvalidInput(f"inputs.cut_behind must be [min, max], got {cut!r}")
    lo, hi = int(cut[0]), int(cut[1])
    size = 52 * decks
    if not 0 <= lo <= hi < size:
        raise InvalidInput(f"inputs.cut_behind {cut!r} does not fit a {size}-card shoe")
    position = int_input(inputs, "position", 0, 0)
    shoe = shuffled(key, "shoe", card_order(decks))
    behind = lo + Rng(key).fork("cut").randbelow(hi - lo + 1)
    cut_index = size - behind
    if position + CARDS_PER_ROUND > size:
        raise InvalidInput(f"inputs.position {position} leaves no round in a {size}-card shoe")
    cards = shoe[position + 1 : position + CARDS_PER_ROUND]
    return {
        "game": "pokdeng",
        "shoe": shoe,
        "behind_cut": behind,
        "cut_index": cut_index,
        "position": position,
        "burn": shoe[position],
        "hands": {spot: [cards[i], cards[i + 6]] for i, spot in enumerate(SPOTS)},
        "last_round": position + CARDS_PER_ROUND > cut_index,
    }


def inputs(round_: Any, config: Any, seats: Sequence[Seat], context: Mapping[str, Any]) -> JSON:
    """The public inputs the deal depends on (the export's `inputs`)."""
    [s.id for s in seats]
    {s.id: s.stack for s in seats}
    return {
        "decks": config.decks,
        "cut_behind": list(config.cut_behind),
        "position": int(context.get("position", 0)),
        "round_in_shoe": int(context.get("round_in_shoe", 1)),
    }


def dealt(round_: Any, key: bytes, record: Mapping[str, Any], with_seed: bool) -> Any:
    """What the table showed at the end (None before the end, or when it was not shown)."""
    if not round_.finished:
        return None
    return {"hands": {spot: [str(c) for c in h.cards] for spot, h in round_.hands.items()}}


def lines(deal: Mapping[str, Any]) -> list[str]:
    """The deal as `qipai verify` prints it."""
    out: list[str] = []
    out.append(
        f"shoe: {len(deal['shoe'])} cards; the cut card leaves {deal['behind_cut']} behind it"
        f" (before index {deal['cut_index']})"
    )
    out.append(f"round at position {deal['position']}: burn {deal['burn']}")
    out += [f"  {spot}: {join(cards)}" for spot, cards in deal["hands"].items()]
    out.append(f"  last round of the shoe: {'yes' if deal['last_round'] else 'no'}")
    out.append(f"shoe order: {join(deal['shoe'])}")
    return out


DESCRIPTION = DealDescription(
    inputs=inputs,
    deal=pokdeng_deal,
    dealt=dealt,
    lines=lines,
    compare=partial(compare_items, keys=("hands",)),
    streams=("shoe", "cut"),
)
