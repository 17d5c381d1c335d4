"""Swap Niu Niu's deal made public (docs/fairness.md, "The games"; docs/rules/niuniu.md): the 52-card
shuffle, the four first cards of each seat, the cards swapped in, the fifth card, the banker.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from qipai.core.errors import InvalidInput
from qipai.core.protocol import JSON, Seat
from qipai.core.rng import Rng
from qipai.core.spec import DealCheckLike, DealDescription
from qipai.fairness.deal import card_order, draw_banker, join, per_seat_input, seats_input, shuffled


def niuniu_deal(key: bytes, inputs: Mapping[str, Any]) -> JSON:
    """docs/rules/niuniu.md. One 52-card shuffle per round (`deck`), dealt from the top: four passes of
    one card to each seat in seat order; after the swap phase, in seat order, each seat gets
    as many cards as it swapped (they replace its swapped cards, lowest position first); the
    banker from the bids (`banker` for a tie or nobody bidding); last the fifth card to each
    seat in seat order."""
    seats = seats_input(inputs)
    if not 2 <= len(seats) <= 5:
        raise InvalidInput(f"inputs.seats must name 2 to 5 seats, got {len(seats)}")
    deck = shuffled(key, "deck", card_order())
    n = len(seats)
    initial = {s: [deck[k * n + i] for k in range(4)] for i, s in enumerate(seats)}
    out: JSON = {
        "game": "niuniu",
        "deck": deck,
        "initial": initial,
        "received": None,
        "fifth": None,
        "banker": None,
        "banker_by": None,
    }
    swaps = per_seat_input(inputs, "swaps", seats)
    if swaps is not None:
        if any(v > 4 for v in swaps.values()):
            raise InvalidInput("inputs.swaps: a seat swaps at most 4 cards")
        top = 4 * n
        received: dict[str, list[str]] = {}
        for seat in seats:
            received[seat] = deck[top : top + swaps[seat]]
            top += swaps[seat]
        out["received"] = received
        out["fifth"] = {s: deck[top + i] for i, s in enumerate(seats)}
    bids = per_seat_input(inputs, "bids", seats)
    if bids is not None:
        stacks = per_seat_input(inputs, "stacks", seats) or dict.fromkeys(seats, 0)
        banker, how = draw_banker(Rng(key).fork("banker"), seats, bids, stacks)
        out["banker"] = banker
        out["banker_by"] = {"nobody-bid": "random", "highest-bid": "bid", "tie": "tie"}[how]
    return out


def inputs(round_: Any, config: Any, seats: Sequence[Seat], context: Mapping[str, Any]) -> JSON:
    """The public inputs the deal depends on (the export's `inputs`)."""
    ids = [s.id for s in seats]
    stacks = {s.id: s.stack for s in seats}
    swapped = bool(round_.discarded)
    return {
        "seats": ids,
        "swaps": {s: len(round_.discarded[s]) for s in ids} if swapped else None,
        "bids": {s: v or 0 for s, v in round_.bids.items()} if round_.banker else None,
        "stacks": stacks,
    }


def dealt(round_: Any, key: bytes, record: Mapping[str, Any], with_seed: bool) -> Any:
    """What the table showed at the end (None before the end, or when it was not shown)."""
    if not round_.finished:
        return None
    return {
        "banker": round_.banker,
        "hands": {s: [str(c) for c in cs] for s, cs in round_.cards.items()},
    }


def lines(deal: Mapping[str, Any]) -> list[str]:
    """The deal as `qipai verify` prints it."""
    out: list[str] = []
    out.append(f"deck (shuffled): {join(deal['deck'])}")
    for seat, cards in deal["initial"].items():
        line = f"  {seat}: {join(cards)}"
        if deal["received"] is not None:
            line += f" | swapped in {join(deal['received'][seat])} | fifth {deal['fifth'][seat]}"
        out.append(line)
    if deal["banker"] is not None:
        out.append(f"banker: {deal['banker']} ({deal['banker_by']})")
    return out


def _hands(check: DealCheckLike, deal: Mapping[str, Any], dealt: Mapping[str, Any]) -> None:
    """A final hand is the four first cards with the swapped positions replaced, in position
    order, by the cards swapped in, then the fifth card."""
    hands = dealt.get("hands") or {}
    for seat, initial in deal["initial"].items():
        hand = list(hands.get(seat) or [])
        received = list((deal["received"] or {}).get(seat, []))
        replaced = [hand[i] for i in range(min(4, len(hand))) if hand[i] != initial[i]]
        ok = len(hand) == 5 and hand[4] == (deal["fifth"] or {}).get(seat) and replaced == received
        check.add(f"{seat}'s hand as dealt", ok, join(hand))


def compare(check: DealCheckLike, deal: Mapping[str, Any], dealt: Mapping[str, Any]) -> None:
    """The banker as chosen, then each final hand against the deal's cards."""
    check.add("banker as chosen", dealt.get("banker") == deal["banker"], str(deal["banker"]))
    _hands(check, deal, dealt)


DESCRIPTION = DealDescription(
    inputs=inputs,
    deal=niuniu_deal,
    dealt=dealt,
    lines=lines,
    compare=compare,
    streams=("deck", "banker"),
)
