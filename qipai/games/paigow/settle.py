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
from typing import Any

from qipai.core.errors import InvalidInput
from qipai.core.tiles import Tile, parse_tile, require_available

from .config import SEATS, PaigowConfig
from .hands import evaluate, outcome
from .payout import settle_round

_DOC_KEYS = {"game", "banker", "banker_multiple", "seats", "used_tiles"}
_CONFIG_KEYS = {"base", "commission", "tie_policy", "high_nine", "bid_choices", "bet_choices"}
_SEAT_KEYS = {"stack", "multiple", "tiles"}


def _tiles(value: object, what: str) -> list[Tile]:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise InvalidInput(f'{what} must be a list of tiles such as ["6-6", "4-5"]')
    return [parse_tile(t) for t in value]


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{what} must be an integer, got {value!r}")
    return value


def settle(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Settle one dealt Pai Gow round; InvalidInput (exit 2) for anything malformed."""
    unknown = sorted(set(doc) - _DOC_KEYS - _CONFIG_KEYS)
    if unknown:
        raise InvalidInput(f"unknown field(s) in a paigow document: {', '.join(unknown)}")
    config = PaigowConfig.from_json({k: doc[k] for k in _CONFIG_KEYS if k in doc})
    seats = doc.get("seats")
    if not isinstance(seats, Mapping):
        raise InvalidInput("'seats' must be an object of seat id → {stack, tiles[, multiple]}")
    if len(seats) != SEATS:
        raise InvalidInput(f"Pai Gow has {SEATS} seats; the document gives {len(seats)}")
    banker = doc.get("banker")
    if not isinstance(banker, str) or banker not in seats:
        raise InvalidInput(f"banker {banker!r} is not one of the seats {list(seats)}")
    banker_multiple = _int(doc.get("banker_multiple"), "banker_multiple")
    if banker_multiple not in config.bid_choices:
        raise InvalidInput(
            f"banker_multiple {banker_multiple} is not a bid; choose one of {list(config.bid_choices)}"
        )
    stacks: dict[str, int] = {}
    tiles: dict[str, list[Tile]] = {}
    bets: dict[str, int] = {}
    for seat, entry in seats.items():
        if not isinstance(entry, Mapping):
            raise InvalidInput(f"seat {seat!r} must be an object with stack and tiles")
        extra = sorted(set(entry) - _SEAT_KEYS)
        if extra:
            raise InvalidInput(f"unknown field(s) for seat {seat!r}: {', '.join(extra)}")
        stacks[seat] = _int(entry.get("stack"), f"seat {seat!r} stack")
        if stacks[seat] < 0:
            raise InvalidInput(f"seat {seat!r} has a negative stack")
        tiles[seat] = _tiles(entry.get("tiles"), f"seat {seat!r} tiles")
        if len(tiles[seat]) != 2:
            raise InvalidInput(f"seat {seat!r} needs exactly 2 tiles, got {len(tiles[seat])}")
        if seat == banker:
            if "multiple" in entry:
                raise InvalidInput(
                    f"the banker {seat!r} does not bet; give its bid as banker_multiple"
                )
            continue
        bets[seat] = _int(entry.get("multiple"), f"seat {seat!r} multiple")
        if bets[seat] not in config.bet_choices:
            raise InvalidInput(
                f"seat {seat!r} multiple {bets[seat]} is not allowed; "
                f"choose one of {list(config.bet_choices)}"
            )
    used = _tiles(doc.get("used_tiles", []), "used_tiles")
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
