"""Pok Deng table settings with their RULES.md §1 defaults, validated.

One frozen `PokDengConfig` describes a table: the mode (classic or banker-player), the shoe (8
decks, cut card 52–104 cards from the end — RULES.md Decision), the betting countdown, the bet
limits per bet type and the pay rates. Amounts are integer minor units; rates are exact decimal
strings (never floats).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, Final, Literal

from qipai.core.errors import InvalidInput
from qipai.core.money import require_amount, to_rate

Mode = Literal["classic", "banker-player"]
MODES: Final[tuple[Mode, ...]] = ("classic", "banker-player")
POSITIONS: Final = ("P1", "P2", "P3", "P4", "P5")
BANKER: Final = "B"
CARDS_PER_ROUND: Final = 13  # one burn card + two cards to each of P1–P5 and the banker

# Bet kinds: "player" = Pn (position n beats the banker), "banker" = Bn (banker-player mode only:
# the banker beats position n), "pair" = "Pn pair" / "B pair" (11:1 on a pair).
BetKind = Literal["player", "banker", "pair"]


def spots_for(mode: Mode) -> dict[str, tuple[BetKind, str]]:
    """Every bet spot of a mode → (bet kind, the hand it is about). RULES.md §1, "Bets"."""
    spots: dict[str, tuple[BetKind, str]] = {p: ("player", p) for p in POSITIONS}
    if mode == "banker-player":
        spots.update({f"B{p[1]}": ("banker", p) for p in POSITIONS})
    spots.update({f"{p} pair": ("pair", p) for p in POSITIONS})
    if mode == "banker-player":
        spots["B pair"] = ("pair", BANKER)
    return spots


SPOTS: Final[dict[Mode, dict[str, tuple[BetKind, str]]]] = {m: spots_for(m) for m in MODES}


@dataclass(frozen=True, slots=True)
class Limits:
    """Table limits for one bet kind: a player's total on one spot must lie in [min, max]."""

    min: int
    max: int

    def __post_init__(self) -> None:
        require_amount(self.min, "limit min", positive=True)
        require_amount(self.max, "limit max", positive=True)
        if self.min > self.max:
            raise InvalidInput(f"limit min {self.min} is above max {self.max}")

    def to_json(self) -> dict[str, int]:
        return {"min": self.min, "max": self.max}

    @classmethod
    def from_json(cls, data: object) -> Limits:
        if not isinstance(data, Mapping) or set(data) != {"min", "max"}:
            raise InvalidInput(f"limits must be an object {{'min': …, 'max': …}}, got {data!r}")
        return cls(data["min"], data["max"])


def _default_limits() -> dict[str, Limits]:
    return {
        "player": Limits(100, 100_000),
        "banker": Limits(100, 100_000),
        "pair": Limits(100, 10_000),
    }


