"""What the authority asks of a game: parse and bound its settings, hash them, the minimum buy-in,
the pay table players are shown, and the exact return of every bet.

All of it comes from the game's `GameSpec` (`qipai.games.registry`). A test game described by
the older `GameInfo` answers the parts it can: settings are parsed by its config type and the
pay table is the settings themselves; its exact return is `RtpUnavailable`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from qipai.authority.errors import BadRequest
from qipai.core.errors import GameError, InvalidInput


class RtpUnavailable(Exception):
    """No exact-return computation for this game yet."""


def spec(game: str) -> Any:
    """The game's spec: a `GameSpec` (`qipai.games.registry`), or a test game's `GameInfo`
    (`qipai.tables.games` answers both)."""
    if not isinstance(game, str):
        raise BadRequest("game is a string", "game")
    from qipai.tables import games as games_mod

    try:
        return games_mod.get(game)
    except GameError as exc:
        raise BadRequest(exc.message, "game") from None


def game_names() -> list[str]:
    from qipai.tables import games as games_mod

    return sorted(games_mod.available())


def parse_config(game: str, settings: object) -> Any:
    """The game's settings, bounded by its config model; a refusal names the field."""
    s = spec(game)
    if not isinstance(settings, Mapping):
        raise BadRequest("settings is an object of the game's settings", "settings")
    try:
        if hasattr(s, "parse_config"):
            return s.parse_config(dict(settings))
        return s.config(dict(settings))
    except InvalidInput as exc:
        field = getattr(exc, "field", None)
        where = f"settings.{field}" if field else "settings"
        raise BadRequest(f"settings: {exc.message}", where) from None
    except (TypeError, ValueError) as exc:
        raise BadRequest(f"settings: {exc}", "settings") from None


def config_json(config: Any) -> dict[str, Any]:
    data = config.to_json()
    # a JSON round trip: what is stored and hashed is exactly what the database gives back
    return dict(json.loads(json.dumps(data, sort_keys=True)))


def config_hash(game: str, config: Any) -> str:
    s = spec(game)
    if hasattr(s, "config_hash"):
        return str(s.config_hash(config))
    text = json.dumps(config.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def min_buy_in(game: str, config: Any) -> int:
    s = spec(game)
    if hasattr(s, "min_buy_in"):
        return int(s.min_buy_in(config))
    return int(getattr(s, "min_stack", 1))


def pay_table(game: str, config: Any) -> Any:
    s = spec(game)
    if hasattr(s, "pay_table"):
        return s.pay_table(config)
    return config_json(config)


def engine_version(game: str) -> str:
    s = spec(game)
    return str(getattr(s, "engine_version", "0"))


def bot_levels(game: str) -> tuple[str, ...]:
    s = spec(game)
    bots = getattr(s, "bots", None)
    if isinstance(bots, Mapping):
        return tuple(bots)
    return tuple(getattr(s, "bot_levels", ()))


def default_settings(game: str) -> dict[str, Any]:
    """The game's docs/rules/common.md#who-sets-the-rules defaults as settings (the config model's defaults)."""
    return config_json(parse_config(game, {}))


def _fraction(value: Any) -> Fraction | None:
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return Fraction(value)
    if isinstance(value, Mapping) and {"numerator", "denominator"} <= set(value):
        return Fraction(int(value["numerator"]), int(value["denominator"]))
    if isinstance(value, float):
        return None  # a float is a display value, never the exact figure
    if isinstance(value, str):
        try:
            return Fraction(value)
        except (ValueError, ZeroDivisionError):
            return None
    return None


def bet_return_json(item: Any) -> dict[str, Any]:
    """One bet's exact return as JSON, in `BetReturn.to_json`'s shape: `bet`, `rtp` (a float,
    for display), `rtp_exact` ("n/d"), plus `rtp_percent` ("97.2639") and `over_100`, and
    whatever else the game reports (label, strategy, house edge, note). `rtp` is null for a bet
    the house is not party to (Tien Gow)."""
    if isinstance(item, Mapping):
        data = dict(item)
    elif hasattr(item, "to_json"):
        data = dict(item.to_json())
    else:
        data = {k: v for k, v in vars(item).items() if not k.startswith("_")}
    ret = _fraction(getattr(item, "rtp", None))
    if ret is None:
        ret = _fraction(data.get("rtp_exact")) or _fraction(data.get("rtp"))
    out = dict(data)
    out["bet"] = str(getattr(item, "bet", None) or data.get("bet") or "?")
    if ret is None:
        out.update(rtp=None, rtp_exact=None, rtp_percent=None, over_100=False)
    else:
        out["rtp"] = float(ret)
        out["rtp_exact"] = f"{ret.numerator}/{ret.denominator}"
        out["rtp_percent"] = f"{float(ret) * 100:.4f}"
        out["over_100"] = ret > 1
    return out


def rtp(game: str, config: Any) -> list[dict[str, Any]]:
    """The exact return of every bet for these settings (slow: run it off the event loop)."""
    s = spec(game)
    if not hasattr(s, "rtp"):
        raise RtpUnavailable(f"{game}: no exact-return computation yet")
    return [bet_return_json(item) for item in s.rtp(config)]
