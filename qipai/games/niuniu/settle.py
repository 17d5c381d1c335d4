"""`qipai settle` for Swap Niu Niu: audit one dealt round from its final hands and multiples.

Input (docs/rules/niuniu.md):
    {"game": "niuniu", "base": 100, "commission": "0.04", "banker": "莊", "banker_multiple": 3,
     "seats": {"出": {"cards": ["Ks", …5 cards…], "multiple": 2, "balance": 100000}, …,
               "莊": {"cards": […], "balance": 100000}}}
The banker's seat needs no "multiple" (its bid is `banker_multiple`). `commission` defaults to
"0.04". Every balance is required, because the no-negative-balance cap depends on it. The table
settings `bid_multiples` and `bet_multiples` may be given (docs/rules/niuniu.md#decisions Decision defaults 1–4 and
1–5); the banker's multiple and every bet must be one of them, and a table has 2–5 seats.

Output: each hand's type (zh and en), multiplier, bull and point cards; each pairing's winner and
raw amount; each seat's `raw`, `gross` (after caps), `commission` and `net`; the totals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from qipai.core import banker as banker_game
from qipai.core.cards import Card, parse_cards, require_distinct
from qipai.core.errors import InvalidInput
from qipai.core.model import Amount, Amount0, Commission, Model, Multiple, Multiples, Text
from qipai.games.niuniu.config import NiuniuConfig
from qipai.games.niuniu.hands import Hand, evaluate
from qipai.games.niuniu.payout import settle_hands

Seat = Annotated[str, Field(strict=True, min_length=1, max_length=32)]
CardText = Annotated[str, Field(strict=True, max_length=8)]


class NiuniuSettleSeat(Model):
    """One seat: its final five cards (a list, or one text "Ks Qh …"), its bet multiple (the
    banker's seat needs none) and its balance (the no-negative-balance cap depends on it)."""

    cards: (
        Annotated[tuple[CardText, ...], Field(max_length=5)] | Annotated[Text, Field(max_length=64)]
    )
    multiple: Multiple | None = Field(
        None,
        description="required for every seat but the banker's; the banker's, if given, equals "
        "banker_multiple",
    )
    balance: Amount0


# docs/rules/niuniu.md#seats-and-deck Decision: 2–5 seats (the table settings' defaults; a
# document gives no seat settings)
MIN_SEATS, MAX_SEATS = NiuniuConfig().min_seats, NiuniuConfig().max_seats


class NiuniuSettle(Model):
    """The `qipai settle` document of a Swap Niu Niu round.

    Cross-field rules (checked by the model, stated in the schema's descriptions): 2–5 seats;
    `banker` names one of them; every other seat has a `multiple`, and the banker's seat, if it
    gives one, gives `banker_multiple`. The multiples against the table settings and one deck
    are checked in `settle`."""

    game: Literal["niuniu"]
    base: Amount
    commission: Commission = "0.04"
    banker: Seat = banker_game.banker_field()
    banker_multiple: Multiple
    seats: dict[Seat, NiuniuSettleSeat] = banker_game.seats_field(MIN_SEATS, MAX_SEATS)
    bid_multiples: Multiples | None = None
    bet_multiples: Multiples | None = None

    @model_validator(mode="after")
    def _seats_and_banker(self) -> NiuniuSettle:
        seats, banker = self.seats, self.banker
        if banker not in seats:
            raise InvalidInput(f"banker {banker!r} must name one of the seats", field="banker")
        if not MIN_SEATS <= len(seats) <= MAX_SEATS:
            raise InvalidInput(
                f"Swap Niu Niu has {MIN_SEATS}–{MAX_SEATS} seats; the document gives {len(seats)}",
                field="seats",
            )
        for seat, entry in seats.items():
            if seat != banker and entry.multiple is None:
                raise InvalidInput(
                    f"missing field 'seats.{seat}.multiple'", field=f"seats.{seat}.multiple"
                )
            if seat == banker and entry.multiple not in (None, self.banker_multiple):
                raise InvalidInput(
                    "the banker's seat multiple differs from banker_multiple",
                    field=f"seats.{seat}.multiple",
                )
        return self


# The model `qipai schema` writes as docs/schema/<game>.settle.json (qipai.core.schema).
DOCUMENT = NiuniuSettle


def settle(raw_doc: Mapping[str, Any]) -> dict[str, Any]:
    """Settle one Niu Niu round document; InvalidInput for anything malformed."""
    doc = NiuniuSettle.parse(raw_doc)
    base, commission, banker, seats = doc.base, doc.commission, doc.banker, doc.seats
    # docs/rules/niuniu.md#decisions Decisions (table settings): bids 1–4, bets 1–5.
    settings = ("bid_multiples", "bet_multiples")
    table = NiuniuConfig.from_json(
        {k: getattr(doc, k) for k in settings if k in doc.model_fields_set}
    )
    banker_multiple = doc.banker_multiple
    if banker_multiple not in table.bid_multiples:
        raise InvalidInput(
            f"banker_multiple {banker_multiple} is not a bid; "
            f"choose one of {list(table.bid_multiples)}",
            field="banker_multiple",
        )
    hands: dict[str, Hand] = {}
    bets: dict[str, int] = {}
    balances: dict[str, int] = {}
    all_cards: list[Card] = []
    for seat, entry in seats.items():
        cards = parse_cards(entry.cards if isinstance(entry.cards, str) else list(entry.cards))
        if len(cards) != 5:
            raise InvalidInput(
                f"seat {seat!r}: a hand has 5 cards, got {len(cards)}", field=f"seats.{seat}.cards"
            )
        all_cards.extend(cards)
        hands[seat] = evaluate(cards)
        balances[seat] = entry.balance
        if seat != banker and entry.multiple is not None:  # the model: none only for the banker
            bets[seat] = banker_game.check_bet(seat, entry.multiple, table.bet_multiples)
    require_distinct(all_cards, "the round (one deck)")
    result = settle_hands(
        base=base,
        commission=commission,
        banker=banker,
        banker_multiple=banker_multiple,
        hands=hands,
        bets=bets,
        balances=balances,
    )
    seat_out: dict[str, Any] = {}
    for seat in seats:
        s = result.settlement.seats[seat]
        seat_out[seat] = {
            "role": "banker" if seat == banker else "player",
            "multiple": banker_multiple if seat == banker else bets[seat],
            "balance": balances[seat],
            "raw": s.raw,
            "gross": s.gross,
            "commission": s.commission,
            "rounding": s.rounding,
            "net": s.net,
            "balance_after": balances[seat] + s.net,
        }
    return {
        "game": "niuniu",
        "base": base,
        "commission_rate": commission,
        "banker": banker,
        "banker_multiple": banker_multiple,
        "hands": {seat: hand.to_json() for seat, hand in hands.items()},
        "pairings": {p: pr.to_json() for p, pr in result.pairings.items()},
        "seats": seat_out,
        "commission": result.settlement.commission,
        "rounding": result.settlement.rounding,
        "capped": result.settlement.capped,
        "postings": [p.to_json() for p in result.postings()],
    }
