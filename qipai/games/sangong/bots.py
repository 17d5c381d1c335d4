"""San Gong bots. Both see only `round.view(seat)` and the legal actions (qipai/bots/base.py).

What a bot can know: in San Gong the bid and the bet come BEFORE the deal (rules/en.md, A round),
so when it chooses a multiple a seat knows its stack, the table's settings and the bids and
bets made so far — nothing about any card. The show changes nothing about a hand.

* `RandomBot`: a uniformly random allowed bid and bet; shows at once (a baseline and a fuzzer).
* `SensibleBot`: plays for the least expected loss, from the exact math (`analysis.py`): the
  banker's and a player's hands are exchangeable (two random disjoint hands of one deck), so
  every pairing's expected result before commission is exactly 0, whatever the multiples; the
  commission on net wins then makes every side's expectation negative and proportional to its
  multiples. Hence the lowest bet; and no bid: a banker at multiple X plays every player at
  once, and its expected commission in a round, on the net of all its pairings, is about three
  times a player's at the same multiple (`qipai rtp sangong`, 5 seats: about 0.12 against 0.037
  of base × X, each bet 1×). It shows at once (waiting gains nothing).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from qipai.core.errors import InvalidInput
from qipai.core.protocol import ActionSpec
from qipai.core.rng import Rng

Action = dict[str, Any]


def _spec(legal: Sequence[ActionSpec]) -> ActionSpec:
    if not legal:
        raise InvalidInput("no legal action to choose from")
    return legal[0]


class RandomBot:
    """Random legal choices."""

    name = "random"

    def choose(self, view: Mapping[str, Any], legal: Sequence[ActionSpec], rng: Rng) -> Action:
        spec = _spec(legal)
        if spec.type == "show":
            return {"type": "show"}
        return {"type": spec.type, "multiple": rng.choice(list(spec.options["choices"]))}


class SensibleBot:
    """No bid, the lowest bet, show at once (see the module docstring for why)."""

    name = "sensible"

    def choose(self, view: Mapping[str, Any], legal: Sequence[ActionSpec], rng: Rng) -> Action:
        spec = _spec(legal)
        if spec.type == "show":
            return {"type": "show"}
        return {"type": spec.type, "multiple": min(spec.options["choices"])}


BOTS: dict[str, type[RandomBot] | type[SensibleBot]] = {
    "random": RandomBot,
    "sensible": SensibleBot,
}
