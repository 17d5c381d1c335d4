"""`qipai settle` for Pai Gow: audit one dealt round from JSON (docs/rules/paigow.md#settlement).

Input::

    {"game": "paigow", "base": 100, "commission": "0.05", "banker": "S1", "banker_multiple": 2,
     "seats": {"S1": {"stack": 5000, "tiles": ["6-6", "4-5"]},
               "S2": {"stack": 800, "multiple": 3, "tiles": ["1-2", "2-4"]}, ...}}

Optional: any other table setting of `PaigowConfig` (`tie_policy`, `high_nine`, `bid_choices`,
`bet_choices`), and `used_tiles` (tiles dealt in round 1 of the same game, to check that no tile
is used twice across the game). Exactly 4 seats; the banker has no `multiple`.

Output: each hand's zh/en name, rank (1 = 至尊宝 … 32 = 0 points) and points; each pairing's
winner and amount A·X·Y; each seat's `raw`, `gross` (after the caps), `commission`, `rounding`,
`net` and `valid_bet` (有效投注額 = the amount won or lost, |gross|); whether a cap applied; the
balanced postings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from qipai.core import banker as banker_game
from qipai.core.errors import InvalidInput
from qipai.core.model import Amount, Amount0, Commission, Model, Multiple, Multiples
from qipai.core.tiles import Tile, parse_tile, require_available

from .config import SEATS, HighNine, PaigowConfig, TiePolicy
from .hands import evaluate, outcome
from .payout import settle_round

Seat = Annotated[str, Field(strict=True, min_length=1, max_length=32)]
TileText = Annotated[str, Field(strict=True, max_length=8)]
_CONFIG_KEYS = ("base", "commission", "tie_policy", "high_nine", "bid_choices", "bet_choices")


class PaigowSettleSeat(Model):
    """One seat: its stack, its two tiles and (a player, not the banker) its bet multiple."""

    stack: Amount0
    multiple: Multiple | None = Field(
        None, description="required for every seat but the banker's (whose bid is banker_multiple)"
    )
    tiles: Annotated[tuple[TileText, ...], Field(min_length=2, max_length=2)]


class PaigowSettle(Model):
    """The `qipai settle` document of a Pai Gow round: the table settings of `PaigowConfig` it
    gives (the others take their defaults), the banker, the seats and the tiles of round 1.

    Cross-field rules (checked by the model, stated in the schema's descriptions): exactly 4
    seats; `banker` names one of them; the banker's seat has no `multiple`, every other seat has
    one. Whether a multiple is one the table offers is checked against the settings in `settle`."""

    game: Literal["paigow"]
    base: Amount | None = None
    commission: Commission | None = None
    tie_policy: TiePolicy | None = None
    high_nine: HighNine | None = None
    bid_choices: Multiples | None = None
    bet_choices: Multiples | None = None
    banker: Seat = banker_game.banker_field()
    banker_multiple: Multiple
    seats: dict[Seat, PaigowSettleSeat] = banker_game.seats_field(SEATS, SEATS)
    used_tiles: Annotated[tuple[TileText, ...], Field(max_length=32)] = ()

    @model_validator(mode="after")
    def _seats_and_banker(self) -> PaigowSettle:
        seats = self.seats
        if len(seats) != SEATS:
            raise InvalidInput(
                f"Pai Gow has {SEATS} seats; the document gives {len(seats)}", field="seats"
            )
        if self.banker not in seats:
            raise InvalidInput(
                f"banker {self.banker!r} is not one of the seats {list(seats)}", field="banker"
            )
        banker_game.check_seats(seats, self.banker, self.banker_multiple, banker_bets=False)
        return self


# The model `qipai schema` writes as docs/schema/<game>.settle.json (qipai.core.schema).
DOCUMENT = PaigowSettle


def _tiles(values: tuple[str, ...]) -> list[Tile]:
    return [parse_tile(t) for t in values]


def settle(raw_doc: Mapping[str, Any]) -> dict[str, Any]:
    """Settle one dealt Pai Gow round; InvalidInput (exit 2) for anything malformed."""
    doc = PaigowSettle.parse(raw_doc)
    given: dict[str, Any] = {k: getattr(doc, k) for k in _CONFIG_KEYS}
    config = PaigowConfig.from_json({k: v for k, v in given.items() if v is not None})
    seats, banker = doc.seats, doc.banker
    banker_multiple = doc.banker_multiple
    if banker_multiple not in config.bid_choices:
        raise InvalidInput(
            f"banker_multiple {banker_multiple} is not a bid; choose one of {list(config.bid_choices)}",
            field="banker_multiple",
        )
    stacks: dict[str, int] = {}
    tiles: dict[str, list[Tile]] = {}
    bets: dict[str, int] = {}
    for seat, entry in seats.items():
        stacks[seat] = entry.stack
        tiles[seat] = _tiles(entry.tiles)
        if seat == banker or entry.multiple is None:  # the model: only the banker has none
            continue
        bets[seat] = banker_game.check_bet(seat, entry.multiple, config.bet_choices)
    used = _tiles(doc.used_tiles)
    require_available([t for ts in tiles.values() for t in ts] + used, "this game")
    hands = {s: evaluate(t, config.high_nine) for s, t in tiles.items()}
    outcomes = {p: outcome(hands[banker], hands[p], config.tie_policy) for p in bets}
    settled = settle_round(config, banker, banker_multiple, bets, outcomes, stacks)
    amounts = settled.seats_json()
    seat_rows: dict[str, dict[str, int | None]] = {
        seat: {"stack": stacks[seat], "multiple": bets.get(seat), **amounts[seat]} for seat in seats
    }
    return {
        "game": "paigow",
        "config": config.to_json(),
        "banker": banker,
        "banker_multiple": banker_multiple,
        "hands": {s: h.to_json() for s, h in hands.items()},
        "pairings": settled.pairings_json(),
        "seats": {s: seat_rows[s] for s in seats},
        "capped": settled.capped,
        "commission": settled.settled.commission,
        "rounding": settled.settled.rounding,
        "postings": [p.to_json() for p in settled.postings("paigow")],
    }
