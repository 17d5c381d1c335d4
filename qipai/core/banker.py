"""The banker bid of bid-for-banker games (抢庄: Pai Gow and Niu Niu), one mechanism for both:
`MultipleChoice` (the bid phase and the bet phase) and `choose_banker` (who banks).

docs/rules/paigow.md and docs/rules/niuniu.md, "Banker": each seat bids a multiple or none (0);
the highest bid banks at that multiple; a tie between the highest bids is drawn weighted by the
tied seats' stacks (持有點數越多,當莊機率越大); when nobody bids a uniformly random seat banks at
the game's smallest multiple (無人搶莊時,系統隨機指定一名玩家為莊家). The draw uses the round's
own banker stream, so a replay draws the same banker.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from pydantic import Field

from qipai.core.errors import IllegalAction, InvalidInput
from qipai.core.model import Chosen, Model
from qipai.core.protocol import ActionSpec, Event
from qipai.core.rng import Rng

How = Literal["highest", "tie", "nobody"]


# ----- the two actions of `MultipleChoice` (both games' `actions.py` use these) ---------------
class Bid(Model):
    type: Literal["bid"] = "bid"
    multiple: Chosen


class Bet(Model):
    type: Literal["bet"] = "bet"
    multiple: Chosen


@dataclass(frozen=True)
class BankerChoice:
    """Who banks, at which multiple, and how it was decided (`tied`: the seats drawn from)."""

    seat: str
    multiple: int
    how: How
    tied: tuple[str, ...]


def choose_banker(
    bids: Mapping[str, int], stacks: Mapping[str, int], rng: Rng, no_bid_multiple: int
) -> BankerChoice:
    """The banker from every seat's bid (seat order = the mapping's order; 0 = no bid)."""
    if not bids:
        raise InvalidInput("a banker is chosen among at least one seat")
    seats = list(bids)
    top = max(bids.values())
    if top <= 0:
        return BankerChoice(rng.choice(seats), no_bid_multiple, "nobody", ())
    tied = tuple(seat for seat in seats if bids[seat] == top)
    if len(tied) == 1:
        return BankerChoice(tied[0], top, "highest", tied)
    seat = rng.weighted_choice(tied, [stacks[s] for s in tied])
    return BankerChoice(seat, top, "tie", tied)


class MultipleChoice:
    """One simultaneous choice of a multiple by some seats — the banker bid (0 = no bid) or the
    players' bet against the banker — as both bid-for-banker games play it: the seats not yet
    chosen are awaited, a choice must be one of the seat's offered multiples and is final, and
    when the countdown ends every silent seat gets the default (docs/rules/paigow.md#round-flow,
    docs/rules/niuniu.md: silence = no bid; silence = the smallest bet).

    `kind` is the action's and the event's type ("bid" or "bet"); `chosen[seat]` is None until
    the seat has chosen."""

    def __init__(self, kind: str, seats: Sequence[str]) -> None:
        self.kind = kind
        self.chosen: dict[str, int | None] = dict.fromkeys(seats)

    def awaiting(self) -> list[str]:
        return [seat for seat, value in self.chosen.items() if value is None]

    def made(self) -> dict[str, int]:
        """The choices made so far, in seat order."""
        return {seat: value for seat, value in self.chosen.items() if value is not None}

    def legal(self, choices: Sequence[int]) -> ActionSpec:
        return ActionSpec(self.kind, {"choices": list(choices)})

    def check(self, value: int, choices: Sequence[int]) -> int:
        """`value` if it is one of `choices`, else IllegalAction naming them."""
        if value not in choices:
            raise IllegalAction(
                f"{self.kind} multiple {value} is not allowed; choose one of {list(choices)}"
            )
        return value

    def record(self, seat: str, value: int) -> Event:
        self.chosen[seat] = value
        return Event(self.kind, {"seat": seat, "multiple": value})

    def default(self, value: int) -> list[Event]:
        """The countdown ended: every silent seat chooses `value`."""
        events = []
        for seat in self.awaiting():
            self.chosen[seat] = value
            events.append(Event(self.kind, {"seat": seat, "multiple": value, "default": True}))
        return events


# ----- settle documents of banker games (`qipai settle`) -------------------------------------
class _BettingSeat(Protocol):
    @property
    def multiple(self) -> int | None: ...


def seats_field(least: int, most: int) -> Any:
    """The `seats` field of a banker game's settle document: `least`–`most` seats by name, as
    the JSON Schema states it (the model's validator, `check_seats`, says so in words)."""
    return Field(
        min_length=1,
        max_length=16,
        json_schema_extra={"minProperties": least, "maxProperties": most},
        description=f"exactly {least} seats by name"
        if least == most
        else f"{least}–{most} seats by name",
    )


def banker_field() -> Any:
    return Field(description="the banker's seat: one of the keys of seats")


def check_seats(
    seats: Mapping[str, _BettingSeat], banker: str, banker_multiple: int, *, banker_bets: bool
) -> None:
    """A settle document's cross-field rules: every seat but the banker's gives its bet
    `multiple`; the banker's seat gives none (`banker_bets` False) or, if it gives one,
    `banker_multiple` (True)."""
    for seat, entry in seats.items():
        if seat != banker and entry.multiple is None:
            raise InvalidInput(
                f"missing field 'seats.{seat}.multiple'", field=f"seats.{seat}.multiple"
            )
        if seat != banker or entry.multiple is None:
            continue
        if not banker_bets:
            raise InvalidInput(
                f"the banker {seat!r} does not bet; give its bid as banker_multiple",
                field=f"seats.{seat}.multiple",
            )
        if entry.multiple != banker_multiple:
            raise InvalidInput(
                "the banker's seat multiple differs from banker_multiple",
                field=f"seats.{seat}.multiple",
            )


def check_bet(seat: str, multiple: int, choices: Sequence[int]) -> int:
    """A settle document's bet multiple of `seat`, one of the table's `choices`."""
    if multiple not in choices:
        raise InvalidInput(
            f"seat {seat!r} multiple {multiple} is not allowed; choose one of {list(choices)}",
            field=f"seats.{seat}.multiple",
        )
    return multiple


def stakes_against_banker(config: Mapping[str, Any], details: Mapping[str, Any]) -> list[Any]:
    """The operator's reports' bets of a settled bid-for-banker round (Niu Niu, Pai Gow): each
    player against the banker, staked base × X × Y (the banker's and the player's multiples,
    docs/rules/niuniu.md#settlement, docs/rules/paigow.md#settlement), net after commission."""
    from qipai.core.spec import StakedBet

    base = int(config.get("base", 100))
    x = int(details.get("banker_multiple") or 1)
    banker = details.get("banker")
    seats = details.get("seats") or {}
    out = []
    for seat, y in (details.get("bets") or {}).items():
        if seat == banker or not y:
            continue
        out.append(StakedBet("player", str(seat), base * x * int(y), int(seats[seat]["net"])))
    return out
