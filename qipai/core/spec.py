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

Capabilities (as OpenSpiel's `GameType` declares a game's facts): besides the contract above, a
spec names from inside its folder what the room, the tools and the client need of it — the
environment encoder (`encoder`, `qipai.envs.env`), the deal description for fairness (`fairness`:
public inputs, the deal recomputed from a key, what the table showed and how it compares), the
stakes of a settled round for the operator's reports (`stakes`, `turnover`), the exact analysis
and simulation (`analyse`, `simulate`) and `qipai settle` documents (`settle_doc`) with their
examples (`examples/*.json` in the folder), and the game's part of the standalone verifier
(`verify_deal.py` in the folder, joined into docs/verify_deal.py by `qipai docs --write`). A capability left undeclared is an error at
registration naming it (`MissingCapability`); a game without one of the optional ones says so
explicitly with `None` (Tien Gow has no exact return: `analyse=None`), and the tool then answers
`NotOffered` naming the game instead of "unknown game".

The mathematicians' tools are optional capabilities of the same kind: `advise` (`qipai advise`,
an `AdviceRequest` → the best decision), `par` with its `par_options` (`qipai par`) and
`batch_env` (`qipai.envs.batch.batch_env`). A game without one answers `NotOffered` naming the
games that have it; the shared machinery (`qipai/analysis/`, `qipai/envs/`) names no game.

