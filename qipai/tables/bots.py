"""A generic random bot that reads only the legal-action specs, for games without bots of
their own (and test games). Real games' bots live in `qipai/bots/<game>.py`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from qipai.core.protocol import ActionSpec
from qipai.core.rng import Rng


class GenericBot:
    """Picks a uniformly random legal action; numbers come from `min`/`max`, lists from `choices`."""

    name = "random"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[ActionSpec], rng: Rng
    ) -> dict[str, Any]:
        spec = rng.choice(list(legal))
        action: dict[str, Any] = {"type": spec.type}
        opts = spec.options
        if "min" in opts and "max" in opts:
            low, high = int(opts["min"]), int(opts["max"])
            action["amount"] = low + rng.randbelow(high - low + 1)
        if opts.get("choices"):
            action["value"] = rng.choice(list(opts["choices"]))
        return action
