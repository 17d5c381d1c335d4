"""Playing rounds of every game to the end with random legal actions (for the fairness tests)."""

from __future__ import annotations

from typing import Any

from qipai.core.protocol import Round
from qipai.core.rng import Rng


def random_action(round_: Round[Any], seat: str, rng: Rng) -> dict[str, Any]:
    """A uniformly chosen legal action of `seat` (every game's ActionSpec shapes)."""
    specs = round_.legal_actions(seat)
    spec = rng.choice(specs)
    opts = spec.options or {}
    action: dict[str, Any] = {"type": spec.type}
    if round_.game == "tiengow":
        pool = opts["plays"] if spec.type == "play" else opts["choices"]
        action["tiles"] = list(rng.choice(pool))
    elif round_.game == "niuniu" and spec.type == "swap":
        cards = list(opts["cards"])
        action["cards"] = [c for c in cards if rng.randbelow(2)]
    elif "choices" in opts:
        action["multiple"] = rng.choice(list(opts["choices"]))
    return action


def play_out(round_: Round[Any], rng: Rng, expire_every: int = 0) -> None:
    """Act for the awaited seats at random until the round finishes (every `expire_every`-th
    step lets the countdown expire instead, when > 0)."""
    step = 0
    while not round_.finished:
        step += 1
        waiting = round_.awaiting()
        if not waiting or (expire_every and step % expire_every == 0):
            round_.expire()
            continue
        seat = waiting[0]
        round_.act(seat, random_action(round_, seat, rng))
