"""Moves at a table: a player's action, the bots' moves and the countdown's default on silence.

Each is journal first (`actions.py`, `journal.py`): made canonical, checked by the round,
journaled, and only then applied; the timers and the listeners are told after it, and a round
that finished is settled (`rounds.finish`). The table calls these under its lock, after an
overdue countdown was expired (`expire_if_due`), so a late action racing the timer is either
applied (it came first) or judged against the state after the default — never both.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from qipai.core.errors import GameError, WrongPhase
from qipai.core.protocol import JSON, Event
from qipai.tables import actions as journal_first
from qipai.tables import bots as table_bots
from qipai.tables import containment, rounds, versions
from qipai.tables.actions import JournalUnavailable
from qipai.tables.errors import NotSeated, StaleAction
from qipai.tables.ports import LeaseLost

if TYPE_CHECKING:
    from qipai.tables.table import Table


def act(
    table: Table,
    player: str,
    action: Mapping[str, Any],
    client_id: str | None,
    version: str | None = None,
) -> JSON:
    """A player's action. Returns the reply for that client: an ack or a typed error; any
    refusal (including a failed journal write) changes nothing.

    `version` is the state version the action was built from (`versions.py`): a repeat of an
    action already taken is a duplicate whatever the state now, and any other action whose
    version is not the current one is refused as stale. Only in-process callers (bots' tools,
    tests) leave it out; the socket requires it."""
    try:
        containment.require_open(table)
        if client_id is not None:
            journal_first.storable_text(client_id, "client_id")
        expire_if_due(table)
        if client_id is not None and table.journal.seen(client_id, player):
            return {"type": "ack", "client_id": client_id, "duplicate": True}
        seat = table.seating.seat_of(player)
        if seat is None:
            raise NotSeated("you are not seated at this table")
        if version is not None:
            require_current(table, seat, version)
        round_ = table.round
        if round_ is None or table.record is None:
            raise WrongPhase("no round is running; the next one starts soon")
        if seat not in round_.seat_ids():
            raise WrongPhase("you are not in this round; you play from the next one")
        taken = journal_first.canonical(table.game, action)
        journal_first.check(round_, seat, taken)
        journal(table, seat, taken, client_id)
    except GameError as exc:
        return {"type": "error", "client_id": client_id, **exc.to_json()}
    except LeaseLost:
        containment.lose(table)
        return {"type": "error", "client_id": client_id, **containment.moved_error()}
    except Exception as exc:  # the expiry before the action failed in its settlement
        containment.fail(table, "action", exc)
        return {"type": "error", "client_id": client_id, **containment.suspended_error(table)}
    if client_id is not None:
        table.journal.remember(client_id, player)
    if table.seating.back(player) is not None:
        table.save()
    try:
        events = round_.act(seat, taken)
        table.journal.heard(events)
        after_change(table, events)
    except JournalUnavailable:  # the settlement could not be written: the tick retries
        table.retry_later()
    except Exception as exc:  # journaled but not applied, or its settlement failed
        containment.fail(table, "action", exc)
    return {"type": "ack", "client_id": client_id, "duplicate": False}


def require_current(table: Table, seat: str | None, version: str) -> None:
    """StaleAction unless `version` is the seat's current state version (`versions.py`)."""
    now = versions.current(table, seat)
    if version == now:
        return
    current_round = versions.round_of(now)
    running = table.round is not None and table.record is not None
    phase = table.round.phase if table.round is not None else None
    if versions.round_of(version) != current_round:
        where = (
            f"round {table.record.number} is running now"
            if running and table.record is not None
            else "no round is running now"
        )
        message = f"not taken: the round had moved on ({where})"
    else:
        message = f"not taken: the table moved on since this action was made (now: {phase})"
    raise StaleAction(message, current_round if running else None, phase, now)


def expire_if_due(table: Table) -> bool:
    """The running phase's countdown ran out: its default is journaled, then applied."""
    round_ = table.round
    if round_ is None or not table.timers.expired(table.clock.now()):
        return False
    journal(table, None, {"type": "expire"}, None)  # the default is journaled first
    events = round_.expire()
    table.journal.heard(events)
    after_change(table, events, force_timer=True)
    return True


def bots_act(table: Table, seats: list[str]) -> None:
    """The bots whose thinking time is over move, in order, each journaled before it is
    applied; all of them are heard in one state message."""
    events: list[Event] = []
    moved = False
    for seat in seats:
        if table.round is None or table.round.finished:
            break
        produced = bot_move(table, seat)
        if produced is None:
            continue
        moved = True
        events += produced
        if not table.round.finished:
            update_timers(table)  # as if each move were heard at once (countdowns, bots)
    if moved:
        after_change(table, events)


def bot_move(table: Table, seat: str) -> list[Event] | None:
    """One bot's move, journaled then applied, or None if it has none to make."""
    round_ = table.round
    if round_ is None or seat not in round_.awaiting():
        return None
    state = table.seating.seats.get(seat)
    if state is None or state.bot is None:
        return None
    bot = table.bots.get(seat)
    if bot is None:
        bot = table.bots[seat] = table.game.make_bot(state.bot)
    action = table_bots.next_move(table.game, bot, round_, seat, table.bot_rng)
    if action is None:
        return None
    journal(table, seat, action, None)
    produced = round_.act(seat, action)
    table.journal.heard(produced)
    return produced


def journal(table: Table, seat: str | None, action: JSON, client_id: str | None) -> None:
    """Journal one action durably BEFORE it is applied (`journal.py`)."""
    assert table.record is not None
    table.journal.append(table.record.round_id, seat, action, client_id)


def after_change(table: Table, events: list[Event], force_timer: bool = False) -> None:
    """The running round changed: settle it if it finished, else restart what is due and tell
    every listener."""
    round_ = table.round
    assert round_ is not None
    if round_.finished:
        table.timers.round_over()
        rounds.finish(table, events)
        return
    update_timers(table, force_timer)
    table.broadcast(events)


def absent_awaited(table: Table) -> list[str]:
    """The players the running round waits for who have no client listening."""
    round_ = table.round
    if round_ is None or round_.finished:
        return []
    out = []
    for seat in round_.awaiting():
        state = table.seating.seats.get(seat)
        if state is None or state.bot or state.player is None:
            continue
        if state.player not in table.seating.connected:
            out.append(state.player)
    return out


def hold_for_return(table: Table) -> None:
    """A round recovered after a restart or a failover: its countdown starts again in full
    (docs/rules/common.md#countdowns) once the players it waits for are back — their
    clients are still reconnecting — or after `Timing.return_grace` at the latest."""
    if absent_awaited(table):
        table.timers.hold(table.clock.now())


def release_if_due(table: Table, everyone_back: bool = False) -> bool:
    """Start a held countdown, in full, when its grace is over or every awaited player is
    back; tell everyone. False: nothing was held, or it still waits."""
    round_ = table.round
    if round_ is None or table.timers.held_until is None:
        return False
    now = table.clock.now()
    if not table.timers.release_due(now) and not (everyone_back and not absent_awaited(table)):
        return False
    table.timers.release(round_, now)
    table.broadcast()
    return True


def update_timers(table: Table, force_timer: bool = False) -> None:
    assert table.round is not None
    bots = [s.seat for s in table.seating if s.bot]
    table.timers.changed(table.round, bots, table.clock.now(), force_timer)


__all__ = [
    "act",
    "after_change",
    "bot_move",
    "bots_act",
    "expire_if_due",
    "hold_for_return",
    "journal",
    "release_if_due",
    "require_current",
]
