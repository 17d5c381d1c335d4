"""High card's bot: antes the least, switches a card under eight."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from qipai.core.protocol import ActionSpec
from qipai.core.rng import Rng


class HighCardBot:
    name = "simple"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[ActionSpec], rng: Rng
    ) -> dict[str, Any]:
        kinds = {spec.type: spec for spec in legal}
        if "ante" in kinds:
            options = kinds["ante"].options
            return {
                "type": "ante",
                "amount": options["min"] + rng.randbelow(2) * (options["max"] - options["min"]),
            }
        card = view["me"]["card"] if view.get("me") else None
        low = isinstance(card, str) and card[0] in "234567"
        return {"type": "switch" if low else "keep"}
