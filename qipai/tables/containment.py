"""Containment: what a table does when it must stop (ARCHITECTURE.md, "The table runtime"; docs/scaling.md).

* `fail`: any exception in a table's tick, recovery, action or settlement suspends that table
  alone (a lost lease instead stops it for the host that took it over);
* `suspend`: the open round ends by the interrupted-game policy (`interrupt.py`), its deal unit
  ends and is revealed where the game reveals seeds, no round starts until an operator
  `resume`s; players may stand up;
* `close`: for good — the open round is interrupted, the unit ends, every seat is cashed out;
* `lose` / `hand_over`: another host runs the table now (our lease lapsed, or an operator's
  drain handed it over between rounds): this process writes nothing more for it;
* `moved_if_lease_lost`: a seat's money or layout write refused by the lease fence answers
  `TableMoved` (409 `table_moved`), never the raw `LeaseLost`.

The table calls these under its lock; they change the table and tell its listeners.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

from qipai.core.protocol import JSON
from qipai.tables import interrupt
from qipai.tables.errors import TableClosed, TableMoved, TableSuspended
from qipai.tables.ports import LeaseLost

if TYPE_CHECKING:
    from qipai.tables.table import Table

log = logging.getLogger("qipai.tables")
P = ParamSpec("P")
R = TypeVar("R")
MOVED_MESSAGE = "the table is run by another server now; reconnect"


def moved_if_lease_lost(
    method: Callable[Concatenate[Table, P], R],
) -> Callable[Concatenate[Table, P], R]:
    """A seat's money or layout write refused by the lease fence (another host took the table
    over while the request waited): this table stops here and the caller gets `TableMoved`
    (409 `table_moved`), never the raw `LeaseLost`. A table already lost refuses at once."""

    @functools.wraps(method)
    def wrapped(table: Table, /, *args: P.args, **kwargs: P.kwargs) -> R:
        if table.lost:
            raise TableMoved(MOVED_MESSAGE)
        try:
            return method(table, *args, **kwargs)
        except LeaseLost:
            table.lose()
            raise TableMoved(MOVED_MESSAGE) from None

    return wrapped


def require_open(table: Table) -> None:
    """Refuse while the table is run elsewhere, closed or suspended."""
    if table.lost:
        raise TableMoved(MOVED_MESSAGE)
    if table.closed:
        raise TableClosed("the table is closed")
    if table.suspension is not None:
        raise TableSuspended(f"the table is suspended: {table.suspension}")


def moved_error() -> dict[str, str]:
    return TableMoved(MOVED_MESSAGE).to_json()


def suspended_error(table: Table) -> dict[str, str]:
    return TableSuspended(f"the table is suspended: {table.suspension}").to_json()


def quietly(table: Table, work: Callable[[], object]) -> None:
    """A cleanup step of a stopping table: a failure is logged, never raised."""
    try:
        work()
    except Exception:
        log.exception("table %s: cleanup step failed", table.id)


def lose(table: Table) -> None:
    """Another process took this table over (our lease lapsed): stop at once, write nothing
    more for it (every write would be refused anyway), tell the listeners to reconnect."""
    if table.lost:
        return
    log.warning("table %s: lease lost, another process runs it now", table.id)
    table.lost = True
    table.timers.stop()
    message: JSON = {"type": "error", **moved_error()}
    for player in list(table.seating.connected):
        quietly(table, functools.partial(table.send, player, message))


def hand_over(table: Table) -> bool:
    """Stop here between rounds so that another host takes the table over (an operator's
    drain): the layout is saved and the table does nothing more in this process. False
    (nothing changed) while a round runs, its settlement is pending or a write fails."""
    if table.lost:
        return True
    if table.round is not None or table.record is not None:
        return False
    table.save()
    table.lost = True
    table.timers.stop()
    return True


def fail(table: Table, where: str, exc: BaseException) -> None:
    """Something raised in this table's tick, recovery or settlement: suspend it alone."""
    if isinstance(exc, LeaseLost) or isinstance(exc.__cause__, LeaseLost):
        lose(table)
        return
    log.error("table %s: %s failed, suspending it", table.id, where, exc_info=exc)
    suspend(table, f"{where} failed: {type(exc).__name__}: {exc}"[:300])


