"""Pok Deng table settings with their docs/rules/pokdeng.md#table-settings defaults, validated.

One frozen `PokDengConfig` describes a table: the mode (classic or banker-player), the shoe (8
decks, cut card 52–104 cards from the end — docs/rules/pokdeng.md#cards-and-shoe Decision), the betting countdown, the bet
limits per bet type and the pay rates. Amounts are integer minor units; rates are exact decimal
strings (never floats).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cached_property
from typing import Annotated, Any, Final, Literal

from pydantic import Field, Strict, ValidationInfo, field_validator, model_validator

from qipai.core.model import Amount, Model, RateText, Seconds, rate_between
from qipai.core.money import to_rate

Mode = Literal["classic", "banker-player"]
MODES: Final[tuple[Mode, ...]] = ("classic", "banker-player")
POSITIONS: Final = ("P1", "P2", "P3", "P4", "P5")
BANKER: Final = "B"
CARDS_PER_ROUND: Final = 13  # one burn card + two cards to each of P1–P5 and the banker

# Bet kinds: "player" = Pn (position n beats the banker), "banker" = Bn (banker-player mode only:
# the banker beats position n), "pair" = "Pn pair" / "B pair" (11:1 on a pair).
BetKind = Literal["player", "banker", "pair"]


def spots_for(mode: Mode) -> dict[str, tuple[BetKind, str]]:
    """Every bet spot of a mode → (bet kind, the hand it is about). docs/rules/pokdeng.md#bets, "Bets"."""
    spots: dict[str, tuple[BetKind, str]] = {p: ("player", p) for p in POSITIONS}
    if mode == "banker-player":
        spots.update({f"B{p[1]}": ("banker", p) for p in POSITIONS})
    spots.update({f"{p} pair": ("pair", p) for p in POSITIONS})
    if mode == "banker-player":
        spots["B pair"] = ("pair", BANKER)
    return spots


SPOTS: Final[dict[Mode, dict[str, tuple[BetKind, str]]]] = {m: spots_for(m) for m in MODES}


class Limits(Model):
    """Table limits for one bet kind: a player's total on one spot must lie in [min, max]."""

    min: Amount
    max: Amount

    def __init__(self, min: int = 100, max: int = 100_000, /, **data: Any) -> None:
        super().__init__(min=data.pop("min", min), max=data.pop("max", max), **data)

    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]

    @model_validator(mode="after")
    def _ordered(self) -> Limits:
        if self.min > self.max:
            raise ValueError(f"limit min {self.min} is above max {self.max}")
        return self

    def to_json(self) -> dict[str, int]:
        return {"min": self.min, "max": self.max}


def _default_limits() -> dict[BetKind, Limits]:
    return {
        "player": Limits(100, 100_000),
        "banker": Limits(100, 100_000),
        "pair": Limits(100, 10_000),
    }


# Pay limits ("pay multipliers within sane limits"): a position pays at most 10:1
# (the rules pay 0.95–2), a pair at most 100:1 (the rules pay 11; the fair price of a pair with
# eight decks is about 12.4:1). Within them one seat's round moves at most 16 spots x the
# largest limit x 100, far inside the ledger's range (qipai.core.money).
MAX_RATE = Fraction(10)
MAX_PAIR_ODDS = 100
# Cards behind the cut card (checked against the shoe's size below).
CutDepth = Annotated[int, Strict(), Field(ge=CARDS_PER_ROUND, le=8 * 52 - CARDS_PER_ROUND)]
WinRate = Annotated[RateText, rate_between(Fraction(0), MAX_RATE, low_open=True)]


class PokDengConfig(Model):
    """A Pok Deng table.

    * `mode`: "classic" (经典博丁) or "banker-player" (庄闲博丁).
    * `decks` (1–8), `cut_behind`: the shoe; the cut card leaves a uniform 52–104 cards behind
      it (docs/rules/pokdeng.md#cards-and-shoe Decision, a table setting).
    * `betting_s`: the betting countdown in seconds (3–120).
    * `limits`: per bet kind ("player" = P1–P5, "banker" = B1–B5, "pair" = pair spots); kinds
      left out keep their defaults.
    * `win_rate`, `double_win_rate`: banker-player mode pays 0.95:1, 1.9:1 on a double hand
      (decimal strings in (0, 10]).
    * `pair_odds`: pair bets pay 11:1 (1–100).
    """

    mode: Mode = "classic"
    decks: Annotated[int, Strict(), Field(ge=1, le=8)] = 8
    cut_behind: tuple[CutDepth, CutDepth] = (52, 104)
    betting_s: Seconds = 15.0
    limits: dict[BetKind, Limits] = Field(default_factory=_default_limits)
    win_rate: WinRate = "0.95"
    double_win_rate: WinRate = "1.9"
    pair_odds: Annotated[int, Strict(), Field(ge=1, le=MAX_PAIR_ODDS)] = 11

    @field_validator("limits", mode="before")
    @classmethod
    def _merge_limits(cls, value: object) -> object:
        """Kinds not given keep their defaults (`{"pair": {"min": 5, "max": 50}}`)."""
        if isinstance(value, Mapping):
            return {**_default_limits(), **value}
        return value

    @field_validator("cut_behind")
    @classmethod
    def _shoe(cls, cut: tuple[int, int], info: ValidationInfo) -> tuple[int, int]:
        lo, hi = cut
        total = 52 * info.data.get("decks", 8)
        # The cut card must leave room to finish the round in which it appears.
        if not (CARDS_PER_ROUND <= lo <= hi <= total - CARDS_PER_ROUND):
            raise ValueError(
                f"cut_behind {list(cut)}: need {CARDS_PER_ROUND} <= min <= max <= "
                f"{total - CARDS_PER_ROUND} for a {total}-card shoe"
            )
        return cut

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
        """The bet spots as the client shows them (what `legal_actions` offers): kind, hand,
        limits and hold factor, from `spot_bounds`, the one table a bet is checked against."""
        bounds = self.spot_bounds
        return {
            spot: {
                "kind": kind,
                "hand": about,
                "min": bounds[spot][1],
                "max": bounds[spot][2],
                "hold": bounds[spot][0],
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
