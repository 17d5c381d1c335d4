"""Swap Niu Niu bots: a random legal player and a sensible one that swaps with the exact advisor.

Both see only `round.view(seat)` and the legal actions (qipai/bots/base.py).

* `RandomBot`: a uniformly random subset of its four cards to swap, a random allowed bid and bet.
* `SensibleBot`: swaps as the advisor says (highest exact expected net against the banker at the
  table's commission — the money-best swap, the same as the hint), then bids and
  bets by its *edge*: the expected result per unit stake of its hand against one random other hand,
  averaged over the fifth card. Against a random hand with key k the edge is
  P(other < k) × mult(k) − E[mult(other); other > k] (docs/rules/niuniu.md#settlement: the winner's hand multiplier is
  paid). The same number measures a banker's prospects against each player and a player's against
  the banker, so it drives both the bid and the bet. (It ignores that the other hand cannot hold
  one's own cards — a bot heuristic, not an analysis figure.)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from qipai.core.cards import Card, parse_card, standard_deck
from qipai.core.errors import InvalidInput
from qipai.core.protocol import ActionSpec
from qipai.core.rng import Rng
from qipai.games.niuniu.advisor import best_swap
from qipai.games.niuniu.hands import MULTIPLIER_ARRAY, all_hand_keys, keys_of

Action = dict[str, Any]
N_KEYS = 15 * 64


@functools.cache
def edge_by_key() -> npt.NDArray[np.float64]:
    """For every hand key: the expected result per unit stake against a uniformly random hand."""
    counts = np.bincount(all_hand_keys(), minlength=N_KEYS).astype(np.float64)
    total = counts.sum()
    mult = MULTIPLIER_ARRAY[np.arange(N_KEYS) // 64].astype(np.float64)
    below = (np.cumsum(counts) - counts) / total  # share of hands with a lower key
    paid_above = (np.cumsum((counts * mult)[::-1])[::-1] - counts * mult) / total
    edge: npt.NDArray[np.float64] = below * mult - paid_above
    edge.setflags(write=False)
    return edge


def hand_edge(four: Sequence[Card]) -> float:
    """The edge of a four-card hand, averaged over every possible fifth card."""
    known = set(four)
    fifth = [c for c in standard_deck() if c not in known]
    ids = np.array([[c.id for c in four] + [f.id] for f in fifth], dtype=np.int64)
    return float(edge_by_key()[keys_of(ids)].mean())


def _spec(legal: Sequence[ActionSpec]) -> ActionSpec:
    if not legal:
        raise InvalidInput("no legal action to choose from")
    return legal[0]


def _my_cards(view: Mapping[str, Any]) -> list[Card]:
    return [parse_card(c) for c in view["me"]["cards"]]


class RandomBot:
    """Random legal choices (a baseline and a fuzzer)."""

    name = "random"

    def choose(self, view: Mapping[str, Any], legal: Sequence[ActionSpec], rng: Rng) -> Action:
        spec = _spec(legal)
        if spec.type == "swap":
            cards = list(spec.options["cards"])
            return {"type": "swap", "cards": [c for c in cards if rng.randbelow(2)]}
        return {"type": spec.type, "multiple": rng.choice(list(spec.options["choices"]))}


class SensibleBot:
    """Advisor swaps; bids and bets scaled by the hand's edge (see the module docstring)."""

    name = "sensible"

    # Edge thresholds for the 1st, 2nd, 3rd… step above the minimum. A judgement call from the
    # spread of four-card edges (quartiles about −0.41, −0.09, +0.33; 90th percentile +0.71): a
    # bit under half of hands bid or raise at all, about one in ten reaches the third step.
    bid_steps: tuple[float, ...] = (0.1, 0.35, 0.6, 0.85)
    bet_steps: tuple[float, ...] = (0.1, 0.35, 0.6, 0.85)

    def choose(self, view: Mapping[str, Any], legal: Sequence[ActionSpec], rng: Rng) -> Action:
        spec = _spec(legal)
        cards = _my_cards(view)
        if spec.type == "swap":
            hint = view["me"].get("hint")
            if hint is not None:
                discard = list(hint["best"]["discard"])
            else:
                commission = view.get("commission")
                discard = [str(c) for c in best_swap(cards, commission=commission).discard]
            return {"type": "swap", "cards": discard}
        choices = sorted(spec.options["choices"])
        edge = hand_edge(cards)
        if spec.type == "bid":
            # choices[0] is 0 (no bid); each threshold passed moves one multiple up.
            steps = sum(1 for t in self.bid_steps if edge > t)
            return {"type": "bid", "multiple": choices[min(steps, len(choices) - 1)]}
        steps = sum(1 for t in self.bet_steps if edge > t)
        return {"type": "bet", "multiple": choices[min(steps, len(choices) - 1)]}


BOTS: dict[str, type[RandomBot] | type[SensibleBot]] = {
    "random": RandomBot,
    "sensible": SensibleBot,
}
