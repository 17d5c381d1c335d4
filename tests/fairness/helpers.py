"""Playing rounds of every game to the end with the games' random bots (fairness tests)."""

from __future__ import annotations

from typing import Any

from qipai.core.protocol import Round
from qipai.core.rng import Rng
from qipai.tables import games


def play_out(round_: Round[Any], rng: Rng, expire_every: int = 0) -> None:
    """Each awaited seat's random bot acts (it sees only its view and legal actions) until the
    round finishes; every `expire_every`-th step (when > 0) the countdown expires instead."""
    info = games.get(round_.game)
    bot = info.make_bot(info.bot_levels[0])
    step = 0
    while not round_.finished:
        step += 1
        waiting = round_.awaiting()
        if not waiting or (expire_every and step % expire_every == 0):
            round_.expire()
            continue
        seat = waiting[0]
        round_.act(seat, bot.choose(round_.view(seat), round_.legal_actions(seat), rng))
