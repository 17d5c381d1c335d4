"""A table's terms: everything the operator decided about a table, fixed when it opens.

`TableTerms` is the only way settings reach a table (ARCHITECTURE.md "Authority"): the operator's
template store (`qipai.authority`) builds them from a versioned template; until a template is
given, `default_terms` builds them from the game's own defaults (the rules' settings, docs/rules/common.md).
A player's input is never a setting: players choose a table (or a template), never its terms.

Fields (all shown to players before they sit, docs/rules/common.md#buy-in "Decision (buy-in)" and "who sets the
rules"):

* `game`, `config` (the game's parsed, validated config), `config_json` (its canonical JSON) and
  `config_hash` (SHA-256 hex of the canonical JSON: what each round's `meta` records);
* `template_id`, `template_version`: the operator template the terms came from (None: defaults);
* `min_buy_in`, `max_buy_in`: the buy-in range; the minimum covers one round's worst loss at the
  smallest bet (the game's `min_buy_in(config)`), and is enforced at sit-down and before each
  deal (a seat below it is stood up, its stack returned to its wallet);
* `bot_policy`: the bot levels allowed at the table (empty: no bots);
* `private`: listed in the lobby only to its owner;
* `pool_id`: the jackpot pool of the table's jackpot bets (`jackpot:<pool_id>` in the ledger);
* `away_grace_s`: how long an away seat keeps its place before it is stood up (docs/rules/common.md
  "Decision (away)", default 60 s);
* `idle_reveal_s`: a deal unit (a Pok Deng shoe, a Pai Gow game) at a table without a person for
  this long ends and its seed is revealed (docs/fairness.md);
* `client_seeds`: whether each seated player's client seed enters the deal (docs/fairness.md).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from qipai.core.errors import InvalidInput
from qipai.core.protocol import JSON

# The widest buy-in range a table may have (the ledger's amounts are far larger; this keeps a
# table's stacks, and so every settlement at it, well inside them).
BUY_IN_CEILING = 10**12
DEFAULT_AWAY_GRACE_S = 60.0
DEFAULT_IDLE_REVEAL_S = 600.0


def canonical_json(data: Any) -> str:
    """Sorted keys, no spaces, UTF-8 as is: the text the config hash is taken over."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def config_hash_of(config_json: Mapping[str, Any]) -> str:
    """SHA-256 hex of the config's canonical JSON (the same as `GameSpec.config_hash`)."""
    return hashlib.sha256(canonical_json(dict(config_json)).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class TableTerms:
    """Everything the operator fixed about one table (see the module docstring)."""

    game: str
    config: Any
    config_json: JSON
    config_hash: str
    min_buy_in: int
    max_buy_in: int
    bot_policy: tuple[str, ...] = ()
    template_id: str | None = None
    template_version: int | None = None
    private: bool = False
    pool_id: str = ""
    away_grace_s: float = DEFAULT_AWAY_GRACE_S
    idle_reveal_s: float = DEFAULT_IDLE_REVEAL_S
    client_seeds: bool = True

    def __post_init__(self) -> None:
        if not (isinstance(self.min_buy_in, int) and isinstance(self.max_buy_in, int)):
            raise InvalidInput("the buy-in range is two integers")
        if not 1 <= self.min_buy_in <= self.max_buy_in <= BUY_IN_CEILING:
            raise InvalidInput(
                f"the buy-in range must satisfy 1 <= min <= max <= {BUY_IN_CEILING}, "
                f"not {self.min_buy_in}..{self.max_buy_in}"
            )
        if not 0 < self.away_grace_s <= 3600 or not 0 < self.idle_reveal_s <= 86_400:
            raise InvalidInput("away_grace_s is 0-3600 s and idle_reveal_s 0-86400 s")
        if not self.pool_id:
            object.__setattr__(self, "pool_id", self.game)

    def allows_bot(self, level: str) -> bool:
        return level in self.bot_policy

    def to_json(self) -> JSON:
        """What the table's saved layout keeps (the config as its canonical JSON)."""
        return {
            "game": self.game,
            "config": dict(self.config_json),
            "config_hash": self.config_hash,
            "template_id": self.template_id,
            "template_version": self.template_version,
            "min_buy_in": self.min_buy_in,
            "max_buy_in": self.max_buy_in,
            "bot_policy": list(self.bot_policy),
            "private": self.private,
            "pool_id": self.pool_id,
            "away_grace_s": self.away_grace_s,
            "idle_reveal_s": self.idle_reveal_s,
            "client_seeds": self.client_seeds,
        }

    def public_json(self) -> JSON:
        """What every player is shown before sitting (the lobby's `terms` block)."""
        out = self.to_json()
        out["template"] = (
            None
            if self.template_id is None
            else {"id": self.template_id, "version": self.template_version}
        )
        return out

    @classmethod
    def from_json(cls, game_info: Any, data: Mapping[str, Any]) -> TableTerms:
        """Rebuild saved terms (a saved layout); the config is parsed again by the game."""
        config_json = dict(data.get("config") or {})
        config = game_info.config(config_json)
        canonical = dict(config.to_json())
        return cls(
            game=str(data.get("game", game_info.name)),
            config=config,
            config_json=canonical,
            config_hash=_hash_for(game_info, config, canonical),
            min_buy_in=int(data["min_buy_in"]),
            max_buy_in=int(data["max_buy_in"]),
            bot_policy=tuple(str(b) for b in data.get("bot_policy") or ()),
            template_id=data.get("template_id"),
            template_version=data.get("template_version"),
            private=bool(data.get("private", False)),
            pool_id=str(data.get("pool_id") or game_info.name),
            away_grace_s=float(data.get("away_grace_s", DEFAULT_AWAY_GRACE_S)),
            idle_reveal_s=float(data.get("idle_reveal_s", DEFAULT_IDLE_REVEAL_S)),
            client_seeds=bool(data.get("client_seeds", True)),
        )


def _hash_for(game_info: Any, config: Any, canonical: Mapping[str, Any]) -> str:
    spec_hash = getattr(game_info, "config_hash", None)
    if callable(spec_hash):
        return str(spec_hash(config))
    return config_hash_of(canonical)


def min_buy_in_of(game_info: Any, config: Any) -> int:
    """The game's minimum buy-in for these settings (docs/rules/common.md#buy-in "Decision (buy-in)")."""
    rule = getattr(game_info, "min_buy_in", None)
    if callable(rule):
        return max(1, int(rule(config)))
    return max(1, int(getattr(game_info, "min_stack", 1)))


def default_terms(
    game_info: Any, config_json: Mapping[str, Any] | None = None, **overrides: Any
) -> TableTerms:
    """Terms from the game's defaults (and `config_json` over them): what a table gets until the
    operator's templates give it terms. Raises InvalidInput for settings the game refuses."""
    try:
        config = game_info.config(dict(config_json or {}))
    except InvalidInput:
        raise
    except Exception as exc:
        raise InvalidInput(f"bad table settings: {exc}") from None
    canonical = dict(config.to_json())
    minimum = min_buy_in_of(game_info, config)
    fields: dict[str, Any] = {
        "game": game_info.name,
        "config": config,
        "config_json": canonical,
        "config_hash": _hash_for(game_info, config, canonical),
        "min_buy_in": minimum,
        "max_buy_in": min(BUY_IN_CEILING, max(100 * minimum, 100_000_000)),
        "bot_policy": tuple(game_info.bot_levels),
        "pool_id": game_info.name,
    }
    fields.update(overrides)
    return TableTerms(**fields)


__all__ = [
    "BUY_IN_CEILING",
    "TableTerms",
    "canonical_json",
    "config_hash_of",
    "default_terms",
    "min_buy_in_of",
]
