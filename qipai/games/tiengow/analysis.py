"""Tien Gow's exact analysis (`qipai rtp tiengow`, `qipai par tiengow`): there is no bet
against the house — the players play each other and the house takes nothing — so the report
and the PAR sheet say so, and point to what the bots win against each other
(`qipai simulate tiengow`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from qipai.analysis.report import Report

TITLE = "Tien Gow (打天九)"

NO_HOUSE_BET = (
    "No bet against the house: the players play each other and the house takes nothing, so "
    "the players' total return is exactly 100 % and, with a random first banker, each seat's "
    "expectation is 0 by symmetry when all play alike."
)


def reports(mode: str | None) -> list[Report]:
    """GameSpec.analyse: one report saying there is no bet against the house (no modes)."""
    return [
        Report(
            game="tiengow",
            title=TITLE,
            settings={},
            bets=(),
            notes=(
                NO_HOUSE_BET,
                "What the bots win against each other, by seat and as first banker: "
                "`qipai simulate tiengow --mode rule-of-thumb` (or four levels, E,S,W,N).",
            ),
        )
    ]


def par(config: Any, options: Mapping[str, Any] | None = None) -> Any:
    """GameSpec.par: a sheet with no bets, saying why (no PAR-only options)."""
    from qipai.analysis.par import sheet

    return sheet(
        "tiengow",
        TITLE,
        dict(config.to_json()),
        [],
        notes=(NO_HOUSE_BET, "`qipai simulate tiengow` measures what the bots win."),
    )
