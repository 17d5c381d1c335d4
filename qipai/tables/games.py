"""The games a table can host: each game package's ROUND and CONFIG plus what a table needs to
know around them (seat names, minimum players, names in Chinese and English, its bots).

Real games come from `qipai.games.game_package(name)`; tests register small games of their own
with `register`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from qipai.bots.base import Bot
from qipai.core.protocol import JSON, Round
from qipai.tables.bots import GenericBot

BotFactory = Callable[[str], Bot]


@dataclass(frozen=True)
class GameInfo:
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
    # Game-specific extra context the table adds at each round start (e.g. the jackpot pool).
    context_keys: tuple[str, ...] = ()
    # Whether players are shown the seed once its deal unit ends. False for Tien Gow (RULES.md
    # §5: discards stay hidden from everyone forever, and the seed would let anyone recompute
    # every hand): players get the commitment only; the operator's `qipai verify ROUND_ID`
    # still checks seed against commitment and replays the journal.
    reveal_seed: bool = True
    # Advice for a player from its own view only (the Hold'em Bonus optimal-strategy hint);
    # None for games without one (Niu Niu's swap advisor is part of its round view).
    hint: Callable[[JSON], JSON | None] | None = None

    def default_bot(self) -> str:
        """The strongest bot that answers at once (search bots are chosen explicitly)."""
        quick = [level for level in self.bot_levels if "strong" not in level]
        return (quick or list(self.bot_levels))[-1]

    def config(self, data: Mapping[str, Any] | None) -> Any:
        merged = {**self.default_config, **dict(data or {})}
        return self.config_type.from_json(merged)


_REGISTRY: dict[str, GameInfo] = {}

# Table-level facts for the real games (the rules are in the packages; these are seat layouts).
_REAL: dict[str, dict[str, Any]] = {
    "pokdeng": {
        "title": {"en": "Pok Deng", "zh": "博丁"},
        "seats": ("S1", "S2", "S3", "S4", "S5"),
        "min_players": 1,
    },
    "paigow": {
        "title": {"en": "Pai Gow", "zh": "抢庄牌九"},
        "seats": ("E", "S", "W", "N"),
        "min_players": 4,  # RULES.md §2: four seats
    },
    "holdem-bonus": {
        "title": {"en": "Hold'em Bonus", "zh": "德州扑克"},
        "seats": ("1", "2", "3", "4", "5"),  # the round's boxes are "1".."7"
        "min_players": 1,
        "context_keys": ("pool",),  # the jackpot balance comes from the ledger
    },
    "niuniu": {
        "title": {"en": "Swap Niu Niu", "zh": "换牌牛牛"},
        "seats": ("A", "B", "C", "D"),
        "min_players": 2,
    },
    "tiengow": {
        "title": {"en": "Tien Gow", "zh": "打天九"},
        "seats": ("E", "S", "W", "N"),
        "min_players": 4,
        "reveal_seed": False,  # RULES.md §5: discards are hidden forever (see GameInfo)
    },
}


def _holdem_hint(view: JSON) -> JSON | None:
    """RULES.md §3 as implemented (a turn check gives up the river bet): the source rule."""
    from qipai.analysis.strategy import hint

    return hint(view, "source")


_HINTS: dict[str, Callable[[JSON], JSON | None]] = {"holdem-bonus": _holdem_hint}


def warm_up() -> None:
    """Load what the first hint or optimal-bot decision would otherwise load mid-game: the
    Hold'em kernels (numba's on-disk cache) and evaluator tables, about a second of CPU that
    would stall every table of the event loop. The server runs it in a thread at start-up."""
    if "holdem-bonus" in available():
        from qipai.analysis.strategy import river_decision, turn_bet, turn_decision
        from qipai.core.cards import parse_cards

        hole, flop = parse_cards("As Kd"), parse_cards("2c 7h 9s")
        turn_bet(hole, flop, "source")  # loads the enumeration's turn table if it is cached
        turn_decision(hole, flop)
        river_decision(hole, parse_cards("2c 7h 9s Jd"))


def register(info: GameInfo) -> None:
    _REGISTRY[info.name] = info


def _bot_factory(game: str) -> tuple[tuple[str, ...], BotFactory]:
    """The game's bots from `qipai.bots.<game>` (BOTS: level -> class), else the generic one."""
    module_name = "qipai.bots." + game.replace("-", "_")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError:
        return ("random",), lambda level: GenericBot()
    bots: Mapping[str, Callable[[], Bot]] | None = getattr(module, "BOTS", None)
    if not bots:
        found = [
            obj
            for obj in vars(module).values()
            if isinstance(obj, type)
            and obj.__module__ == module.__name__
            and callable(getattr(obj, "choose", None))
            and isinstance(getattr(obj, "name", None), str)
        ]
        found.sort(key=lambda c: "random" not in c.__name__.lower())  # the random bot first
        bots = {str(getattr(c, "name")): c for c in found}  # noqa: B009
    if not bots:
        return ("random",), lambda level: GenericBot()
    levels = tuple(bots)

    def make(level: str) -> Bot:
        factory = bots.get(level) or bots[levels[-1]]
        return factory()

    return levels, make


def load_real(game: str) -> GameInfo | None:
    """Build the GameInfo of a real game if its package is installed (None otherwise)."""
    from qipai.games import game_package

    facts = _REAL[game]
    try:
        package = game_package(game)
        round_type = package.ROUND
        config_type = package.CONFIG
    except (ImportError, AttributeError):
        return None
    levels, make = _bot_factory(game)
    return GameInfo(
        name=game,
        round_type=round_type,
        config_type=config_type,
        seat_ids=tuple(facts["seats"]),
        min_players=int(facts["min_players"]),
        title=facts["title"],
        bot_levels=levels,
        make_bot=make,
        context_keys=tuple(facts.get("context_keys", ())),
        reveal_seed=bool(facts.get("reveal_seed", True)),
        hint=_HINTS.get(game),
    )


def available() -> dict[str, GameInfo]:
    """Every game that can be played now: registered test games and installed real games."""
    out = dict(_REGISTRY)
    for game in _REAL:
        if game not in out:
            info = load_real(game)
            if info is not None:
                out[game] = info
    return out


def get(game: str) -> GameInfo:
    games = available()
    if game not in games:
        from qipai.core.errors import InvalidInput

        raise InvalidInput(f"game {game!r} is not available; expected one of {', '.join(games)}")
    return games[game]
