"""`qipai rtp GAME`: the reports that make up each game's exact analysis, by mode.

Each game's spec (`GameSpec.analyse`) points here; `reports(game, mode)` dispatches through the
registry, so a game with an analysis needs no edit in this module's callers.
"""

from __future__ import annotations

from qipai.analysis.report import Report
from qipai.core.errors import InvalidInput


def pokdeng_reports(mode: str | None) -> list[Report]:
    from qipai.games.pokdeng import analysis as pokdeng

    modes = [mode] if mode else ["classic", "banker-player"]
    for m in modes:
        if m not in ("classic", "banker-player"):
            raise InvalidInput(f"Pok Deng mode {m!r}: expected classic or banker-player")
    return [pokdeng.analyse(m) for m in modes]


def niuniu_reports(mode: str | None) -> list[Report]:
    from qipai.games.niuniu import analysis as niuniu

    return [niuniu.analyse(mode)]


def paigow_reports(mode: str | None) -> list[Report]:
    from qipai.games.paigow import analysis as paigow

    return paigow.analyse(mode)


def holdem_reports(mode: str | None) -> list[Report]:
    from qipai.games.holdem_bonus import analysis as holdem_report

    return holdem_report.analyse(mode)


def analysed_games() -> dict[str, str]:
    """Games with an exact analysis → the help text of their modes."""
    from qipai.games import registry

    return {
        name: spec.analyse_modes
        for name, spec in registry.available().items()
        if callable(spec.analyse)
    }


def reports(game: str, mode: str | None = None) -> list[Report]:
    """The exact analysis of one game (one report per mode or setting)."""
    from qipai.games import registry

    # an unknown game names the registered ones; a game without exact math says why
    return list(registry.get(game).analysis(mode))
