"""Who sits where at a table, who is listening, and who is away.

Pure bookkeeping (no ledger, no clock of its own): the table asks it and tells it what
happened. docs/rules/common.md "Decision (away)" (docs/rules/common.md#away-seats): a seat that was silent
for a whole round while disconnected, or silent for two rounds in a row while connected, is
marked away: it is dealt no further rounds, and it is stood up (its stack returned) after the
table's grace time (`TableTerms.away_grace_s`) unless its player comes back; a seat that comes
back plays again from the next round.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from qipai.core.errors import InvalidInput
from qipai.core.protocol import JSON
from qipai.tables.errors import BotsNotAllowed, BuyInRange, SeatTaken

if TYPE_CHECKING:
    from qipai.tables.games import Game
    from qipai.tables.terms import TableTerms

# Rounds of silence before a seat is away (docs/rules/common.md "Decision (away)").
SILENT_ROUNDS_CONNECTED = 2
SILENT_ROUNDS_DISCONNECTED = 1


@dataclass
class SeatState:
    seat: str
    player: str | None = None
    name: str = ""
    bot: str | None = None
    leaving: bool = False
    silent_rounds: int = 0  # rounds in a row the seat was dealt and never acted
    away_since: float | None = None  # when it was marked away (None: not away)

    @property
    def away(self) -> bool:
        return self.away_since is not None

    def to_json(self) -> JSON:
        return {
            "seat": self.seat,
            "player": self.player,
            "name": self.name,
            "bot": self.bot,
            "leaving": self.leaving,
            "silent_rounds": self.silent_rounds,
            "away_since": self.away_since,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatState:
        away = data.get("away_since")
        return cls(
            str(data["seat"]),
            data.get("player"),
            str(data.get("name", "")),
            data.get("bot"),
            bool(data.get("leaving")),
            int(data.get("silent_rounds", 0)),
            None if away is None else float(away),
        )


class Seating:
    """The seats of one table (one seat per player) and the players connected to it."""

    def __init__(self, seat_ids: tuple[str, ...]) -> None:
        self.seats: dict[str, SeatState] = {s: SeatState(s) for s in seat_ids}
        self.connected: set[str] = set()

    def __iter__(self) -> Iterator[SeatState]:
        return iter(self.seats.values())

    def seat_of(self, player: str) -> str | None:
        for s in self.seats.values():
            if s.player == player:
                return s.seat
        return None

    def humans(self) -> list[str]:
        return [s.player for s in self.seats.values() if s.player and not s.bot]

    def free_seats(self) -> list[str]:
        return [s.seat for s in self.seats.values() if s.player is None]

    def occupied(self) -> list[SeatState]:
        return [s for s in self.seats.values() if s.player is not None]

    def place(self, state: SeatState) -> None:
        self.seats[state.seat] = state

    def free(self, seat: str) -> None:
        self.seats[seat] = SeatState(seat)

    # ----- away (docs/rules/common.md "Decision (away)") -------------------------------------------------
    def round_played(self, dealt: Mapping[str, bool], now: float) -> list[SeatState]:
        """After a round: `dealt` maps each human seat dealt in to whether it acted. Returns the
        seats newly marked away."""
        newly: list[SeatState] = []
        for seat, acted in dealt.items():
            state = self.seats.get(seat)
            if state is None or state.player is None or state.bot:
                continue
            if acted:
                state.silent_rounds = 0
                continue
            state.silent_rounds += 1
            limit = (
                SILENT_ROUNDS_CONNECTED
                if state.player in self.connected
                else SILENT_ROUNDS_DISCONNECTED
            )
            if state.away_since is None and state.silent_rounds >= limit:
                state.away_since = now
                newly.append(state)
        return newly

    def back(self, player: str) -> SeatState | None:
        """The player acted or sat down again: its seat plays from the next round."""
        seat = self.seat_of(player)
        if seat is None:
            return None
        state = self.seats[seat]
        state.silent_rounds = 0
        if state.away_since is None:
            return None
        state.away_since = None
        return state

    def away_expired(self, now: float, grace_s: float) -> list[SeatState]:
        return [
            s
            for s in self.seats.values()
            if s.player and s.away_since is not None and now >= s.away_since + grace_s
        ]

    def next_away_deadline(self, grace_s: float) -> float | None:
        times = [s.away_since + grace_s for s in self.seats.values() if s.away_since is not None]
        return min(times) if times else None

    # ----- layout -------------------------------------------------------------------------
    def to_json(self) -> list[JSON]:
        return [s.to_json() for s in self.seats.values()]

    def restore(self, data: list[Mapping[str, Any]]) -> None:
        for s in data:
            if s.get("seat") in self.seats:
                self.seats[str(s["seat"])] = SeatState.from_json(s)


# ----- the table's seating rules (pure: the table asks, then acts) ---------------------------
def free_seat(seating: Seating, seat: str | None) -> str:
    """The seat a newcomer takes: the one asked for, or the first free one."""
    free = seating.free_seats()
    if not free:
        raise SeatTaken("the table is full")
    if seat is None:
        return free[0]
    if seat not in seating.seats:
        raise InvalidInput(f"no seat {seat!r} at this table")
    if seating.seats[seat].player is not None:
        raise SeatTaken(f"seat {seat} is taken")
    return seat


def check_buy_in(terms: TableTerms, on_table: int, buy_in: int) -> None:
    """docs/rules/common.md#buy-in "Decision (buy-in)": the stack a player sits with is within
    the table's range (what is already on the table, `on_table`, counts)."""
    if not isinstance(buy_in, int) or isinstance(buy_in, bool) or buy_in < 0:
        raise InvalidInput("the buy-in is a whole number of minor units, at least 0")
    low, high = terms.min_buy_in, terms.max_buy_in
    total = on_table + buy_in
    if total < low or (buy_in > 0 and total > high):
        raise BuyInRange(f"the buy-in at this table is {low} to {high}; you would sit with {total}")


def bot_level(game: Game, terms: TableTerms, level: str | None) -> str:
    """The level of a bot to seat: the one asked for, or the game's default where the table's
    bot policy allows it (else the policy's last)."""
    if not terms.bot_policy:
        raise BotsNotAllowed("this table allows no bots")
    if level is None:
        level = game.default_bot()
        if level not in terms.bot_policy:
            level = terms.bot_policy[-1]
    if level not in game.bot_levels:
        raise InvalidInput(f"unknown bot level {level!r}")
    if level not in terms.bot_policy:
        raise BotsNotAllowed(
            f"bots of level {level!r} are not allowed here; allowed: {', '.join(terms.bot_policy)}"
        )
    return level


def bot_stack(game: Game, terms: TableTerms) -> tuple[int, int]:
    """A bot's stack (house money) and the level below which it is topped up again."""
    low, high = terms.min_buy_in, terms.max_buy_in
    want = min(max(game.default_buy_in, 2 * low), high)
    return want, max(want // 2, low)


__all__ = [
    "SILENT_ROUNDS_CONNECTED",
    "SILENT_ROUNDS_DISCONNECTED",
    "SeatState",
    "Seating",
    "bot_level",
    "bot_stack",
    "check_buy_in",
    "free_seat",
]
