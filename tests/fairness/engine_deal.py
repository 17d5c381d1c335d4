"""Drive a game engine to the deal a set of public inputs describes, and read the deal back from
the engine (for checking the test vectors of docs/fairness.md against the engines themselves)."""

from __future__ import annotations

from typing import Any

from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.games import game_package
from qipai.games.paigow.round import game_shuffle
from qipai.games.pokdeng.round import shoe_cards


def engine_deal(game: str, key: bytes, inputs: dict[str, Any]) -> dict[str, Any]:
    """The engine's deal for `inputs`, in the specification's deal format (the fields the
    engine exposes)."""
    package = game_package(game)
    if game == "pokdeng":
        config = package.CONFIG(decks=inputs["decks"], cut_behind=tuple(inputs["cut_behind"]))
        context = {"position": inputs["position"], "round_in_shoe": inputs["round_in_shoe"]}
        r = package.ROUND.start(config, [Seat("S1", 10_000)], Rng(key), context)
        r.expire()
        shoe, _, behind = shoe_cards(Rng(key), config)
        return {
            "shoe": [str(c) for c in shoe],
            "behind_cut": behind,
            "hands": {spot: list(h.text) for spot, h in r.hands.items()},
            "last_round": not r.next_round().reuse_seed,
        }
    if game == "paigow" and inputs["bids"] is None:
        # a round voided before any bid: only the shuffle is decided (docs/fairness.md)
        return {"tiles": [str(t) for t in game_shuffle(Rng(key))]}
    if game == "paigow":
        seats = [Seat(s, inputs["stacks"][s]) for s in inputs["seats"]]
        context = {"round": inputs["round"], "seats": inputs["seats"]}
        r = package.ROUND.start(package.CONFIG(), seats, Rng(key), context)
        for s in inputs["seats"]:
            r.act(s, {"type": "bid", "multiple": inputs["bids"][s]})
        r.expire()  # bets: the lowest multiple; then the dice and the deal
        return {
            "tiles": [str(t) for t in game_shuffle(Rng(key))],
            "banker": r.banker,
            "dice": list(r.dice),
            "first_seat": r.first_seat,
            "deal_order": list(r.deal_seats),
            "hands": {s: [str(t) for t in ts] for s, ts in r.tiles.items()},
        }
    if game == "holdem-bonus":
        config = package.CONFIG()
        seats = [Seat(b, 100_000) for b in inputs["boxes"]]
        r = package.ROUND.start(config, seats, Rng(key), {})
        for b in inputs["boxes"]:
            r.act(b, {"type": "bet", "box": b, "ante": config.ante_min, "done": True})
        return {
            "deck": [str(c) for c in r._deck],
            "boxes": {b: [str(c) for c in h] for b, h in r._holes.items()},
            "dealer": [str(c) for c in r._dealer],
            "board": [str(c) for c in r._board],
        }
    if game == "niuniu":
        seats = [Seat(s, inputs["stacks"][s]) for s in inputs["seats"]]
        r = package.ROUND.start(package.CONFIG(hints=False), seats, Rng(key), {})
        initial = {s: [str(c) for c in cs] for s, cs in r.cards.items()}
        for s in inputs["seats"]:  # each seat swaps its first k cards
            r.act(s, {"type": "swap", "cards": initial[s][: inputs["swaps"][s]]})
        for s in inputs["seats"]:
            r.act(s, {"type": "bid", "multiple": inputs["bids"][s]})
        r.expire()  # bets: the minimum; then the fifth card
        return {
            "deck": [str(c) for c in r._deck],
            "initial": initial,
            "received": {s: [str(c) for c in cs] for s, cs in r.received.items()},
            "fifth": {s: str(cs[4]) for s, cs in r.cards.items()},
            "banker": r.banker,
        }
    if game == "tiengow":
        context = {} if inputs["banker"] is None else {"banker": inputs["banker"]}
        seats = [Seat(s, 100_000) for s in inputs["seats"]]
        r = package.ROUND.start(package.CONFIG(), seats, Rng(key), context)
        return {
            "tiles": [str(t) for t in r.deck],
            "banker": r.banker,
            "hands": {s: [str(t) for _, t in r.hand_of(s)] for s in r.seat_ids()},
        }
    raise AssertionError(game)
