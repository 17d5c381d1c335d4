"""The return of each bet under the policies a room plays: a simulation of one template's
settings with its house bots in every seat, through the real round engine.

Some exact figures assume play the room does not make (Niu Niu's: nobody bids, so the banker is
a random seat, and nobody swaps, docs/rtp.md); the back office compares the observed return of
such a game's bets with this figure instead (`GameSpec.exact_assumes`, `qipai.authority.reports`).
The bets are read from each round's result by the game's own `stakes` capability, so the kinds
and the ratio estimator (Σ net / Σ staked over the per-round totals, standard error by the delta
method) are exactly the report's. Each round is a fresh deal unit (no context carried), and the
seats' stacks are the table's bot stack (`qipai.tables.seating.bot_stack`'s rule), so the stack
caps of banker games apply as at a table.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from qipai.analysis.simulate import play_round, round_seed
from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.core.spec import GameSpec

MAX_ROUNDS = 200_000
"""The most rounds one reference may play (a bounded piece of CPU)."""


@dataclass(frozen=True)
class PolicyFigure:
    """One bet kind's simulated return: the estimate, its standard error and its sample."""

    bet: str
    rtp: float
    se: float
    rounds: int
    bets: int

    @property
    def ci95(self) -> float:
        return 1.959963984540054 * self.se

    def to_json(self) -> dict[str, Any]:
        return {
            "bet": self.bet,
            "rtp": self.rtp,
            "se": self.se,
            "ci95": self.ci95,
            "rounds": self.rounds,
            "bets": self.bets,
        }


def default_level(spec: GameSpec, allowed: tuple[str, ...] | list[str]) -> str | None:
    """The bot level a table seats by default (`qipai.tables.seating.bot_level`): the strongest
    that answers at once where the template allows it, else the template's last; None: no bots."""
    levels = list(spec.bots)
    if not allowed or not levels:
        return None
    quick = [level for level in levels if "strong" not in level]
    level = (quick or levels)[-1]
    return level if level in allowed else list(allowed)[-1]


def policy_returns(
    spec: GameSpec,
    config_json: Mapping[str, Any],
    level: str,
    *,
    rounds: int,
    seed: int,
    stack: int,
) -> list[PolicyFigure]:
    """Play `rounds` rounds of `spec` at these settings with bots of `level` in every seat."""
    if not 2 <= rounds <= MAX_ROUNDS:
        raise ValueError(f"rounds must be 2..{MAX_ROUNDS}, not {rounds}")
    if level not in spec.bots:
        raise ValueError(f"{spec.name} has no bot level {level!r}")
    config = spec.parse_config(dict(config_json))
    canonical = dict(config.to_json())
    seats = [Seat(s, stack) for s in spec.seat_ids[: spec.max_players]]
    bots = {s.id: spec.bots[level]() for s in seats}
    bot_rng = Rng(round_seed(seed, -1), "bots")
    totals: dict[str, tuple[list[int], list[int], list[int]]] = {}
    for n in range(rounds):
        rnd = spec.round_type.start(config, seats, Rng(round_seed(seed, n)))
        play_round(rnd, bots, bot_rng)
        per: dict[str, list[int]] = {}
        for bet in spec.bets_of(canonical, rnd.result().details):
            tot = per.setdefault(bet.kind, [0, 0, 0])
            tot[0] += bet.net
            tot[1] += bet.staked
            tot[2] += 1
        for kind, (net, staked, count) in per.items():
            nets, stakes, counts = totals.setdefault(kind, ([], [], []))
            nets.append(net)
            stakes.append(staked)
            counts.append(count)
    out = []
    for kind in sorted(totals):
        nets, stakes, counts = totals[kind]
        estimate = _ratio(nets, stakes)
        if estimate is None:
            continue
        out.append(PolicyFigure(kind, estimate[0], estimate[1], len(nets), sum(counts)))
    return out


def _ratio(nets: list[int], stakes: list[int]) -> tuple[float, float] | None:
    """(1 + Σnet/Σstaked, its standard error by the delta method), as the reports compute it."""
    n = len(nets)
    staked = sum(stakes)
    if n < 2 or staked == 0:
        return None
    ratio = sum(nets) / staked
    resid = [x - ratio * y for x, y in zip(nets, stakes, strict=True)]
    mean_r = sum(resid) / n
    var = sum((r - mean_r) ** 2 for r in resid) / (n - 1)
    return 1 + ratio, math.sqrt(var / n) / (staked / n)


__all__ = ["MAX_ROUNDS", "PolicyFigure", "default_level", "policy_returns"]
