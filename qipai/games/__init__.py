"""The games, one folder each, pure and synchronous (ARCHITECTURE.md).

`SETTLERS` maps the `"game"` field of a `qipai settle` document to the module whose
`settle(doc) -> dict` audits one dealt round. Modules are imported on first use so that the CLI
starts fast and a game's heavy tables load only when that game is asked for.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Protocol, cast

from qipai.core.errors import InvalidInput

SETTLERS: dict[str, str] = {
    "pokdeng": "qipai.games.pokdeng.settle",
    "paigow": "qipai.games.paigow.settle",
    "holdem-bonus": "qipai.games.holdem_bonus.settle",
    "niuniu": "qipai.games.niuniu.settle",
    "tiengow": "qipai.games.tiengow.settle",
}


class _Settler(Protocol):
    def settle(self, doc: Mapping[str, Any]) -> dict[str, Any]: ...


def settle_document(doc: object) -> dict[str, Any]:
    """Dispatch a `qipai settle` document to its game; InvalidInput for anything malformed."""
    if not isinstance(doc, Mapping):
        raise InvalidInput("the input must be a JSON object")
    game = doc.get("game")
    if game not in SETTLERS:
        raise InvalidInput(f"unknown game {game!r}; expected one of {', '.join(SETTLERS)}")
    try:
        module = cast(_Settler, importlib.import_module(SETTLERS[game]))
    except ModuleNotFoundError as exc:
        if exc.name and SETTLERS[game].startswith(exc.name):
            raise InvalidInput(f"game {game!r} is not available in this build") from None
        raise
    return module.settle(doc)


# Each game package's __init__ exports ROUND (its Round subclass) and CONFIG (its table-settings
# dataclass, with `to_json()` and `from_json(data)`), so that the journal, `qipai verify`, the
# tables layer and the simulator can rebuild any round by the game's name.
PACKAGES: dict[str, str] = {
    "pokdeng": "qipai.games.pokdeng",
    "paigow": "qipai.games.paigow",
    "holdem-bonus": "qipai.games.holdem_bonus",
    "niuniu": "qipai.games.niuniu",
    "tiengow": "qipai.games.tiengow",
}


def game_package(game: str) -> Any:
    """The package of a game by its name (`ROUND`, `CONFIG` and the rest live there)."""
    if game not in PACKAGES:
        raise InvalidInput(f"unknown game {game!r}; expected one of {', '.join(PACKAGES)}")
    return importlib.import_module(PACKAGES[game])
