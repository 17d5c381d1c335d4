"""High card's deal made public: one 52-card shuffle (stream `deck`) dealt from its end, one card
a seat in seat order, then a card from the end to each seat that switched, in seat order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from qipai.core.errors import InvalidInput
from qipai.core.protocol import JSON, Seat
from qipai.core.spec import DealDescription
from qipai.fairness.deal import card_order, compare_items, join, seats_input, shuffled


def deal(key: bytes, inputs: Mapping[str, Any]) -> JSON:
    seats = seats_input(inputs)
    deck = shuffled(key, "deck", card_order())
    top = len(deck)
    cards: dict[str, str] = {}
    for seat in seats:
        top -= 1
        cards[seat] = deck[top]
    switched = inputs.get("switched")
    if switched is not None:
        if not isinstance(switched, list) or not set(switched) <= set(seats):
            raise InvalidInput("inputs.switched must list seats of the round")
        for seat in seats:
            if seat in switched:
                top -= 1
                cards[seat] = deck[top]
    return {"game": "highcard", "deck": deck, "cards": cards}


def inputs(round_: Any, config: Any, seats: Sequence[Seat], context: Mapping[str, Any]) -> JSON:
    switched = [a.seat for a in round_.log if a.seat and a.action.get("type") == "switch"]
    return {"seats": [s.id for s in seats], "switched": switched if round_.finished else None}


def dealt(round_: Any, key: bytes, record: Mapping[str, Any], with_seed: bool) -> Any:
    if not round_.finished:
        return None
    return {"cards": {s: [str(c)] for s, c in round_.cards.items()}}


def lines(deal: Mapping[str, Any]) -> list[str]:
    return [f"deck (shuffled): {join(deal['deck'])}"] + [
        f"  {seat}: {card}" for seat, card in deal["cards"].items()
    ]


def _compare(check: Any, deal: Mapping[str, Any], dealt: Mapping[str, Any]) -> None:
    expected = {s: [c] for s, c in deal["cards"].items()}
    compare_items(check, {"cards": expected}, dealt, keys=("cards",))


DESCRIPTION = DealDescription(
    inputs=inputs, deal=deal, dealt=dealt, lines=lines, compare=_compare, streams=("deck",)
)
