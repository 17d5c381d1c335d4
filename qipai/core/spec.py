"""`GameSpec`: everything a layer needs to know about one game, in one object (ARCHITECTURE.md, "The game contract").

Each game package declares its spec in `qipai/games/<package>/spec.py` as `SPEC`; the registry
(`qipai.games.registry`) finds them, and tests register games of their own. The table runtime,
the server's `/api/games`, the CLI (`settle`, `rtp`, `simulate`), the analysis and the bots are
driven from the spec, so a game added in one folder needs no edit anywhere else.

What a spec holds:

* names and seats: `name` ("pokdeng", …), `title` {zh, en}, `seat_ids`, `min_players`,
  `max_players`;
* the contract: `round_type` (its `Action` union parses every action), `config_model` (frozen,
  unknown fields refused, strict types, hard bounds);
* the operator's and player's facts for a table's settings: `min_buy_in(config)` (docs/rules/common.md#buy-in,
  "Common to every game", buy-in), `pay_table(config)` (every bet's pay, limits, commission,
  countdowns — what a player must see before betting) and `rtp(config)` (the exact return of every
  bet for those settings);
* `settle(doc)` (the `qipai settle` document), `bots` (level → factory, weakest first),
  `reveal_seed` (the seed policy), `context_keys`, `hint`, `engine_version`, and the entry points
  of `qipai rtp` / `qipai simulate` for the game.

`GameSpec` also answers the names of the older `qipai.tables.games.GameInfo` (`config_type`,
`bot_levels`, `make_bot`, `default_bot`, `config`, `min_stack`, `default_buy_in`), so that callers
move over one at a time.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from qipai.core.errors import InvalidInput
from qipai.core.model import Model, ViewModel, canonical_json
from qipai.core.protocol import JSON, ActionSpec, Round
from qipai.core.rng import Rng


class BotLike(Protocol):
    """What a bot offers (`qipai.bots.base.Bot`; restated here, below the bots layer)."""

    name: str

    def choose(self, view: Mapping[str, Any], legal: Sequence[ActionSpec], rng: Rng) -> Any: ...


BotFactory = Callable[[], BotLike]


def lazy(path: str) -> Callable[..., Any]:
    """A callable that imports `module:attribute` on first call and calls it: a spec names its
    bots and analysis entry points without importing them (and the layers below the games)."""
    module_name, _, attribute = path.partition(":")

    def call(*args: Any, **kwargs: Any) -> Any:
        target = getattr(importlib.import_module(module_name), attribute)
        return target(*args, **kwargs)

    call.__qualname__ = call.__name__ = attribute
    call.__doc__ = f"{path} (imported on first use)"
    return call


@dataclass(frozen=True)
class BetReturn:
    """The exact return to player of one bet for one table's settings.

    `rtp` is exact (a Fraction) or None when the game has no bet against the house (Tien Gow:
    players play each other, the house takes nothing, so the players' total return is exactly
    100 % and each seat's expectation is 0 by symmetry; `note` says so). `strategy` names the
    play the figure assumes when the bet involves decisions ("optimal", "bot: …")."""

    bet: str
    label: Mapping[str, str]
    rtp: Fraction | None
    strategy: str | None = None
    note: str = ""

    def to_json(self) -> JSON:
        rtp = self.rtp
        return {
            "bet": self.bet,
            "label": dict(self.label),
            "rtp": None if rtp is None else float(rtp),
            "rtp_exact": None if rtp is None else f"{rtp.numerator}/{rtp.denominator}",
            "house_edge": None if rtp is None else float(1 - rtp),
            "strategy": self.strategy,
            "note": self.note,
        }


def _no_rtp(config: Any) -> list[BetReturn]:
    return []


def _no_pay_table(config: Any) -> JSON:
    return {}


def _one(config: Any) -> int:
    return 1


@dataclass(frozen=True)
class GameSpec:
    """One game, as every layer sees it (see the module docstring)."""

    name: str
    title: Mapping[str, str]
    seat_ids: tuple[str, ...]
    min_players: int
    max_players: int
    round_type: type[Round[Any]]
    config_model: type[Model]
    # level → factory, weakest first; the table's default is the last one that answers at once.
    bots: Mapping[str, BotFactory] = field(default_factory=dict)
    min_buy_in_of: Callable[[Any], int] = _one
    pay_table_of: Callable[[Any], JSON] = _no_pay_table
    rtp_of: Callable[[Any], list[BetReturn]] = _no_rtp
    settle_doc: Callable[[Mapping[str, Any]], JSON] | None = None
    # Whether players are shown the seed once its deal unit ends. False for Tien Gow (docs/rules/tiengow.md#discards
    # : discards stay hidden from everyone forever, and the seed would let anyone recompute
    # every hand): players get the commitment only; the operator's `qipai verify` still checks.
    reveal_seed: bool = True
    # Whether the table commits to the dealt tiles one by one under one published root before
    # play and opens each seat's seen tiles once the game is over (docs/fairness.md, "Tien Gow's
    # tile commitment"): for a game whose seeds stay hidden (`reveal_seed` False). The round
    # then has a `deck` (the dealt order) and the `seen_positions` facts (`qipai.fairness`).
    commits_tiles: bool = False
    # Extra context the table adds at each round start (e.g. the jackpot "pool" balance).
    context_keys: tuple[str, ...] = ()
    # Advice for a player from its own view only (the Hold'em Bonus optimal-strategy hint).
    hint: Callable[[JSON], JSON | None] | None = None
    # Changes whenever a round of this game could play or settle differently (GLI-style game
    # identification: each round's journal records it).
    engine_version: str = "1"
    # Loads what the game's first hint or bot decision would otherwise load mid-game (the
    # Hold'em kernels); the server runs it in a thread at start-up.
    warm_up: Callable[[], None] | None = None
    # Position in lists of games (the lobby).
    order: int = 100
    default_buy_in: int = 10_000
    # `qipai rtp GAME [--mode]`: mode → reports (qipai.analysis.report.Report), and its help.
    analyse: Callable[[str | None], list[Any]] | None = None
    analyse_modes: str = ""
    # `qipai simulate GAME`: (rounds, seed, mode) → qipai.analysis.simulate.SimulationResult.
    simulate: Callable[[int, int, str | None], Any] | None = None
    # The view's model (JSON Schema in docs/schema/), when the game declares one.
    view_model: type[ViewModel] | None = None
    # Settings merged under every parsed config (GameInfo compatibility; normally empty).
    default_config: Mapping[str, Any] = field(default_factory=dict)

    # ----- the contract ---------------------------------------------------------------------
    @property
    def actions(self) -> Any:
        """The union of this game's action models (tagged by `type`)."""
        return self.round_type.Action

    def parse_config(self, data: object = None) -> Any:
        """Table settings from JSON (None or {} = the rules' defaults); InvalidInput names the
        field of the first problem."""
        if isinstance(data, self.config_model):
            return data
        if data is None:
            data = {}
        if not isinstance(data, Mapping):
            raise InvalidInput(f"{self.name} settings are a JSON object", field="config")
        merged = {**self.default_config, **data} if self.default_config else data
        return self.config_model.parse(merged)

    def parse_action(self, data: object) -> Any:
        """A typed action from JSON; InvalidInput names the field (`spt` in {"type": "clear",
        "spt": "P1"})."""
        return self.round_type.parse_action(data)

    def action_json(self, action: Any) -> JSON:
        """The canonical JSON of an action: what the journal stores."""
        return self.round_type.action_json(self.parse_action(action))

    def config_json(self, config: Any) -> JSON:
        return dict(self.parse_config(config).to_json())

    def config_hash(self, config: Any) -> str:
        """SHA-256 (hex) of the canonical JSON of the settings (`config.to_json()`, keys sorted)."""
        return hashlib.sha256(canonical_json(self.config_json(config))).hexdigest()

    # ----- what players and operators see -------------------------------------------------------
    def min_buy_in(self, config: Any = None) -> int:
        """The least stack a seat needs for one round's worst loss at the smallest bet
        (docs/rules/common.md#buy-in, Common to every game, buy-in)."""
        return self.min_buy_in_of(self.parse_config(config))

    def pay_table(self, config: Any = None) -> JSON:
        """Every bet's pay, the limits, commission and countdowns, with zh/en labels."""
        return self.pay_table_of(self.parse_config(config))

    def rtp(self, config: Any = None) -> list[BetReturn]:
        """The exact return to player of every bet for these settings."""
        return self.rtp_of(self.parse_config(config))

    def settle(self, doc: Mapping[str, Any]) -> JSON:
        """Settle one dealt round described by a `qipai settle` document."""
        if self.settle_doc is None:
            raise InvalidInput(f"game {self.name!r} has no settle documents")
        return self.settle_doc(doc)

    # ----- bots -------------------------------------------------------------------------------
    @property
    def bot_levels(self) -> tuple[str, ...]:
        return tuple(self.bots)

    def make_bot(self, level: str) -> BotLike:
        """A bot of `level` (an unknown level gets the default one)."""
        if not self.bots:
            raise InvalidInput(f"{self.name} has no bots")
        factory = self.bots.get(level) or self.bots[self.default_bot()]
        return factory()

    def default_bot(self) -> str:
        """The strongest bot that answers at once (search bots are chosen explicitly)."""
        quick = [level for level in self.bot_levels if "strong" not in level]
        levels = quick or list(self.bot_levels)
        return levels[-1] if levels else ""

    # ----- GameInfo compatibility --------------------------------------------------------------
    @property
    def config_type(self) -> type[Model]:
        return self.config_model

    def config(self, data: Mapping[str, Any] | None = None) -> Any:
        return self.parse_config(data)

    @property
    def min_stack(self) -> int:
        """GameInfo's name: the least stack to sit (1: the table's terms set the real minimum,
        `min_buy_in(config)`)."""
        return 1

    def to_json(self) -> JSON:
        """The game as `/api/games` lists it (the default table's facts included)."""
        default = self.parse_config(None)
        return {
            "game": self.name,
            "title": dict(self.title),
            "seats": list(self.seat_ids),
            "min_players": self.min_players,
            "max_players": self.max_players,
            "bot_levels": list(self.bot_levels),
            "default_bot": self.default_bot(),
            "default_buy_in": self.default_buy_in,
            "min_buy_in": self.min_buy_in_of(default),
            "reveal_seed": self.reveal_seed,
            "engine_version": self.engine_version,
            "rules": f"/api/rules/{self.name}",
        }


# ----- helpers for the games' pay tables ----------------------------------------------------------
def label(zh: str, en: str) -> dict[str, str]:
    """A text in both languages of the room."""
    return {"zh": zh, "en": en}


def countdown(phase: str, zh: str, en: str, seconds: float) -> JSON:
    return {"phase": phase, "label": label(zh, en), "seconds": seconds}


def pays(zh: str, en: str, odds: str) -> JSON:
    """One line of a bet's pay: when (both languages) and what it pays ("1:1", "0.95:1", …)."""
    return {"when": label(zh, en), "odds": odds}
