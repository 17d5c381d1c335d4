"""`qipai rtp GAME`: which analyses make up each game's report, by game name and mode."""

from __future__ import annotations

from collections.abc import Callable

from qipai.analysis.report import Report
from qipai.core.errors import InvalidInput


def _pokdeng(mode: str | None) -> list[Report]:
    from qipai.analysis import pokdeng

    modes = [mode] if mode else ["classic", "banker-player"]
    for m in modes:
        if m not in ("classic", "banker-player"):
            raise InvalidInput(f"Pok Deng mode {m!r}: expected classic or banker-player")
    return [pokdeng.analyse(m) for m in modes]


def _niuniu(mode: str | None) -> list[Report]:
    from qipai.analysis import niuniu

    return [niuniu.analyse(mode)]


def _paigow(mode: str | None) -> list[Report]:
    from qipai.analysis import paigow

    return paigow.analyse(mode)


def _holdem(mode: str | None) -> list[Report]:
    from qipai.analysis import holdem_report

    return holdem_report.analyse(mode)


GAMES: dict[str, tuple[Callable[[str | None], list[Report]], str]] = {
    "pokdeng": (_pokdeng, "classic | banker-player (default: both)"),
    "niuniu": (_niuniu, "no-swap | swap (default: both)"),
    "paigow": (_paigow, "banker | push: the tie policy (default: both)"),
    "holdem-bonus": (_holdem, "source | common: the turn/river rule (default: both)"),
}


def reports(game: str, mode: str | None = None) -> list[Report]:
    """The exact analysis of one game (one report per mode or setting)."""
    if game not in GAMES:
        raise InvalidInput(f"unknown game {game!r}; expected one of {', '.join(GAMES)}")
    return GAMES[game][0](mode)
