"""`qipai settle` for San Gong: audit one dealt round from JSON (rules/en.md, Money).

Input (Pai Gow's shape)::

    {"game": "sangong", "base": 100, "commission": "0.05", "banker": "庄", "banker_multiple": 2,
     "seats": {"庄": {"stack": 100000, "cards": ["3s", "5h", "Kc"]},
               "出": {"stack": 100000, "cards": ["4d", "5c", "Ts"], "multiple": 3}, ...}}

Optional: any other table setting of `SangongConfig` (`multipliers`, `bid_multiples`,
`bet_multiples`). 2–6 seats; the banker gives no `multiple` (its bid is `banker_multiple`), every
other seat does; one deck, so no card twice.

Output: each hand (type, zh/en name, points, court cards, top card, multiplier); each pairing's
winner, stake A·X·Y, multiplier M and raw result; each seat's `raw`, `gross` (after the cap),
`commission`, `rounding`, `net` and `valid_bet` (|gross|); whether a cap applied; the balanced
postings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from qipai.core import banker as banker_game
from qipai.core.cards import Card, parse_cards, require_distinct
from qipai.core.errors import InvalidInput
from qipai.core.model import Amount, Amount0, Commission, Model, Multiple, Multiples
from qipai.games.sangong.config import MAX_SEATS, MIN_SEATS, HandMultipliers, SangongConfig
from qipai.games.sangong.hands import HAND_SIZE, evaluate
from qipai.games.sangong.payout import settle_hands

Seat = Annotated[str, Field(strict=True, min_length=1, max_length=32)]
CardText = Annotated[str, Field(strict=True, max_length=8)]
_CONFIG_KEYS = ("base", "commission", "multipliers", "bid_multiples", "bet_multiples")


class SangongSettleSeat(Model):
    """One seat: its table stack, its three cards and (a player) its bet multiple."""

    stack: Amount0
    cards: Annotated[tuple[CardText, ...], Field(min_length=HAND_SIZE, max_length=HAND_SIZE)]
    multiple: Multiple | None = Field(
        None, description="required for every seat but the banker's (whose bid is banker_multiple)"
    )


class SangongSettle(Model):
    """The `qipai settle` document of a San Gong round.

    Cross-field rules (checked by the model, stated in the schema's descriptions): 2–6 seats;
    `banker` names one of them; the banker's seat has no `multiple`, every other seat has one.
    The multiples against the table's settings and one deck are checked in `settle`."""

    game: Literal["sangong"]
    base: Amount | None = None
    commission: Commission | None = None
    multipliers: HandMultipliers | None = None
    bid_multiples: Multiples | None = None
    bet_multiples: Multiples | None = None
    banker: Seat = banker_game.banker_field()
    banker_multiple: Multiple
    seats: dict[Seat, SangongSettleSeat] = banker_game.seats_field(MIN_SEATS, MAX_SEATS)

    @model_validator(mode="after")
    def _seats_and_banker(self) -> SangongSettle:
        seats = self.seats
        if not MIN_SEATS <= len(seats) <= MAX_SEATS:
            raise InvalidInput(
                f"San Gong has {MIN_SEATS}–{MAX_SEATS} seats; the document gives {len(seats)}",
                field="seats",
            )
        if self.banker not in seats:
            raise InvalidInput(
                f"banker {self.banker!r} is not one of the seats {list(seats)}", field="banker"
            )
        banker_game.check_seats(seats, self.banker, self.banker_multiple, banker_bets=False)
        return self


# The model `qipai schema` writes as docs/schema/<game>.settle.json (qipai.core.schema).
DOCUMENT = SangongSettle


def settle(raw_doc: Mapping[str, Any]) -> dict[str, Any]:
    """Settle one dealt San Gong round; InvalidInput (exit 2) for anything malformed."""
    doc = SangongSettle.parse(raw_doc)
    given = {k: getattr(doc, k) for k in _CONFIG_KEYS if getattr(doc, k) is not None}
    settings = {k: v.to_json() if isinstance(v, Model) else v for k, v in given.items()}
    # the document's seats are the table's (rules/en.md: 2–6; the default table seats 5)
    settings["max_seats"] = max(SangongConfig().max_seats, len(doc.seats))
    config = SangongConfig.parse(settings)
    banker, banker_multiple = doc.banker, doc.banker_multiple
    if banker_multiple not in config.bid_multiples:
        raise InvalidInput(
            f"banker_multiple {banker_multiple} is not a bid; "
            f"choose one of {list(config.bid_multiples)}",
            field="banker_multiple",
        )
    stacks: dict[str, int] = {}
    bets: dict[str, int] = {}
    cards: dict[str, list[Card]] = {}
    for seat, entry in doc.seats.items():
        stacks[seat] = entry.stack
        try:
            cards[seat] = parse_cards(list(entry.cards))
        except InvalidInput as exc:
            raise InvalidInput(
                f"seat {seat!r}: {exc.message}", field=f"seats.{seat}.cards"
            ) from None
        if seat != banker and entry.multiple is not None:  # the model: none only for the banker
            bets[seat] = banker_game.check_bet(seat, entry.multiple, config.bet_multiples)
    require_distinct([c for cs in cards.values() for c in cs], "the round (one deck)")
    hands = {seat: evaluate(cs) for seat, cs in cards.items()}
    settled = settle_hands(
        base=config.base,
        commission=config.commission,
        multipliers=config.multipliers,
        banker=banker,
        banker_multiple=banker_multiple,
        hands=hands,
        bets=bets,
        stacks=stacks,
    )
    amounts = settled.seats_json()
    return {
        "game": "sangong",
        "config": config.to_json(),
        "banker": banker,
        "banker_multiple": banker_multiple,
        "hands": {s: h.to_json(config.multipliers) for s, h in hands.items()},
        "pairings": {p: pr.to_json() for p, pr in settled.pairings.items()},
        "seats": {
            seat: {"stack": stacks[seat], "multiple": bets.get(seat), **amounts[seat]}
            for seat in doc.seats
        },
        "capped": settled.settlement.capped,
        "commission": settled.settlement.commission,
        "rounding": settled.settlement.rounding,
        "postings": [p.to_json() for p in settled.postings()],
    }
