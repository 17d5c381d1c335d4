"""The card room: every table of the process, their timers, and the clients listening to them.

All table work runs on the server's event loop (one thread), so a table's state changes in one
order. One scheduler task keeps every table's next due moment (a countdown, a bot's move, the
next round) in a heap and ticks the due tables, oldest first, in slices of at most `slice_s`
seconds, letting the network in between slices. Under load (more due table work than one core
can do) tables therefore fall behind fairly, while a person's action, a sign-in or a seating
request still waits at most about one slice for its turn: with a task per table, every request
waited for every due table's work first, so seating 1,000 clients took many minutes.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import heapq
import itertools
import logging
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from qipai.core.errors import InvalidInput
from qipai.core.protocol import JSON
from qipai.tables import games as games_mod
from qipai.tables.ports import Clock, LedgerPort, TableRepo
from qipai.tables.table import GameInProgress, NotSeated, Table, Timing

log = logging.getLogger("qipai.room")


@dataclass(eq=False)
class Connection:
    """One WebSocket: its outgoing queue and the tables it listens to."""

    player: str
    queue: asyncio.Queue[JSON] = field(default_factory=lambda: asyncio.Queue(maxsize=2000))
    tables: set[str] = field(default_factory=set)

    def push(self, message: JSON) -> None:
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:  # a client that stopped reading loses old messages, not us
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
            self.queue.put_nowait(message)


class Room:
    def __init__(
        self, ledger: LedgerPort, repo: TableRepo, clock: Clock, timing: Timing | None = None
    ) -> None:
        self.ledger = ledger
        self.repo = repo
        self.clock = clock
        self.timing = timing or Timing()
        self.tables: dict[str, Table] = {}
        self.connections: dict[str, set[Connection]] = {}
        self.recovery: dict[str, str] = {}
        self.slice_s = 0.002
        """Longest run of table work between two looks at the network (seconds). An action
        waits for about three slices (read, handled, sent): bench_server at 100 clients
        measured p50 57 ms with 10 ms slices, 27 ms with 4 ms, 15 ms with 2 ms, and the same
        rounds per second (a slice holds about one table's step)."""
        self._heap: list[tuple[float, int, str]] = []
        self._due: dict[str, float] = {}  # table id -> its live entry in the heap
        self._order = itertools.count()
        self._kick: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    # ----- tables ---------------------------------------------------------------------------
    def _make(self, table_id: str, game: str, name: str, config: Mapping[str, Any] | None) -> Table:
        info = games_mod.get(game)
        table = Table(
            table_id,
            info,
            self.ledger,
            self.clock,
            repo=self.repo,
            name=name,
            config=config,
            timing=self.timing,
            send=functools.partial(self._deliver, table_id),
        )
        self.tables[table_id] = table
        return table

    def create_table(
        self, game: str, name: str = "", config: Mapping[str, Any] | None = None
    ) -> Table:
        table_id = secrets.token_hex(6)
        try:
            table = self._make(table_id, game, name, config)
        except Exception as exc:  # a config the game refuses
            if isinstance(exc, InvalidInput):
                raise
            raise InvalidInput(f"bad table settings: {exc}") from None
        table._save()
        self._start_runner(table)
        return table

    def table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise InvalidInput(f"no table {table_id!r}")
        return table

    def automatch(self, player: str, name: str, game: str, buy_in: int) -> Table:
        """自动配桌: seat the player at the liveliest table of the game with a free seat (moving
        them from a table where they sit alone with bots), or open a new table with bots."""
        games_mod.get(game)
        current = [t for t in self.tables.values() if t.game.name == game and t.seat_of(player)]
        candidates = [
            t
            for t in self.tables.values()
            if t.game.name == game and t.free_seats() and not t.seat_of(player)
        ]
        candidates.sort(key=lambda t: (-len(t.humans()), -len(t.seats) + len(t.free_seats())))
        if current:
            here = current[0]
            better = [t for t in candidates if len(t.humans()) > len(here.humans()) - 1]
            if not better or len(here.humans()) > 1:
                return here
            target = better[0]
            try:
                here.leave(player)
            except GameInProgress:
                return here  # RULES.md §2: not between the two rounds of a Pai Gow game
            except NotSeated:
                pass
        elif candidates and candidates[0].humans():
            target = candidates[0]
        else:
            target = self.create_table(game)
        target.sit(player, name, buy_in)
        if target.free_seats() and len(target.humans()) == 1:
            # alone: fill all but one seat with bots so another person can still join
            for _ in range(max(0, len(target.free_seats()) - 1)):
                target.add_bot()
            if len(target.eligible()) < target.game.min_players:
                target.fill_with_bots()
        self.wake(target.id)
        return target

    # ----- the scheduler --------------------------------------------------------------------
    def _start_runner(self, table: Table) -> None:
        """Tick `table` as soon as the scheduler runs (it is started by `start`)."""
        self._schedule(table.id, self.clock.now())

    def _schedule(self, table_id: str, when: float) -> None:
        """Make sure `table_id` is ticked no later than `when` (an earlier entry stands)."""
        current = self._due.get(table_id)
        if current is not None and current <= when:
            return
        self._due[table_id] = when
        heapq.heappush(self._heap, (when, next(self._order), table_id))
        if self._kick is not None:
            self._kick.set()

    def start(self) -> None:
        """Start the scheduler on the running loop (every known table is ticked at once)."""
        if self._task is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop yet: called again once there is one
        for table in self.tables.values():
            self._start_runner(table)
        self._kick = asyncio.Event()
        self._task = loop.create_task(self._scheduler())

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._kick = None

    def wake(self, table_id: str) -> None:
        """Something happened at the table (a seat, an action): let it look at once."""
        if table_id in self.tables:
            self._schedule(table_id, self.clock.now())

    def run_due(self, budget_s: float | None = None) -> int:
        """Tick the due tables, the longest overdue first, until none is due or `budget_s`
        (CPU-bound work, measured in wall time) is spent; returns how many were ticked."""
        stop_at = None if budget_s is None else time.perf_counter() + budget_s
        now = self.clock.now()
        ticked = 0
        while self._heap and self._heap[0][0] <= now:
            when, _, table_id = heapq.heappop(self._heap)
            if self._due.get(table_id) != when:
                continue  # superseded by an earlier wake
            del self._due[table_id]
            table = self.tables.get(table_id)
            if table is None:
                continue
            try:
                table.tick()
            except Exception:  # a bug must not stop the table's clock forever
                log.exception("table %s tick failed", table_id)
            ticked += 1
            due = table.next_wakeup()
            if due is not None:  # never again in this pass: others first
                self._schedule(table_id, max(due, now + 0.005))
            if stop_at is not None and time.perf_counter() >= stop_at:
                break
        return ticked

    def _next_due(self) -> float | None:
        while self._heap and self._due.get(self._heap[0][2]) != self._heap[0][0]:
            heapq.heappop(self._heap)  # drop superseded entries
        return self._heap[0][0] if self._heap else None

    async def _scheduler(self) -> None:
        kick = self._kick
        assert kick is not None
        while True:
            self.run_due(self.slice_s)
            due = self._next_due()
            if due is not None and due <= self.clock.now():
                await asyncio.sleep(0)  # more is due: let the network in, then go on
                continue
            kick.clear()
            timeout = None if due is None else max(0.0, due - self.clock.now()) + 0.005
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(kick.wait(), timeout)

    # ----- recovery -------------------------------------------------------------------------
    def recover(self) -> dict[str, str]:
        """Rebuild every table from its saved layout, then resume (or void) every open round."""
        for data in self.repo.load_tables():
            try:
                table = self._make(
                    data["table_id"], data["game"], data.get("name", ""), data.get("config")
                )
            except Exception as exc:
                log.warning("table %s cannot be restored: %s", data.get("table_id"), exc)
                continue
            table.restore_snapshot(data)
        outcome: dict[str, str] = {}
        for open_round in self.ledger.open_rounds():
            owner = self.tables.get(open_round.record.table_id)
            if owner is None:
                self.ledger.void_round(open_round.record.round_id, "its table no longer exists")
                outcome[open_round.record.round_id] = "voided"
                continue
            outcome[open_round.record.round_id] = owner.recover(open_round)
        self.recovery = outcome
        return outcome

    # ----- clients --------------------------------------------------------------------------
    def attach(self, conn: Connection) -> None:
        self.connections.setdefault(conn.player, set()).add(conn)

    def detach(self, conn: Connection) -> None:
        conns = self.connections.get(conn.player, set())
        conns.discard(conn)
        for table_id in list(conn.tables):
            self.unsubscribe(conn, table_id)
        if not conns:
            self.connections.pop(conn.player, None)

    def subscribe(self, conn: Connection, table_id: str) -> None:
        table = self.table(table_id)
        conn.tables.add(table_id)
        table.connected.add(conn.player)
        # only this connection needs the catch-up state
        from qipai.tables.messages import state_message

        with table.lock:
            table.catch_up()  # a countdown that ran out is applied before the state is shown
            conn.push({**state_message(table, conn.player, [], False), "table_id": table_id})

    def unsubscribe(self, conn: Connection, table_id: str) -> None:
        conn.tables.discard(table_id)
        table = self.tables.get(table_id)
        if table is None:
            return
        still = any(table_id in c.tables for c in self.connections.get(conn.player, set()))
        if not still:
            table.disconnect(conn.player)

    def _deliver(self, table_id: str, player: str, message: JSON) -> None:
        for conn in self.connections.get(player, ()):
            if table_id in conn.tables or message.get("type") == "left":
                conn.push({**message, "table_id": table_id})
