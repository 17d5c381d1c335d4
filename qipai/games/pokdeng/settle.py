"""`qipai settle` for Pok Deng: settle one dealt round from JSON (the audit and dispute tool).

Input::

    {"game": "pokdeng", "mode": "classic" | "banker-player",
     "hands": {"P1": ["Ac", "7h"], …, "B": ["Ad", "4h"]},
     "bets": [{"id": "1", "spot": "P1", "amount": 100}, {"id": "2", "spot": "P1 pair", …}]}

Amounts are minor units; spots `P1`…`P5`, `B1`…`B5`, `P1 pair`…`P5 pair`, `B pair`; only the hands
the bets need are required. Optional: `"decks"` (default 8, bounds how often one card may appear)
and `"note"` (free text, ignored). Output: per hand `points`, `rank` ("7.4"), `name`, `double`
(with `suited`, `pair`); per bet `id`, `spot`, `amount`, `taken`, `returned`, `net`, `outcome`,
`multiple`, `rounding`; and totals (taken, returned, players' net, house, rounding). Table limits
are not applied: this settles what was dealt and bet.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, JsonValue, model_validator

from qipai.core.cards import parse_card
from qipai.core.errors import InvalidInput
from qipai.core.model import Amount, Int, Model, Text
from qipai.games.pokdeng.config import BANKER, MODES, POSITIONS, SPOTS, Mode, PokDengConfig
from qipai.games.pokdeng.hands import Hand, evaluate
from qipai.games.pokdeng.payout import Bet, settle_bet

_HAND_NAMES = (*POSITIONS, BANKER)
CardText = Annotated[str, Field(strict=True, max_length=8)]
Name = Annotated[str, Field(strict=True, min_length=1, max_length=64)]
MAX_BETS = 1000
# the schema's enums (JSON values)
_ALL_SPOTS: list[JsonValue] = [*sorted({spot for mode in MODES for spot in SPOTS[mode]})]
_HAND_ENUM: list[JsonValue] = [*_HAND_NAMES]


class PokDengSettleBet(Model):
    """One bet of the document; `id` defaults to its position (1, 2, …)."""

    id: Name | Int | None = Field(None, description="unique among the bets")
    spot: Annotated[Text, Field(max_length=16)] = Field(
        description="a spot of the document's mode; a bet on a hand needs that hand and B, "
        "a pair bet its hand",
        json_schema_extra={"enum": _ALL_SPOTS},
    )
    amount: Amount
    player: Name = "player"


class PokDengSettle(Model):
    """The `qipai settle` document of a Pok Deng round.

    Cross-field rules (checked by the model, stated in the schema's descriptions): hands are
    named P1–P5 and B; each bet's spot is one of the mode's, its id unique, and the hands it
    is settled by are given. The cards themselves (and how often one may appear in `decks`
    decks) are checked in `settle`."""

    game: Literal["pokdeng"]
    mode: Mode
    hands: dict[
        Annotated[Text, Field(max_length=8)],
        Annotated[tuple[CardText, ...], Field(min_length=2, max_length=2)],
    ] = Field(
        max_length=len(_HAND_NAMES),
        description="hand name (P1–P5, B) → its two cards",
        json_schema_extra={"propertyNames": {"enum": _HAND_ENUM}},
    )
    bets: tuple[PokDengSettleBet, ...] = Field(max_length=MAX_BETS)
    decks: Annotated[Int, Field(ge=1, le=16)] = Field(
        8, description="the shoe's decks: bounds how often one card may appear"
    )
    note: Annotated[Text, Field(max_length=10_000)] | None = None

    @model_validator(mode="after")
    def _hands_and_spots(self) -> PokDengSettle:
        for name in self.hands:
            if name not in _HAND_NAMES:
                raise InvalidInput(f"unknown hand {name!r}; hands are P1–P5 and B", field="hands")
        spots = SPOTS[self.mode]
        ids: set[str] = set()
        for i, item in enumerate(self.bets):
            bet_id = _bet_id(item, i)
            if bet_id in ids:
                raise InvalidInput(f"duplicate bet id {bet_id!r}", field=f"bets.{i}.id")
            ids.add(bet_id)
            if item.spot not in spots:
                raise InvalidInput(
                    f"bet {bet_id}: spot {item.spot!r} is not a {self.mode} spot "
                    f"({', '.join(spots)})",
                    field=f"bets.{i}.spot",
                )
            kind, about = spots[item.spot]
            needed = [about] if kind == "pair" else [about, BANKER]
            missing = [h for h in needed if h not in self.hands]
            if missing:
                raise InvalidInput(
                    f"bet {bet_id} on {item.spot} needs hand(s) {', '.join(missing)}",
                    field=f"bets.{i}.spot",
                )
        return self


def _bet_id(item: PokDengSettleBet, index: int) -> str:
    return str(index + 1) if item.id is None else str(item.id)


# The model `qipai schema` writes as docs/schema/<game>.settle.json (qipai.core.schema).
DOCUMENT = PokDengSettle


def _parse_hands(raw: Mapping[str, tuple[str, ...]], decks: int) -> dict[str, Hand]:
    hands: dict[str, Hand] = {}
    seen: Counter[str] = Counter()
    for name, cards in raw.items():
        try:
            a, b = (parse_card(c) for c in cards)
        except InvalidInput as exc:
            raise InvalidInput(f"hand {name}: {exc.message}", field=f"hands.{name}") from None
        seen.update((str(a), str(b)))
        hands[name] = evaluate(a, b)
    for card, count in seen.items():
        if count > decks:
            raise InvalidInput(f"card {card} appears {count} times but the shoe has {decks} decks")
    return hands


def _bets(raw: tuple[PokDengSettleBet, ...]) -> list[Bet]:
    """The document's bets (the model checked their spots, ids and hands)."""
    return [
        Bet(_bet_id(item, i), item.player, item.spot, item.amount) for i, item in enumerate(raw)
    ]


def settle(raw_doc: Mapping[str, Any]) -> dict[str, Any]:
    """Settle the round described by `doc`; InvalidInput names the first problem found."""
    doc = PokDengSettle.parse(raw_doc)
    mode = doc.mode
    hands = _parse_hands(doc.hands, doc.decks)
    bets = _bets(doc.bets)
    config = PokDengConfig(mode=mode)
    outcomes = [settle_bet(config, bet, hands) for bet in bets]
    taken = sum(o.taken for o in outcomes)
    returned = sum(o.returned for o in outcomes)
    rounding = sum(o.rounding for o in outcomes)
    bet_rows = []
    for item, o in zip(doc.bets, outcomes, strict=True):
        row = o.to_json()
        if "player" not in item.model_fields_set:  # players are optional in an audit
            row.pop("player")
        bet_rows.append(row)
    return {
        "game": "pokdeng",
        "mode": mode,
        "hands": {name: hands[name].to_json() for name in _HAND_NAMES if name in hands},
        "bets": bet_rows,
        "totals": {
            "taken": taken,
            "returned": returned,
            "net": returned - taken,
            "house": taken - returned - rounding,
            "rounding": rounding,
        },
    }
