"""The games a table can host, by name: the registry's `GameSpec`s (`qipai.games.registry`).

Kept for the callers that still use it: `available()`, `get(name)` and `register(...)` answer
from the registry, and a `GameSpec` answers every name of the older `GameInfo` below
(`round_type`, `config_type`, `seat_ids`, `min_players`, `title`, `bot_levels`, `make_bot`,
`default_bot()`, `config(data)`, `min_stack`, `default_buy_in`, `context_keys`, `reveal_seed`,
`commits_tiles`, `hint`, `warm_up`). `GameInfo` itself remains for test games not yet written as a `GameSpec`; new code
registers a `GameSpec` with `qipai.games.registry.register`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from qipai.bots.base import Bot
from qipai.core.errors import InvalidInput
from qipai.core.protocol import JSON, Round
from qipai.core.spec import GameSpec
from qipai.games import registry
from qipai.tables.bots import GenericBot

BotFactory = Callable[[str], Bot]


@dataclass(frozen=True)
class GameInfo:
    """The older description of a table game (prefer `qipai.core.spec.GameSpec`)."""

    name: str
    round_type: type[Round[Any]]
    config_type: Any
    seat_ids: tuple[str, ...]
    min_players: int
    title: Mapping[str, str]
    default_config: JSON = field(default_factory=dict)
    bot_levels: tuple[str, ...] = ("random",)
    make_bot: BotFactory = lambda level: GenericBot()
    min_stack: int = 1
    default_buy_in: int = 10_000
    context_keys: tuple[str, ...] = ()
    reveal_seed: bool = True
    commits_tiles: bool = False
    hint: Callable[[JSON], JSON | None] | None = None
    warm_up: Callable[[], None] | None = None

    def default_bot(self) -> str:
        """The strongest bot that answers at once (search bots are chosen explicitly)."""
        quick = [level for level in self.bot_levels if "strong" not in level]
        return (quick or list(self.bot_levels))[-1]

    def config(self, data: Mapping[str, Any] | None) -> Any:
        merged = {**self.default_config, **dict(data or {})}
        return self.config_type.from_json(merged)


Game = GameSpec | GameInfo
_LEGACY: dict[str, GameInfo] = {}


def register(info: Game) -> None:
    """Add a game: a `GameSpec` goes to the registry (and so everywhere), a `GameInfo` is known
    to the tables layer only."""
    if isinstance(info, GameSpec):
        registry.register(info)
    else:
        _LEGACY[info.name] = info


def available() -> dict[str, Game]:
    """Every game that can be played now: the registry's games and legacy test games."""
    out: dict[str, Game] = dict(registry.available())
    out.update(_LEGACY)
    return out


def get(game: str) -> Game:
    games = available()
    if game not in games:
        raise InvalidInput(
            f"game {game!r} is not available; expected one of {', '.join(games)}", field="game"
        )
    return games[game]


def warm_up() -> None:
    """Load what each game's first hint or bot decision would otherwise load mid-game
    (`GameSpec.warm_up`: the Hold'em kernels, about a second of CPU that would stall every
    table of the event loop). The server runs it in a thread at start-up."""
    for game in available().values():
        if game.warm_up is not None:
            game.warm_up()
