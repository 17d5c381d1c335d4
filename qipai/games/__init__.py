"""The games, one folder each, pure and synchronous (ARCHITECTURE.md).

Each game package declares its `GameSpec` in `spec.py` (`qipai.core.spec`); the registry
(`qipai.games.registry`) finds them. `settle_document` and `game_package` answer by a game's
name through it, so they work for every game the registry knows (a test's own games too).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

from qipai.core.errors import InvalidInput


def settle_document(doc: object) -> dict[str, Any]:
    """Dispatch a `qipai settle` document to its game; InvalidInput for anything malformed."""
    from qipai.games import registry

    if not isinstance(doc, Mapping):
        raise InvalidInput("the input must be a JSON object")
    return registry.get(doc.get("game")).settle(doc)


# Game name → a module exporting ROUND and CONFIG, for games that have no GameSpec (older test
# games); every real game is found by the registry instead.
PACKAGES: dict[str, str] = {}


def game_package(game: str) -> Any:
    """A game's `ROUND` (its Round subclass), `CONFIG` (its settings model) and `SPEC`, by name
    (what the journal, `qipai verify` and the tables rebuild rounds from)."""
    from qipai.games import registry

    if game in PACKAGES:
        return importlib.import_module(PACKAGES[game])
    spec = registry.get(game)
    return SimpleNamespace(ROUND=spec.round_type, CONFIG=spec.config_model, SPEC=spec)
