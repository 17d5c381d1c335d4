"""The deal of every game from a unit's key and the round's public inputs (deal-spec/1).

This is the specification of docs/fairness.md ("The games") written as code on plain data —
cards as `"As"`, tiles as `"6-6"` — with the engine's own stream (`qipai.core.rng.Rng`); the
tests check it against the game engines round by round, and `docs/verify_deal.py` and
`qipai/web/fairness/verify.js` (written from the document, not from this file) against it.

Every draw has its own labelled stream of the unit's key (`Rng(key).fork(label)`):

| game | label | draws |
|---|---|---|
| pokdeng | `shoe`, `cut` | the n-deck shuffle; the cards behind the cut card |
| paigow | `tiles`, `round<N>/banker`, `round<N>/dice` | the 32-tile shuffle; the bid tie-break or random banker of round N; its two dice |
| holdem-bonus | `deck` | the 52-card shuffle |
| niuniu | `deck`, `banker` | the 52-card shuffle; the bid tie-break or random banker |
| tiengow | `banker`, `deal`, `salts` | the first banker (no context); the 32-tile shuffle; the tile salts |

Each function takes `inputs` (a mapping, the `inputs` block of a round export) and returns the
deal as JSON; inputs that decide only part of the deal (a voided Pai Gow round without bids)
give what they decide and `None` for the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from qipai.core.cards import standard_deck
from qipai.core.errors import InvalidInput
from qipai.core.rng import Rng
from qipai.core.tiles import full_set
from qipai.fairness.tiles import dealt_positions, tiles_commitment

JSON = dict[str, Any]

POKDENG_SPOTS = ("P1", "P2", "P3", "P4", "P5", "B")
POKDENG_CARDS_PER_ROUND = 13


def card_order(decks: int = 1) -> list[str]:
    """The cards before any shuffle: 2c 2d 2h 2s 3c … As (rank-major, suits c d h s), the
    52 cards `decks` times over."""
    return [str(c) for c in standard_deck()] * decks


def tile_order() -> list[str]:
    """The 32 tiles before any shuffle: highest first (docs/rules/paigow.md#single-tile-order single-tile order), the two
    tiles of a civil kind together, the two 杂 of one rank by their pips (3-6 before 4-5)."""
    return [str(t) for t in full_set()]


def _shuffled(key: bytes, label: str, items: list[str]) -> list[str]:
    Rng(key).fork(label).shuffle(items)
    return items


# ----- input checks -----------------------------------------------------------------------
def _int(inputs: Mapping[str, Any], name: str, default: int | None = None, least: int = 0) -> int:
    value = inputs.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise InvalidInput(f"inputs.{name} must be an integer >= {least}, got {value!r}")
    return value


def _seats(inputs: Mapping[str, Any], count: int | None = None) -> list[str]:
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


def _per_seat(inputs: Mapping[str, Any], name: str, seats: Sequence[str]) -> dict[str, int] | None:
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


def _draw_banker(
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


# ----- the games ------------------------------------------------------------------------
def pokdeng_deal(key: bytes, inputs: Mapping[str, Any]) -> JSON:
    """docs/rules/pokdeng.md#cards-and-shoe. The shoe (`decks` × the 52 cards) is shuffled by `shoe`; the cut card leaves
    `behind = lo + randbelow(hi − lo + 1)` cards behind it (stream `cut`), i.e. it lies before
    index `cut_index = size − behind`. A round at `position` p burns card p and deals cards
    p+1 … p+12 one at a time to P1, P2, P3, P4, P5, B, then again in the same order. It is the
    shoe's last round when p + 13 > cut_index."""
    decks = _int(inputs, "decks", 8, 1)
    cut = inputs.get("cut_behind", [52, 104])
    if not (isinstance(cut, list | tuple) and len(cut) == 2 and all(type(c) is int for c in cut)):
        raise InvalidInput(f"inputs.cut_behind must be [min, max], got {cut!r}")
    lo, hi = int(cut[0]), int(cut[1])
    size = 52 * decks
    if not 0 <= lo <= hi < size:
        raise InvalidInput(f"inputs.cut_behind {cut!r} does not fit a {size}-card shoe")
    position = _int(inputs, "position", 0, 0)
    shoe = _shuffled(key, "shoe", card_order(decks))
    behind = lo + Rng(key).fork("cut").randbelow(hi - lo + 1)
    cut_index = size - behind
    if position + POKDENG_CARDS_PER_ROUND > size:
        raise InvalidInput(f"inputs.position {position} leaves no round in a {size}-card shoe")
    cards = shoe[position + 1 : position + POKDENG_CARDS_PER_ROUND]
    return {
        "game": "pokdeng",
        "shoe": shoe,
        "cut_behind": behind,
        "cut_index": cut_index,
        "position": position,
        "burn": shoe[position],
        "hands": {spot: [cards[i], cards[i + 6]] for i, spot in enumerate(POKDENG_SPOTS)},
        "last_round": position + POKDENG_CARDS_PER_ROUND > cut_index,
    }


def paigow_deal(key: bytes, inputs: Mapping[str, Any]) -> JSON:
    """docs/rules/paigow.md. One shuffle of the 32 tiles per game (`tiles`); round N deals tiles
    8(N−1) … 8N−1. The banker comes from the bids (`round<N>/banker` for a tie or nobody
    bidding), then two dice from `round<N>/dice` (each 1 + randbelow(6)). With the seats in
    clockwise order and b the banker's index, the first seat is (b + d1 + d2 − 1) mod 4; the
    round's tiles go one at a time counter-clockwise from it, two passes: seat indexes
    (f − k) mod 4 for k = 0 … 3, twice."""
    seats = _seats(inputs, 4)
    round_no = _int(inputs, "round", 1, 1)
    if round_no > 2:
        raise InvalidInput(f"inputs.round is 1 or 2, got {round_no}")
    tiles = _shuffled(key, "tiles", tile_order())
    own = tiles[8 * (round_no - 1) : 8 * round_no]
    out: JSON = {
        "game": "paigow",
        "tiles": tiles,
        "round": round_no,
        "round_tiles": own,
        "banker": None,
        "banker_by": None,
        "dice": None,
        "first_seat": None,
        "deal_order": None,
        "hands": None,
    }
    bids = _per_seat(inputs, "bids", seats)
    if bids is None:
        return out
    stacks = _per_seat(inputs, "stacks", seats) or dict.fromkeys(seats, 0)
    rng = Rng(key)
    banker, how = _draw_banker(rng.fork(f"round{round_no}/banker"), seats, bids, stacks)
    dice = rng.fork(f"round{round_no}/dice").dice(2)
    first = (seats.index(banker) + sum(dice) - 1) % 4
    order = [seats[(first - k) % 4] for k in range(4)] * 2
    hands: dict[str, list[str]] = {s: [] for s in seats}
    for seat, tile in zip(order, own, strict=True):
        hands[seat].append(tile)
    out.update(
        banker=banker,
        banker_by=how,
        dice=list(dice),
        first_seat=seats[first],
        deal_order=order,
        hands=hands,
    )
    return out


def holdem_deal(key: bytes, inputs: Mapping[str, Any]) -> JSON:
    """docs/rules/holdem-bonus.md. One 52-card shuffle per round (`deck`), no burn cards. When betting closes,
    the boxes with an ante, in the table's box order, get one card each, then the dealer one,
    then a second card each box and the dealer; the next five cards are the board (flop = the
    first three, turn the fourth, river the fifth)."""
    boxes = inputs.get("boxes")
    deck = _shuffled(key, "deck", card_order())
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


def niuniu_deal(key: bytes, inputs: Mapping[str, Any]) -> JSON:
    """docs/rules/niuniu.md. One 52-card shuffle per round (`deck`), dealt from the top: four passes of
    one card to each seat in seat order; after the swap phase, in seat order, each seat gets
    as many cards as it swapped (they replace its swapped cards, lowest position first); the
    banker from the bids (`banker` for a tie or nobody bidding); last the fifth card to each
    seat in seat order."""
    seats = _seats(inputs)
    if not 2 <= len(seats) <= 5:
        raise InvalidInput(f"inputs.seats must name 2 to 5 seats, got {len(seats)}")
    deck = _shuffled(key, "deck", card_order())
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
    swaps = _per_seat(inputs, "swaps", seats)
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
    bids = _per_seat(inputs, "bids", seats)
    if bids is not None:
        stacks = _per_seat(inputs, "stacks", seats) or dict.fromkeys(seats, 0)
        banker, how = _draw_banker(Rng(key).fork("banker"), seats, bids, stacks)
        out["banker"] = banker
        out["banker_by"] = {"nobody-bid": "random", "highest-bid": "bid", "tie": "tie"}[how]
    return out


def tiengow_deal(key: bytes, inputs: Mapping[str, Any]) -> JSON:
    """docs/rules/tiengow.md. Seats in counter-clockwise order (the order of play). With no banker from
    the previous game, the banker is `choice(seats)` from `banker`. The 32 tiles are shuffled by
    `deal`; position i of the result is tile id i. Batches of four (positions 4b … 4b+3) go
    counter-clockwise from the banker: batch b to the (b mod 4)-th seat from the banker. The
    tile commitment (`qipai.fairness.tiles`) covers the positions in this order."""
    seats = _seats(inputs, 4)
    banker = inputs.get("banker")
    if banker is None:
        banker, how = Rng(key).fork("banker").choice(seats), "random"
    elif banker in seats:
        how = "previous-game"
    else:
        raise InvalidInput(f"inputs.banker {banker!r} is not one of the seats")
    tiles = _shuffled(key, "deal", tile_order())
    hands = {s: [tiles[p] for p in ps] for s, ps in dealt_positions(seats, banker).items()}
    return {
        "game": "tiengow",
        "tiles": tiles,
        "banker": banker,
        "banker_by": how,
        "hands": hands,
        "tiles_root": tiles_commitment(key, tiles).root,
    }


DEALERS: dict[str, Callable[[bytes, Mapping[str, Any]], JSON]] = {
    "pokdeng": pokdeng_deal,
    "paigow": paigow_deal,
    "holdem-bonus": holdem_deal,
    "niuniu": niuniu_deal,
    "tiengow": tiengow_deal,
}


def compute_deal(game: str, key: bytes, inputs: Mapping[str, Any]) -> JSON:
    """The deal of `game` under deal-spec/1 (InvalidInput for an unknown game or bad inputs)."""
    if game not in DEALERS:
        raise InvalidInput(f"unknown game {game!r}; expected one of {', '.join(DEALERS)}")
    if not isinstance(inputs, Mapping):
        raise InvalidInput("inputs must be an object")
    return DEALERS[game](key, inputs)


__all__ = [
    "DEALERS",
    "card_order",
    "compute_deal",
    "holdem_deal",
    "niuniu_deal",
    "paigow_deal",
    "pokdeng_deal",
    "tiengow_deal",
    "tile_order",
]
