"""The bot interface: a bot sees only `round.view(seat)` and the legal actions, nothing else.

Bots never touch the round object, so they cannot peek at hidden cards: the table layer (and the
simulator) call `round.view(seat)` and `round.legal_actions(seat)` and pass them in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from qipai.core.protocol import ActionSpec
from qipai.core.rng import Rng


class Bot(Protocol):
    """Chooses one action for its seat. `rng` is the bot's own stream (not the deal's)."""

    name: str

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[ActionSpec], rng: Rng
    ) -> dict[str, Any]: ...
