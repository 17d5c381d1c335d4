"""Pok Deng bots: a random bettor and a sensible flat bettor (the `qipai.bots.base.Bot` interface).

Both read only the legal actions (spots, limits, the balance left) and their own rng, never the
round. They answer with one `bets` action that also confirms (`"done": true`), or `done` alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from qipai.core.protocol import ActionSpec
from qipai.core.rng import Rng

DONE: dict[str, Any] = {"type": "done"}


def _bet_options(legal: Sequence[ActionSpec]) -> Mapping[str, Any] | None:
    for spec in legal:
        if spec.type == "bets":
            return spec.options
    return None


class RandomBot:
    """Bets 0–3 random spots with random amounts within the limits and its balance."""

    name = "pokdeng-random"

    def __init__(self, max_spots: int = 3) -> None:
        self.max_spots = max_spots

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[ActionSpec], rng: Rng
    ) -> dict[str, Any]:
        options = _bet_options(legal)
        if options is None:
            return DONE
        spots: Mapping[str, Mapping[str, Any]] = options["spots"]
        current: Mapping[str, int] = options.get("current", {})
        budget: int = options["available"]
        names = list(spots)
        chosen: list[dict[str, Any]] = []
        for _ in range(rng.randbelow(self.max_spots + 1)):
            spot = rng.choice(names)
            if any(c["spot"] == spot for c in chosen) or spot in current:
                continue
            info = spots[spot]
            hold = info["hold"]
            top = min(info["max"], budget // hold)
            if top < info["min"]:
                continue
            amount = info["min"] + rng.randbelow(top - info["min"] + 1)
            budget -= amount * hold
            chosen.append({"spot": spot, "amount": amount})
        if not chosen:
            return DONE
        return {"type": "bets", "bets": chosen, "done": True}


class SensibleBot:
    """Flat-bets one player position with a small unit; never the pair bets.

    Pair bets pay 11:1 on a ~7.5 % chance (8 decks: 31/415), about a 10 % house edge, far worse
    than a position bet, so a sensible player leaves them. The unit is `fraction` of the balance,
    rounded down to a multiple of the spot's minimum and kept within the limits; the bot sits out
    when it cannot cover stake + hold.
    """

    name = "pokdeng-sensible"

    def __init__(self, fraction: tuple[int, int] = (1, 50)) -> None:
        self.fraction = fraction

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[ActionSpec], rng: Rng
    ) -> dict[str, Any]:
        options = _bet_options(legal)
        if options is None or options.get("current"):
            return DONE
        spots: Mapping[str, Mapping[str, Any]] = options["spots"]
        positions = [s for s, info in spots.items() if info["kind"] == "player"]
        if not positions:
            return DONE
        spot = positions[rng.randbelow(len(positions))]
        info = spots[spot]
        available: int = options["available"]
        num, den = self.fraction
        unit = available * num // den // info["min"] * info["min"]
        amount = min(max(unit, info["min"]), info["max"])
        if amount * info["hold"] > available:
            return DONE
        return {"type": "bets", "bets": [{"spot": spot, "amount": amount}], "done": True}


# Bot levels for the tables layer (`qipai.tables.games` reads BOTS: level → class).
BOTS: dict[str, type[RandomBot] | type[SensibleBot]] = {
    "random": RandomBot,
    "sensible": SensibleBot,
}
