"""Hold'em Bonus's deal made public (docs/fairness.md, "The games"; docs/rules/holdem-bonus.md): one
52-card shuffle per round, the boxes that played, their hole cards, the dealer's and the board.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from qipai.core.errors import InvalidInput
from qipai.core.protocol import JSON, Seat
from qipai.core.spec import DealDescription
from qipai.fairness.deal import card_order, compare_items, join, shuffled


def holdem_deal(key: bytes, inputs: Mapping[str, Any]) -> JSON:
    """docs/rules/holdem-bonus.md. One 52-card shuffle per round (`deck`), no burn cards. When betting closes,
    the boxes with an ante, in the table's box order, get one card each, then the dealer one,
    then a second card each box and the dealer; the next five cards are the board (flop = the
    first three, turn the fourth, river the fifth)."""
    boxes = inputs.get("boxes")
    deck = shuffled(key, "deck", card_order())
    out: JSON = {"game": "holdem-bonus", "deck": deck, "boxes": None, "dealer": None, "board": None}
    if boxes is None:
        return out  # betting never closed: no cards were dealt
    if not isinstance(boxes, list) or not all(isinstance(b, str) for b in boxes):
        raise InvalidInput(f"inputs.boxes must list the boxes that played, got {boxes!r}")
    if len(set(boxes)) != len(boxes) or len(boxes) > 7:
        raise InvalidInput("inputs.boxes must be at most 7 distinct boxes")
    out["boxes"] = {}
    if not boxes:
        return out  # nobody bet: no cards are dealt
    n = len(boxes)
    out["boxes"] = {b: [deck[i], deck[n + 1 + i]] for i, b in enumerate(boxes)}
    out["dealer"] = [deck[n], deck[2 * n + 1]]
    out["board"] = deck[2 * n + 2 : 2 * n + 7]
    return out


def inputs(round_: Any, config: Any, seats: Sequence[Seat], context: Mapping[str, Any]) -> JSON:
    """The public inputs the deal depends on (the export's `inputs`)."""
    [s.id for s in seats]
    {s.id: s.stack for s in seats}
    dealt = round_.phase != "betting"
    return {"boxes": round_.playing_boxes() if dealt else None}


def dealt(round_: Any, key: bytes, record: Mapping[str, Any], with_seed: bool) -> Any:
    """What the table showed at the end (None before the end, or when it was not shown)."""
    if not round_.finished:
        return None
    details = (record.get("result") or {}).get("details") or round_.result().details
    if not with_seed or "board" not in details:
        return None
    return {
        "boxes": {b: list(v["hole"]) for b, v in details["boxes"].items()},
        "dealer": list(details["dealer_cards"]),
        "board": list(details["board"]),
    }


def lines(deal: Mapping[str, Any]) -> list[str]:
    """The deal as `qipai verify` prints it."""
    out: list[str] = []
    out.append(f"deck (shuffled): {join(deal['deck'])}")
    if deal["boxes"]:
        out += [f"  box {b}: {join(c)}" for b, c in deal["boxes"].items()]
        out.append(f"  dealer: {join(deal['dealer'])}")
        out.append(f"  board: {join(deal['board'])}")
    return out


DESCRIPTION = DealDescription(
    inputs=inputs,
    deal=holdem_deal,
    dealt=dealt,
    lines=lines,
    compare=partial(compare_items, keys=("boxes", "dealer", "board")),
    streams=("deck",),
)
