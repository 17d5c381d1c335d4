"""Bots at a table: a bot's next move, made canonical and checked like a person's
(`next_move`), and a generic random bot that reads only the legal-action specs, for games
without bots of their own (and test games). Real games' bots live in `qipai/bots/<game>.py`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from qipai.core.errors import GameError
from qipai.core.protocol import JSON, ActionSpec, Round
from qipai.core.rng import Rng
from qipai.tables import actions as journal_first

if TYPE_CHECKING:
    from qipai.tables.games import Game


def next_move(game: Game, bot: Any, round_: Round[Any], seat: str, rng: Rng) -> JSON | None:
    """The bot's move for `seat` now, canonical and checked by the round (not yet journaled
    nor applied), or None: it has none to make, or chose a refused one (the countdown's default
    will act for it)."""
    legal = round_.legal_actions(seat)
    if not legal:
        return None
    try:
        choice = bot.choose(round_.view(seat), legal, rng)
        action = journal_first.canonical(game, choice)
        journal_first.check(round_, seat, action)
    except GameError:
        return None
    return action


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
