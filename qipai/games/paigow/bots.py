"""Pai Gow (抢庄牌九) bots: a random one and a sensible one.

Bids and bets come before the tiles are dealt, so the sensible bot cannot know its hand. What it
can know: the tiles not yet seen (all 32 in round 1; in round 2 the 24 left after round 1's
eight were shown), hence the chance that a banker's hand beats, ties or loses to a player's hand;
the commission; the stacks at the table and the cap (nobody wins or loses more than its stack).
It bids only with a positive expected value, choosing the multiple with the best value whose
worst case stays within a share (`risk`) of its stack, and otherwise bids none. A player's
expected value is never positive (the two hands are equally likely to be the stronger, and ties
and commission go against the player), so it always bets the lowest multiple. With the default
table (5 % commission, ties to the banker) both sides lose on average — about 1 % of A·X·Y a
pairing for the banker, 2.9 % for a player — so it bids none; with no commission the banker's
edge from equal hands is positive and it bids by its stack and the others'.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from qipai.core.money import to_rate
from qipai.core.protocol import ActionSpec
from qipai.core.rng import Rng
from qipai.core.tiles import Tile, full_set, parse_tile
from qipai.games.paigow.config import HighNine
from qipai.games.paigow.hands import evaluate


@dataclass(frozen=True)
class PairingOdds:
    """Chances for one banker hand against one player hand drawn from the same unseen tiles.

    `banker`, `player`, `equal` are exact over all disjoint pairs of hands; the `by_banker_*`
    arrays give the same chances conditional on each possible banker hand (one row per pair of
    unseen tiles, all equally likely), which the banker's expected value needs because its
    commission is charged on its net over all pairings.
    """

    banker: Fraction  # the banker's hand is stronger
    player: Fraction  # the player's hand is stronger
    equal: Fraction  # equal hands: the tie policy decides
    by_banker_win: np.ndarray[Any, np.dtype[np.float64]]
    by_banker_lose: np.ndarray[Any, np.dtype[np.float64]]
    by_banker_equal: np.ndarray[Any, np.dtype[np.float64]]


@lru_cache(maxsize=64)
def _odds(tiles: tuple[Tile, ...], high_nine: HighNine) -> PairingOdds:
    n = len(tiles)
    pairs = list(itertools.combinations(range(n), 2))
    first = np.array([p[0] for p in pairs])
    second = np.array([p[1] for p in pairs])
    strength = np.array(
        [evaluate([tiles[i], tiles[j]], high_nine).strength for i, j in pairs], dtype=np.int64
    )
    disjoint = (
        (first[:, None] != first[None, :])
        & (first[:, None] != second[None, :])
        & (second[:, None] != first[None, :])
        & (second[:, None] != second[None, :])
    )
    banker_s, player_s = strength[:, None], strength[None, :]
    wins = (disjoint & (banker_s > player_s)).sum(axis=1)
    losses = (disjoint & (banker_s < player_s)).sum(axis=1)
    rows = disjoint.sum(axis=1)
    total = int(rows.sum())
    banker, player = int(wins.sum()), int(losses.sum())
    return PairingOdds(
        Fraction(banker, total),
        Fraction(player, total),
        Fraction(total - banker - player, total),
        wins / rows,
        losses / rows,
        (rows - wins - losses) / rows,
    )


def pairing_odds(unseen: Sequence[Tile], high_nine: HighNine = "any-seven") -> PairingOdds:
    """Odds when the banker's and a player's hands are two disjoint pairs of `unseen`."""
    return _odds(tuple(sorted(unseen)), high_nine)


def unseen_tiles(view: Mapping[str, Any]) -> list[Tile]:
    """The set minus the tiles this seat has seen shown (round 1's eight, in round 2)."""
    left = Counter(full_set())
    left.subtract(parse_tile(t["pips"]) for t in view.get("seen_tiles", []))
    return sorted(left.elements())


def player_edge(view: Mapping[str, Any]) -> float:
    """A player's expected result per unit of A·X·Y, after commission (exact: a player has one
    pairing, so commission on its net is commission on that pairing)."""
    config = view["config"]
    odds = pairing_odds(unseen_tiles(view), config["high_nine"])
    keep = 1 - to_rate(config["commission"])
    lose = odds.banker + (odds.equal if config["tie_policy"] == "banker" else 0)
    return float(odds.player * keep - lose)


def banker_value(view: Mapping[str, Any], multiple: int, stakes: Sequence[int]) -> float:
    """The banker's expected result at `multiple`, the players staking `stakes` (their bet
    multiples), each pairing capped at the player's stack and the total at the banker's stack,
    commission on the net. Players' outcomes are taken as independent given the banker's hand
    (they share the deck, so this is a close approximation, not exact)."""
    config = view["config"]
    odds = pairing_odds(unseen_tiles(view), config["high_nine"])
    rate = float(to_rate(config["commission"]))
    me = view["me"]
    others = [s for s in view["seats"] if s["id"] != me["id"]]
    amounts = [
        min(config["base"] * multiple * y, s["stack"]) for s, y in zip(others, stakes, strict=True)
    ]
    tie_to_banker = config["tie_policy"] == "banker"
    win = odds.by_banker_win + (odds.by_banker_equal if tie_to_banker else 0)
    push = 0 if tie_to_banker else odds.by_banker_equal
    lose = odds.by_banker_lose
    value = np.zeros_like(win)
    for signs in itertools.product((1, 0, -1), repeat=len(amounts)):
        prob = np.ones_like(win)
        for sign in signs:
            prob = prob * (win if sign > 0 else push if sign == 0 else lose)
        net = max(
            -me["stack"], min(me["stack"], sum(a * g for a, g in zip(amounts, signs, strict=True)))
        )
        value = value + prob * (net - rate * max(net, 0))
    return float(value.mean())


class RandomPaigowBot:
    """Picks uniformly among the legal choices."""

    name = "paigow-random"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[ActionSpec], rng: Rng
    ) -> dict[str, Any]:
        spec = legal[0]
        if spec.type == "reveal":
            return {"type": "reveal"}
        return {"type": spec.type, "multiple": rng.choice(list(spec.options["choices"]))}


