"""A table's clocks: the running phase's countdown, each bot's thinking time, the next round's
start and the back-off after a failed journal write. Pure: the table tells it what changed and
asks it what is due (times are the table clock's seconds)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from qipai.core.protocol import Round


@dataclass(frozen=True)
class Timing:
    """Pauses in seconds: bots' thinking time and the break between rounds."""

    bot_delay: float = 0.8
    between_rounds: float = 4.0
    countdown_scale: float = 1.0
    # after a restart, recovery or failover, how long a recovered round's countdown waits for
    # the players it awaits to come back before it starts again in full regardless
    return_grace: float = 30.0


class Timers:
    def __init__(self, timing: Timing) -> None:
        self.timing = timing
        self.deadline_at: float | None = None
        self.bot_due: dict[str, float] = {}
        self.next_start_at: float | None = None
        self.retry_at = 0.0  # after a failed journal write, nothing is due before then
        self.extra: float | None = None  # another deadline of the table (away seats, reveals)
        # docs/rules/common.md#countdowns: a countdown a restart or a failover interrupted
        # starts again in full — once the players it waits for are back (or this time passed),
        # not while they are still reconnecting
        self.held_until: float | None = None
        self._phase: str | None = None
        self._awaiting: tuple[str, ...] = ()

    def stop(self) -> None:
        """No countdown, no bot, no next round (a suspended or closed table)."""
        self.deadline_at, self.next_start_at, self.held_until = None, None, None
        self.bot_due.clear()
        self.forget_phase()

    def forget_phase(self) -> None:
        self._phase, self._awaiting = None, ()

    def round_over(self) -> None:
        self.deadline_at, self.held_until = None, None
        self.bot_due.clear()

    def hold(self, now: float) -> None:
        """A recovered round: no countdown until `release` (at the latest `return_grace` on)."""
        self.deadline_at = None
        self.held_until = now + self.timing.return_grace

    def release(self, round_: Round[Any], now: float) -> None:
        """The held countdown starts, in full."""
        self.held_until = None
        limit = round_.deadline_s
        self.deadline_at = None if limit is None else now + limit * self.timing.countdown_scale

    def release_due(self, now: float) -> bool:
        return self.held_until is not None and now >= self.held_until

    def expired(self, now: float) -> bool:
        return self.deadline_at is not None and now >= self.deadline_at

    def due_bots(self, now: float) -> list[str]:
        """The bots whose thinking time is over, earliest first (and forgotten)."""
        due = [s for s, t in sorted(self.bot_due.items(), key=lambda kv: kv[1]) if t <= now]
        for seat in due:
            del self.bot_due[seat]
        return due

    def start_due(self, now: float) -> bool:
        return self.next_start_at is not None and self.next_start_at <= now

    def changed(
        self, round_: Round[Any], bots: Iterable[str], now: float, force: bool = False
    ) -> None:
        """After a change to the running round: restart the countdown when the phase changed
        or someone new must act, and give every bot that must act now its thinking time."""
        awaiting = tuple(round_.awaiting())
        new_waits = not set(awaiting) <= set(self._awaiting)
        moved = force or round_.phase != self._phase or new_waits
        if moved:
            self.held_until = None  # the held phase is over: its successor runs as usual
        if self.held_until is None and (moved or self.deadline_at is None):
            limit = round_.deadline_s
            self.deadline_at = None if limit is None else now + limit * self.timing.countdown_scale
        self._phase, self._awaiting = round_.phase, awaiting
        for seat in list(self.bot_due):
            if seat not in awaiting:
                del self.bot_due[seat]
        bot_seats = set(bots)
        for seat in awaiting:
            if seat in bot_seats and seat not in self.bot_due:
                self.bot_due[seat] = now + self.timing.bot_delay

    def next_wakeup(self) -> float | None:
        times = [
            t
            for t in (self.deadline_at, self.next_start_at, self.extra, self.held_until)
            if t is not None
        ]
        times += self.bot_due.values()
        return max(min(times), self.retry_at) if times else None


__all__ = ["Timers", "Timing"]