`GameSpec` also answers the names of the older `qipai.tables.games.GameInfo` (`config_type`,
`bot_levels`, `make_bot`, `default_bot`, `config`, `min_stack`, `default_buy_in`), so that callers
move over one at a time.
"""

from __future__ import annotations

import enum
import hashlib
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Final, Protocol

from qipai.core.errors import GameError, InvalidInput
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


def ref(path: str) -> Callable[[], Any]:
    """A loader of `module:attribute` (imported on first call, not called): a spec names its
    encoder class or deal description without importing the layers above the games."""
    module_name, _, attribute = path.partition(":")

    def load() -> Any:
        return getattr(importlib.import_module(module_name), attribute)

    load.__qualname__ = load.__name__ = attribute
    load.__doc__ = f"{path} (imported on first use)"
    return load


class Undeclared(enum.Enum):
    """A capability the spec does not mention (distinct from `None`: declared absent)."""

    UNDECLARED = "undeclared"


UNDECLARED: Final = Undeclared.UNDECLARED


class MissingCapability(GameError):
    """A game's spec leaves out something every game must declare (raised at registration and
    by the conformance suite): the message names the game and each missing capability."""

    code = "missing_capability"

    def __init__(self, game: str, missing: Sequence[str]) -> None:
        self.game = game
        self.missing = tuple(missing)
        super().__init__(
            f"game {game!r} does not declare {', '.join(self.missing)} "
            "(qipai/core/spec.py, GameSpec's capabilities; docs/adding-a-game.md)",
            field="game",
        )


class NotOffered(InvalidInput):
    """The game declares that it has none of this capability (Tien Gow's exact return)."""

    code = "not_offered"


@dataclass(frozen=True)
class StakedBet:
    """One bet of a settled round, as the operator's reports count it: its kind (the exact
    figure's `bet` key), the seat that placed it, what was staked (turnover, 有效投注額) and
    what it won (+) or lost (−), in minor units."""

    kind: str
    seat: str
    staked: int
    net: int


StakesOf = Callable[[Mapping[str, Any], Mapping[str, Any]], list[StakedBet]]
"""(config JSON, the result's details) → the round's bets."""

TurnoverOf = Callable[[Mapping[str, Any], Mapping[str, Any]], list[tuple[str, int]]]
"""(config JSON, the result's details) → (seat, amount) of turnover, for a game whose turnover
is not its stakes (Tien Gow: each seat's settled |net|, docs/rules/tiengow.md#turnover)."""


class DealCheckLike(Protocol):
    """Where a deal description reports a comparison (`qipai.fairness.check.DealCheck`)."""

    def add(self, name: str, ok: bool, detail: str = "") -> object: ...


@dataclass(frozen=True)
class DealDescription:
    """How a game's deal is made public and checked (docs/fairness.md, "The games"): the round's
    public inputs for the export, the deal recomputed from a unit key and those inputs
    independently of the engine (plain data: cards "As", tiles "6-6"), what the table showed at
    the end, how a recomputed deal is printed and compared with what was shown, and a
    standard-library-only snippet of the deal for `docs/verify_deal.py`."""

    # (round, config, seats, context) → the `inputs` block of the export
    inputs: Callable[[Any, Any, Sequence[Any], Mapping[str, Any]], dict[str, Any]]
    # (key, inputs) → the deal as JSON (InvalidInput for bad inputs)
    deal: Callable[[bytes, Mapping[str, Any]], dict[str, Any]]
    # (round, key, the journal record, whether the seed is shown) → `dealt` (None: not shown)
    dealt: Callable[[Any, bytes, Mapping[str, Any], bool], Any]
    # the deal as lines of text for `qipai verify`
    lines: Callable[[Mapping[str, Any]], list[str]]
    # (check, deal, dealt): each item shown against the recomputed deal
    compare: Callable[[DealCheckLike, Mapping[str, Any], Mapping[str, Any]], None]
    # the deal's labelled streams, for the specification's table (docs/fairness.md)
    streams: tuple[str, ...] = ()


@dataclass(frozen=True)
class AdviceRequest:
    """What `qipai advise GAME` was given: the player's cards or tiles, the other cards it can
    see, the board (Hold'em Bonus), the rule or mode, and whether to answer in JSON."""

    cards: str = ""
    seen: str = ""
    board: str = ""
    mode: str | None = None
    as_json: bool = False

    def refuse(self, game: str, *options: str) -> None:
        """InvalidInput naming the given options (of `seen`, `board`, `mode`) the game's
        advice does not take, rather than ignoring them."""
        given = [name for name in options if getattr(self, name)]
        if given:
            raise InvalidInput(f"{game} advice takes no --{', --'.join(given)}", field=given[0])


Advisor = Callable[[AdviceRequest], str]
"""A game's advisor: the request → the advice as text, or JSON when `as_json`."""

ParOf = Callable[[Any, Mapping[str, Any]], Any]
"""A game's PAR sheet: (parsed table settings, PAR-only options) → `ParSheet`."""


@dataclass(frozen=True)
class ShippedTable:
    """A table template the room ships for the game (docs/rules/common.md#who-sets-the-rules):
    its id, its name and the settings it changes from the rules' defaults."""

    id: str
    name: str
    settings: Mapping[str, Any] = field(default_factory=dict)


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
    # `qipai settle` (None: the game declares it has no settle documents).
    settle_doc: Callable[[Mapping[str, Any]], JSON] | Undeclared | None = UNDECLARED
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
    # `qipai rtp GAME [--mode]`: mode → reports (qipai.analysis.report.Report), and its help
    # (None: the game declares it has no exact analysis, `no_analysis` says why).
    analyse: Callable[[str | None], list[Any]] | Undeclared | None = UNDECLARED
    analyse_modes: str = ""
    no_analysis: str = ""
    # `qipai simulate GAME`: (rounds, seed, mode) → qipai.analysis.simulate.SimulationResult.
    simulate: Callable[[int, int, str | None], Any] | Undeclared | None = UNDECLARED
    # What the exact figures assume that the room's bots do not play (Niu Niu: no bids and no
    # swaps); non-empty: the back office compares observed returns with a simulation of the
    # room's bots at the template's settings instead (`qipai.analysis.policy`).
    exact_assumes: str = ""
    # `qipai advise GAME CARDS [--seen] [--board] [--mode] [--json]`: the best decision for a
    # hand (an `AdviceRequest` → text or JSON); optional (None: none, `no_advice` may say why).
    advise: Advisor | None = None
    no_advice: str = ""
    # `qipai par GAME`: (parsed settings, the PAR-only options named in `par_options`) → the
    # PAR sheet (`qipai.analysis.par.ParSheet`; ValueError names a bad option); optional.
    par: ParOf | None = None
    par_options: tuple[str, ...] = ()
    # `qipai.envs.batch.batch_env(GAME, tables, **options)`: the vectorised environment's class
    # (`qipai.envs.batch.BatchEnv`), loaded on first use; optional.
    batch_env: Callable[[], Any] | None = None
    # The PettingZoo encoder class (`qipai.envs.base.Encoder`), loaded on first use.
    encoder: Callable[[], Any] | Undeclared = UNDECLARED
    # The deal description for fairness (`DealDescription`), loaded on first use.
    fairness: Callable[[], DealDescription] | Undeclared = UNDECLARED
    # The bets of a settled round for the reports, and its turnover when not its stakes.
    stakes: StakesOf | Undeclared = UNDECLARED
    turnover: TurnoverOf | None = None
    # The templates the room ships (empty: one at the rules' defaults, named by the title).
    shipped_tables: tuple[ShippedTable, ...] = ()
    # The Python package of the game's folder ("qipai.games.niuniu"); the registry fills it
    # in for a discovered folder, a test game names its own (default: its round's package).
    package: str = ""
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
        settle: Callable[[Mapping[str, Any]], JSON] = self._declared(
            "settle_doc", self.settle_doc, "settle documents"
        )
        return settle(doc)

    # ----- capabilities -----------------------------------------------------------------------
    REQUIRED: tuple[str, ...] = (
        "bots", "encoder", "fairness", "stakes", "analyse", "simulate", "settle_doc", "examples"
    )  # fmt: skip

    def missing_capabilities(self) -> list[str]:
        """The capabilities this spec leaves undeclared (empty for a complete game): `bots`
        needs at least one level, `examples` at least one settle example in the folder when
        the game settles documents; the others must be given or declared absent (`None`)."""
        missing = [
            name
            for name in ("encoder", "fairness", "stakes", "analyse", "simulate", "settle_doc")
            if getattr(self, name) is UNDECLARED
        ]
        if not self.bots:
            missing.insert(0, "bots")
        if self.rules_page("en") is None:
            missing.append(f"rules (no rules/en.md in {self.folder}, nor a shipped page)")
        if self.fairness is not UNDECLARED and not (self.folder / "verify_deal.py").is_file():
            missing.append(f"verify_deal (no verify_deal.py in {self.folder})")
        if callable(self.settle_doc) and not self.examples():
            missing.append(f"examples (no examples/*.json in {self.folder})")
        return missing

    def validate(self) -> GameSpec:
        """This spec, or `MissingCapability` naming every capability it lacks."""
        missing = self.missing_capabilities()
        if missing:
            raise MissingCapability(self.name, missing)
        return self

    def _declared(self, name: str, value: Any, what: str) -> Any:
        if value is UNDECLARED:
            raise MissingCapability(self.name, [name])
        if value is None:
            raise NotOffered(f"game {self.name!r} has no {what}", field="game")
        return value

    @property
    def package_name(self) -> str:
        """The game folder's Python package (`qipai.games.<package>`)."""
        return self.package or self.round_type.__module__.rpartition(".")[0]

    @property
    def folder(self) -> Path:
        """The game's folder on disk (the package directory)."""
        module = importlib.import_module(self.package_name)
        return Path(str(module.__file__)).parent

    def examples(self) -> list[Path]:
        """The folder's `qipai settle` examples (`examples/*.json`, sorted; `bad-*.json` are
        documents the game must refuse)."""
        return sorted((self.folder / "examples").glob("*.json"))

    def rules_page(self, lang: str = "en") -> tuple[Path, str] | None:
        """(file, language served) of the game's rules page in `lang`, else in English: the
        folder's `rules/<lang>.md`, else the shipped pages (`qipai/rules/`, where the wheel
        carries docs/rules, or docs/rules/ in a source checkout) as `<game>.<lang>.md` /
        `<game>.md`. None when there is none (a missing capability)."""
        candidates = [(self.folder / "rules" / f"{lang}.md", lang)]
        candidates.append((self.folder / "rules" / "en.md", "en"))
        # the shipped page is named after the game or its folder ("holdem-bonus", "pokdeng")
        folder = self.package_name.rpartition(".")[2].replace("_", "-")
        for shipped in _shipped_rules():
            for page in dict.fromkeys((self.name, folder)):
                candidates += [
                    (shipped / f"{page}.{lang}.md", lang),
                    (shipped / f"{page}.md", "en"),
                ]
        return next(((path, served) for path, served in candidates if path.is_file()), None)

    def web_assets(self) -> dict[str, str | None]:
        """Where the client loads the game's renderer and strings from its folder (`web/`,
        served at /games/<package>/…), None for a game drawn by the built-in renderers."""
        package = self.package_name.rpartition(".")[2]
        web = self.folder / "web"
        return {
            key: f"/games/{package}/{name}" if (web / name).is_file() else None
            for key, name in (("renderer", "renderer.js"), ("strings", "i18n.json"))
        }

    def encoder_type(self) -> Any:
        """The game's environment encoder class (`qipai.envs.base.Encoder`)."""
        return self._declared("encoder", self.encoder, "environment")()

    def deal_description(self) -> DealDescription:
        """How the game's deal is exported, recomputed and compared (`DealDescription`)."""
        loaded = self._declared("fairness", self.fairness, "deal description")()
        if not isinstance(loaded, DealDescription):
            raise MissingCapability(self.name, ["fairness (not a DealDescription)"])
        return loaded

    def bets_of(self, config: Mapping[str, Any], details: Mapping[str, Any]) -> list[StakedBet]:
        """The bets of a settled round (the reports' stakes)."""
        stakes: StakesOf = self._declared("stakes", self.stakes, "stakes")
        return stakes(config, details)

    def turnover_of(
        self, config: Mapping[str, Any], details: Mapping[str, Any]
    ) -> list[tuple[str, int]]:
        """(seat, amount) of a settled round's turnover: its stakes unless the game says
        otherwise (`turnover`)."""
        if self.turnover is not None:
            return self.turnover(config, details)
        return [(bet.seat, bet.staked) for bet in self.bets_of(config, details)]

    def analysis(self, mode: str | None) -> list[Any]:
        """`qipai rtp`: the game's exact reports (`NotOffered` when it has none, with why)."""
        if self.analyse is None and self.no_analysis:
            raise NotOffered(f"{self.name} has no exact analysis: {self.no_analysis}", "game")
        analyse = self._declared("analyse", self.analyse, "exact analysis")
        return list(analyse(mode))

    def advice(self, request: AdviceRequest) -> str:
        """`qipai advise`: the best decision for a hand (`NotOffered` for a game without one,
        naming the games with one and saying why when the game does)."""
        if self.advise is None:
            raise self._not_offered("advise", "advisor", self.no_advice)
        return self.advise(request)

    def par_sheet(self, settings: Mapping[str, Any] | None = None) -> Any:
        """`qipai par`: the PAR sheet under these settings (the table's, plus the game's
        `par_options`); `NotOffered` for a game without one, InvalidInput for a bad setting."""
        if self.par is None:
            raise self._not_offered("par", "PAR sheet")
        data = dict(settings or {})
        options = {key: data.pop(key) for key in self.par_options if key in data}
        config = self.parse_config(data)
        try:
            return self.par(config, options)
        except ValueError as exc:  # the game's own check of a PAR-only option
            raise InvalidInput(str(exc), field="settings") from None

    def batch_env_type(self) -> Any:
        """The game's vectorised environment class (`NotOffered` for a game without one)."""
        if self.batch_env is None:
            raise self._not_offered("batch_env", "batch environment")
        return self.batch_env()

    def _not_offered(self, capability: str, what: str, why: str = "") -> NotOffered:
        offered = [n for n, spec in _games().items() if getattr(spec, capability) is not None]
        message = f"no {what} for game {self.name!r}; games with one: {', '.join(offered)}"
        return NotOffered(message + (f" ({why})" if why else ""), "game")

    def simulation(self, rounds: int, seed: int, mode: str | None) -> Any:
        """`qipai simulate`: a bot-versus-bot result (`qipai.analysis.simulate`)."""
        return self._declared("simulate", self.simulate, "simulation")(rounds, seed, mode)

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
            **self.web_assets(),
        }


def _shipped_rules() -> list[Path]:
    """Where the five first games' rules pages are shipped: inside the package (the wheel maps
    docs/rules to qipai/rules), or docs/rules/ of a source checkout."""
    package = Path(__file__).resolve().parents[1]
    return [package / "rules", package.parent / "docs" / "rules"]


def _games() -> dict[str, GameSpec]:
    from qipai.games import registry

    return registry.available()


# ----- helpers for the games' pay tables ----------------------------------------------------------
def label(zh: str, en: str) -> dict[str, str]:
    """A text in both languages of the room."""
    return {"zh": zh, "en": en}


def countdown(phase: str, zh: str, en: str, seconds: float) -> JSON:
    return {"phase": phase, "label": label(zh, en), "seconds": seconds}


def pays(zh: str, en: str, odds: str) -> JSON:
    """One line of a bet's pay: when (both languages) and what it pays ("1:1", "0.95:1", …)."""
    return {"when": label(zh, en), "odds": odds}
