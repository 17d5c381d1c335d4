"""Shared helpers for the Pai Gow tests: a table of four seats and a driver for whole rounds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.games.paigow import PaigowConfig, PaigowRound

IDS = ["S1", "S2", "S3", "S4"]


def seed(n: int) -> bytes:
    return n.to_bytes(32, "big")


def seats(stacks: Sequence[int] = (5000, 5000, 5000, 5000)) -> list[Seat]:
    return [Seat(i, s) for i, s in zip(IDS, stacks, strict=True)]


def start(
    stacks: Sequence[int] = (5000, 5000, 5000, 5000),
    n: int = 1,
    config: PaigowConfig | None = None,
    context: Mapping[str, Any] | None = None,
) -> PaigowRound:
    return PaigowRound.start(config or PaigowConfig(), seats(stacks), Rng(seed(n)), context)


def play(
    round_: PaigowRound,
    bids: Mapping[str, int | None],
    bets: Mapping[str, int | None] | None = None,
) -> PaigowRound:
    """Bid (None = silent), bet (None or missing = silent), reveal by the countdown."""
    for seat, bid in bids.items():
        if bid is not None:
            round_.act(seat, {"type": "bid", "multiple": bid})
    if round_.phase == "bid":
        round_.expire()
    for seat, bet in (bets or {}).items():
        if bet is not None and seat != round_.banker:
            round_.act(seat, {"type": "bet", "multiple": bet})
    if round_.phase == "bet":
        round_.expire()
    round_.expire()
    return round_