class SensiblePaigowBot:
    """Banks only with a positive edge, sized by the stacks and the cap; bets the lowest multiple.

    `risk` is the share of its own stack the bot accepts to lose in one round in the worst case.
    """

    name = "paigow-sensible"

    def __init__(self, risk: Fraction = Fraction(1, 2)) -> None:
        self.risk = risk

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[ActionSpec], rng: Rng
    ) -> dict[str, Any]:
        spec = legal[0]
        if spec.type == "reveal":
            return {"type": "reveal"}
        choices = sorted(spec.options["choices"])
        me = view["me"]
        others = [s for s in view["seats"] if s["id"] != me["id"]]
        if spec.type == "bid":
            budget = me["stack"] * self.risk
            return {"type": "bid", "multiple": self._bid(view, choices, me, others, budget)}
        # A player's hand and the banker's are drawn from the same unseen tiles, so each is as
        # likely to be the stronger; equal hands going to the banker and the commission make a bet
        # lose on average in every setting (`player_edge` <= 0), so the least exposure is best.
        return {"type": "bet", "multiple": choices[0]}

    def _bid(
        self,
        view: Mapping[str, Any],
        choices: Sequence[int],
        me: Mapping[str, Any],
        others: Sequence[Mapping[str, Any]],
        budget: Fraction,
    ) -> int:
        """The multiple with the best positive expected value whose worst case fits the budget."""
        config = view["config"]
        if me["stack"] <= 0:
            return 0
        low, top = min(config["bet_choices"]), max(config["bet_choices"])
        best, best_value = 0, 0.0
        for x in (c for c in choices if c > 0):
            # Worst case: every player bets the top multiple and wins; each can win at most its
            # own stack, and the banker loses at most its stack (the cap).
            worst = sum(min(config["base"] * x * top, s["stack"]) for s in others)
            if min(worst, me["stack"]) > budget:
                continue
            value = banker_value(view, x, [low] * len(others))
            if value > best_value:
                best, best_value = x, value
        return best


BOTS = {RandomPaigowBot.name: RandomPaigowBot, SensiblePaigowBot.name: SensiblePaigowBot}
