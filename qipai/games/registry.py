"""The one place games are found: every `qipai/games/<package>/spec.py` that defines `SPEC`.

`available()` lists them (and any game a test registered with `register`), in lobby order;
`get(name)` is one of them or an `InvalidInput` naming the choices. Nothing else in qipai lists
games: the table runtime, `/api/games`, the CLI, the analysis and the bots all come here, so a
new game is one new folder.

A game is checked when it is found or registered: a spec that leaves a capability undeclared
(`GameSpec.missing_capabilities`: its encoder, deal description, stakes, analysis, …) raises
`MissingCapability` naming the game and what it lacks, so no tool silently leaves it out.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading

from qipai.core.errors import InvalidInput
from qipai.core.spec import GameSpec

_REGISTERED: dict[str, GameSpec] = {}
_FOUND: dict[str, GameSpec] | None = None
_LOCK = threading.Lock()


def _discover() -> dict[str, GameSpec]:
    """Import `qipai.games.<package>.spec` for every game package (once per process)."""
    global _FOUND
    with _LOCK:
        if _FOUND is None:
            import qipai.games as games_package

            found: dict[str, GameSpec] = {}
            for info in pkgutil.iter_modules(games_package.__path__):
                if not info.ispkg:
                    continue
                try:
                    module = importlib.import_module(f"qipai.games.{info.name}.spec")
                except ModuleNotFoundError as exc:
                    if exc.name == f"qipai.games.{info.name}.spec":
                        continue  # a helper package, not a game
                    raise
                spec = getattr(module, "SPEC", None)
                if isinstance(spec, GameSpec):
                    found[spec.name] = spec.validate()
            _FOUND = found
        return _FOUND


def register(spec: GameSpec) -> GameSpec:
    """Add a game (a test's own game); it then appears everywhere a real game does."""
    if not isinstance(spec, GameSpec):
        raise TypeError("register() takes a GameSpec")
    _REGISTERED[spec.name] = spec.validate()
    return spec


def unregister(name: str) -> None:
    """Remove a game added with `register` (tests clean up after themselves)."""
    _REGISTERED.pop(name, None)


def rediscover() -> None:
    """Forget what discovery found, so that the next call looks at the game folders again (a
    test that adds a game folder to `qipai.games.__path__`)."""
    global _FOUND
    with _LOCK:
        _FOUND = None


def available() -> dict[str, GameSpec]:
    """Every game that can be played now, in lobby order (registered games may replace a
    discovered one of the same name)."""
    games = {**_discover(), **_REGISTERED}
    return dict(sorted(games.items(), key=lambda item: (item[1].order, item[0])))


def names() -> list[str]:
    return list(available())


def get(name: object) -> GameSpec:
    games = available()
    if not isinstance(name, str) or name not in games:
        raise InvalidInput(
            f"unknown game {name!r}; expected one of {', '.join(games)}", field="game"
        )
    return games[name]
