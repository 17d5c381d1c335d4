"""The deal of every game from a unit's key and the round's public inputs (deal-spec/1): the
shared pieces here, each game's own deal in its folder (`qipai/games/<game>/fairness.py`, its
`GameSpec.fairness`), found through the registry.

This is the specification of docs/fairness.md ("The games") written as code on plain data —
cards as `"As"`, tiles as `"6-6"` — with the engine's own stream (`qipai.core.rng.Rng`); the
tests check it against the game engines round by round, and `docs/verify_deal.py` and
`qipai/web/fairness/verify.js` (written from the document, not from this file) against it.

Every draw has its own labelled stream of the unit's key (`Rng(key).fork(label)`); each game's
`DealDescription.streams` names its labels (the table is in docs/fairness.md).

Each game's deal takes `inputs` (a mapping, the `inputs` block of a round export) and returns the
deal as JSON; inputs that decide only part of the deal (a voided Pai Gow round without bids)
give what they decide and `None` for the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from qipai.core.cards import standard_deck
from qipai.core.errors import InvalidInput
from qipai.core.rng import Rng
from qipai.core.spec import DealCheckLike
from qipai.core.tiles import full_set

JSON = dict[str, Any]


def card_order(decks: int = 1) -> list[str]:
    """The cards before any shuffle: 2c 2d 2h 2s 3c … As (rank-major, suits c d h s), the
    52 cards `decks` times over."""
    return [str(c) for c in standard_deck()] * decks


def tile_order() -> list[str]:
    """The 32 tiles before any shuffle: highest first (docs/rules/paigow.md#single-tile-order single-tile order), the two
    tiles of a civil kind together, the two 杂 of one rank by their pips (3-6 before 4-5)."""
    return [str(t) for t in full_set()]


def shuffled(key: bytes, label: str, items: list[str]) -> list[str]:
    Rng(key).fork(label).shuffle(items)
    return items


# ----- input checks -----------------------------------------------------------------------
def int_input(
    inputs: Mapping[str, Any], name: str, default: int | None = None, least: int = 0
) -> int:
    value = inputs.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise InvalidInput(f"inputs.{name} must be an integer >= {least}, got {value!r}")
    return value


def seats_input(inputs: Mapping[str, Any], count: int | None = None) -> list[str]:
    seats = inputs.get("seats")
    if (
        not isinstance(seats, list)
        or not seats
        or not all(isinstance(s, str) for s in seats)
        or len(set(seats)) != len(seats)
    ):
        raise InvalidInput(f"inputs.seats must be a list of distinct seat ids, got {seats!r}")
    if count is not None and len(seats) != count:
        raise InvalidInput(f"inputs.seats must name {count} seats, got {len(seats)}")
    return list(seats)


def per_seat_input(
    inputs: Mapping[str, Any], name: str, seats: Sequence[str]
) -> dict[str, int] | None:
    """An optional {seat: int} input covering every seat (None when absent)."""
    raw = inputs.get(name)
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or set(raw) != set(seats):
        raise InvalidInput(f"inputs.{name} must give every seat of {list(seats)} a value")
    out: dict[str, int] = {}
    for seat in seats:
        value = raw[seat]
        if value is None:
            value = 0
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidInput(f"inputs.{name}.{seat} must be a non-negative integer")
        out[seat] = value
    return out


def draw_banker(
    rng: Rng, seats: Sequence[str], bids: Mapping[str, int], stacks: Mapping[str, int]
) -> tuple[str, str]:
    """Highest bid banks. Nobody bid: `choice(seats)` (one `randbelow(len(seats))`). A tie:
    `weighted_choice(tied, their stacks)`: the tied seats in seat order, `point =
    randbelow(sum)`, the first seat whose cumulative stack exceeds `point` (stacks all 0: a
    uniform `choice(tied)`). Returns (banker, how): how = "nobody-bid" | "highest-bid" | "tie"."""
    top = max(bids[s] for s in seats)
    if top == 0:
        return rng.choice(list(seats)), "nobody-bid"
    tied = [s for s in seats if bids[s] == top]
    if len(tied) == 1:
        return tied[0], "highest-bid"
    return rng.weighted_choice(tied, [stacks[s] for s in tied]), "tie"


# ----- describing a deal (the games' `fairness.py`) ------------------------------------------
def join(items: Any) -> str:
    """Cards or tiles as one line of text ("-" for none)."""
    return " ".join(items) if items else "-"


def compare_items(
    check: DealCheckLike, deal: Mapping[str, Any], dealt: Mapping[str, Any], keys: Sequence[str]
) -> None:
    """Each item of `keys` the table showed (`dealt`) against the recomputed deal: a mapping
    (seat → cards) part by part and for the same places, anything else as a whole."""
    for name in keys:
        if name not in dealt:
            continue
        expected, shown = deal.get(name), dealt[name]
        if isinstance(shown, Mapping) and isinstance(expected, Mapping):
            for part in shown:
                check.add(
                    f"{name} {part} as dealt",
                    list(shown[part]) == list(expected.get(part) or []),
                    join(shown[part]),
                )
            if set(shown) != set(expected):
                check.add(
                    f"{name}: the same places", False, f"{sorted(shown)} vs {sorted(expected)}"
                )
        else:
            check.add(f"{name} as dealt", shown == expected, str(shown))


# ----- the games ------------------------------------------------------------------------
def dealers() -> dict[str, Callable[[bytes, Mapping[str, Any]], JSON]]:
    """Each registered game's deal (`GameSpec.deal_description().deal`, in its folder)."""
    from qipai.games import registry

    return {name: spec.deal_description().deal for name, spec in registry.available().items()}


def compute_deal(game: str, key: bytes, inputs: Mapping[str, Any]) -> JSON:
    """The deal of `game` under deal-spec/1 (InvalidInput for an unknown game or bad inputs)."""
    from qipai.games import registry

    spec = registry.get(game)
    if not isinstance(inputs, Mapping):
        raise InvalidInput("inputs must be an object")
    return spec.deal_description().deal(key, inputs)


__all__ = [
    "card_order",
    "compare_items",
    "compute_deal",
    "dealers",
    "draw_banker",
    "int_input",
    "join",
    "per_seat_input",
    "seats_input",
    "shuffled",
    "tile_order",
]