def suspend(table: Table, reason: str) -> None:
    """Stop the table: its open round ends by the interrupted-game policy, its deal unit ends
    (the seed is revealed where the game reveals seeds), no round starts until an operator
    resumes it. Players may stand up. Never raises."""
    if table.closed or table.lost:
        return
    table.suspension = reason or "suspended"
    log.warning(
        "table %s suspended: %s",
        table.id,
        table.suspension,
        extra={
            "event": "table.suspend",
            "fields": {"table_id": table.id, "reason": table.suspension},
        },
    )
    table.timers.stop()
    try:
        interrupt_round(table, table.suspension)
    except Exception:  # the ledger itself fails: the round stays open for `resume`
        log.exception("table %s: the interrupted round could not be closed", table.id)
    quietly(table, table.save)
    quietly(table, table.broadcast)


def hold(table: Table, reason: str) -> None:
    """Stop the table and leave its open round as it is (open, its holds in place): what
    recovery does with a round whose records fail their MACs, where ending the round by the
    interrupted-game policy would act on altered records. An operator's `resume` then ends it
    by that policy, or `close`. Never raises."""
    if table.closed or table.lost:
        return
    log.error("table %s suspended, its round kept open: %s", table.id, reason)
    table.suspension = reason or "suspended"
    table.timers.stop()
    quietly(table, table.save)
    quietly(table, table.broadcast)


def resume(table: Table) -> None:
    """An operator's decision: the suspended table plays again (from a new deal unit)."""
    if table.closed:
        raise TableClosed("the table is closed")
    if table.suspension is None:
        return
    if table.record is not None:  # the interruption could not be settled before
        interrupt_round(table, table.suspension)
    table.suspension = None
    table.journal_failures = 0
    table.timers.retry_at = 0.0
    table.timers.next_start_at = table.clock.now()
    table.save()
    table.broadcast()


def close(table: Table, reason: str) -> None:
    """Close for good: the open round ends by the interrupted-game policy, the deal unit ends,
    every seat is stood up and cashed out. Raises if the ledger refuses (nothing is then
    marked closed, and closing again retries)."""
    if table.closed:
        return
    table.timers.stop()
    interrupt_round(table, reason)
    table.end_unit()
    for state in list(table.seating):
        if state.player:
            table.stand_up(state.seat, "the table closed")
    table.closed = True
    table.suspension = None
    table.save()
    table.broadcast()


def interrupt_round(table: Table, reason: str) -> None:
    """End the open round by the interrupted-game policy: every stake returned, and what a
    player had already won paid by the house (`interrupt.payouts`). Then the deal unit ends."""
    record = table.record
    if record is None:
        return
    players = {seat: player for seat, player, _ in record.seats}
    pay = interrupt.payouts(table.round, players)
    table.ledger.void_round(record.round_id, f"interrupted: {reason}"[:300])
    for player, amount in sorted(pay.items()):
        table.ledger.pay_interrupted(record.round_id, table.id, player, amount, reason)
    table.money.moved()
    table.last_round, table.last_record = table.round, record
    table.round, table.record = None, None
    table.tiles = None
    table.journal.pending = []
    table.timers.forget_phase()
    table.end_unit()  # a void ends its deal unit: the next round has a new seed
    table.units.carry_context = {}
    for state in list(table.seating):
        if state.player and state.leaving:
            quietly(table, functools.partial(table.stand_up, state.seat))


__all__ = [
    "MOVED_MESSAGE",
    "close",
    "fail",
    "hand_over",
    "interrupt_round",
    "lose",
    "moved_error",
    "moved_if_lease_lost",
    "quietly",
    "require_open",
    "resume",
    "suspend",
    "suspended_error",
]