@dataclass(frozen=True)
class PokDengConfig:
    """A Pok Deng table.

    * `mode`: "classic" (经典博丁) or "banker-player" (庄闲博丁).
    * `decks`, `cut_behind`: the shoe; the cut card leaves a uniform 52–104 cards behind it
      (RULES.md §1 Decision, a table setting).
    * `betting_s`: the betting countdown in seconds.
    * `limits`: per bet kind ("player" = P1–P5, "banker" = B1–B5, "pair" = pair spots).
    * `win_rate`, `double_win_rate`: banker-player mode pays 0.95:1, 1.9:1 on a double hand.
    * `pair_odds`: pair bets pay 11:1.
    """

    mode: Mode = "classic"
    decks: int = 8
    cut_behind: tuple[int, int] = (52, 104)
    betting_s: float = 15.0
    limits: Mapping[str, Limits] = field(default_factory=_default_limits)
    win_rate: str = "0.95"
    double_win_rate: str = "1.9"
    pair_odds: int = 11

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise InvalidInput(f"mode {self.mode!r}: expected 'classic' or 'banker-player'")
        if isinstance(self.decks, bool) or not isinstance(self.decks, int) or self.decks < 1:
            raise InvalidInput(f"decks must be a positive integer, got {self.decks!r}")
        if (
            not isinstance(self.cut_behind, tuple)
            or len(self.cut_behind) != 2
            or not all(type(c) is int for c in self.cut_behind)
        ):
            raise InvalidInput(f"cut_behind must be a pair of integers, got {self.cut_behind!r}")
        lo, hi = self.cut_behind
        total = 52 * self.decks
        # The cut card must leave room to finish the round in which it appears.
        if not (CARDS_PER_ROUND <= lo <= hi <= total - CARDS_PER_ROUND):
            raise InvalidInput(
                f"cut_behind {self.cut_behind}: need {CARDS_PER_ROUND} <= min <= max <= "
                f"{total - CARDS_PER_ROUND} for a {total}-card shoe"
            )
        if isinstance(self.betting_s, bool) or not isinstance(self.betting_s, int | float):
            raise InvalidInput("betting_s must be a number of seconds")
        if self.betting_s <= 0:
            raise InvalidInput("betting_s must be positive")
        kinds = {"player", "pair"} | ({"banker"} if self.mode == "banker-player" else set())
        missing = kinds - set(self.limits)
        if missing:
            raise InvalidInput(f"limits missing for bet kinds: {sorted(missing)}")
        unknown = set(self.limits) - {"player", "banker", "pair"}
        if unknown:
            raise InvalidInput(f"unknown bet kinds in limits: {sorted(unknown)}")
        for kind, limits in self.limits.items():
            if not isinstance(limits, Limits):
                raise InvalidInput(f"limits[{kind!r}] must be a Limits(min, max)")
        for rate in (self.win_rate, self.double_win_rate):
            if not 0 < to_rate(rate) <= 10:
                raise InvalidInput(f"pay rate {rate!r} must be in (0, 10]")
        require_amount(self.pair_odds, "pair_odds", positive=True)

    # ----- derived (cached: the round engine reads these on every bet) ----------------------
    @cached_property
    def spots(self) -> dict[str, tuple[BetKind, str]]:
        return SPOTS[self.mode]

    @cached_property
    def rates(self) -> tuple[Fraction, Fraction]:
        return to_rate(self.win_rate), to_rate(self.double_win_rate)

    @cached_property
    def rate_parts(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """The two pay rates as (numerator, denominator): integer math on the hot path."""
        win, double = self.rates
        return (win.numerator, win.denominator), (double.numerator, double.denominator)

    @cached_property
    def spot_holds(self) -> dict[str, int]:
        """spot → what a unit bet takes: 2 (stake + hold) on positions, 1 on pair bets."""
        return {spot: 1 if kind == "pair" else 2 for spot, (kind, _) in self.spots.items()}

    @cached_property
    def spot_limits(self) -> dict[str, Limits]:
        return {spot: self.limits[kind] for spot, (kind, _) in self.spots.items()}

    @cached_property
    def spot_bounds(self) -> dict[str, tuple[int, int, int]]:
        """spot → (hold factor, table minimum, table maximum): one lookup per chip placed."""
        return {
            spot: (self.spot_holds[spot], limits.min, limits.max)
            for spot, limits in self.spot_limits.items()
        }

    @cached_property
    def spots_json(self) -> dict[str, dict[str, Any]]:
        """The bet spots as the client shows them: kind, hand, limits and hold factor."""
        return {
            spot: {
                "kind": kind,
                "hand": about,
                "min": self.limits[kind].min,
                "max": self.limits[kind].max,
                "hold": 1 if kind == "pair" else 2,
            }
            for spot, (kind, about) in self.spots.items()
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "decks": self.decks,
            "cut_behind": list(self.cut_behind),
            "betting_s": self.betting_s,
            "limits": {k: v.to_json() for k, v in self.limits.items()},
            "win_rate": self.win_rate,
            "double_win_rate": self.double_win_rate,
            "pair_odds": self.pair_odds,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PokDengConfig:
        if not isinstance(data, Mapping):
            raise InvalidInput("a Pok Deng config is a JSON object")
        known = {f for f in cls.__dataclass_fields__}
        unknown = set(data) - known
        if unknown:
            raise InvalidInput(f"unknown Pok Deng settings: {sorted(unknown)}")
        kwargs: dict[str, Any] = dict(data)
        if "cut_behind" in kwargs:
            cut = kwargs["cut_behind"]
            if not isinstance(cut, list | tuple) or len(cut) != 2:
                raise InvalidInput("cut_behind is [min, max]")
            kwargs["cut_behind"] = tuple(require_amount(c, "cut_behind") for c in cut)
        if "limits" in kwargs:
            raw = kwargs["limits"]
            if not isinstance(raw, Mapping):
                raise InvalidInput("limits is an object of bet kind → {min, max}")
            defaults = _default_limits()
            defaults.update({str(k): Limits.from_json(v) for k, v in raw.items()})
            kwargs["limits"] = defaults
        for key in ("win_rate", "double_win_rate"):
            if key in kwargs and not isinstance(kwargs[key], str):
                raise InvalidInput(f"{key} is a decimal string like '0.95'")
        return cls(**kwargs)
