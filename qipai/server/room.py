"""The card room: every table of the process, their timers, and the clients listening to them.

Table work never runs on the event loop. Each table is an actor: its work (a tick, a player's
sit/leave/act, a lobby read) is a job in the table's own mailbox, and a small pool of worker
threads runs the mailboxes, one job of a table at a time, in order. A scheduler thread keeps
every table's next due moment (a countdown, a bot's move, the next round) in a heap and posts a
tick to the table's mailbox when it is due. The server's handlers `await room.call(table_id,
fn)`: `fn(table)` runs in the table's mailbox and its result (or exception) comes back to the
coroutine. So a slow table (a huge shuffle, a slow database write) delays its own work and one
worker thread, never the event loop or another table's clients; and a table that fails is
suspended alone (`Table.suspend`), never the room.

Messages to clients are handed from the worker threads to the event loop in batches
(`call_soon_threadsafe`), in the order the tables produced them.

Without `start()` (tests on a virtual clock) nothing runs by itself: `run_due()` ticks the due
tables inline and `call()` runs `fn` inline.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import heapq
import itertools
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from qipai.core.errors import InvalidInput
from qipai.core.protocol import JSON
from qipai.core.rng import new_seed
from qipai.server import adoption
from qipai.server import automatch as automatch_mod
from qipai.server.adoption import Prepared
from qipai.server.automatch import Gate
from qipai.tables import games as games_mod
from qipai.tables import interrupt, recovery
from qipai.tables.errors import HostDraining
from qipai.tables.journal import Journal
from qipai.tables.ports import Clock, LedgerPort, TableRepo
from qipai.tables.table import MOVED_MESSAGE, Table, TableMoved, Timing
from qipai.tables.terms import TableTerms, default_terms
from qipai.tables.units import DealUnits

log = logging.getLogger("qipai.room")
T = TypeVar("T")
MOVED_KEPT = 10_000
"""Lost tables remembered to answer `table_moved` (a bound: ids are 12 bytes each)."""


@dataclass(eq=False)
class Connection:
    """One WebSocket: its outgoing queue and the tables it listens to (used on the event loop
    only; the room hands it messages from the table threads through the loop)."""

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


class TableHost(Protocol):
    """The cluster a room belongs to (`qipai.cluster`); None: one process alone.

    With a host, the host keeps this room's leases (renews them, drops the tables it lost with
    `Room.drop`, takes lapsed ones over with `Room.adopt`) and carries messages to players whose
    WebSocket is on another process."""

    def deliver(self, table_id: str, player: str, message: JSON) -> None:
        """A table's message for `player`, also handed to the player's other processes."""
        ...


class _Mailbox:
    """One table's pending jobs; `running` while a worker drains it."""

    __slots__ = ("jobs", "running", "tick_queued")

    def __init__(self) -> None:
        self.jobs: collections.deque[Callable[[], None]] = collections.deque()
        self.running = False
        self.tick_queued = False


class _Workers:
    """A fixed set of daemon threads running submitted callables (daemon: a table stuck in a
    job can never keep the process from exiting on SIGTERM)."""

    def __init__(self, count: int) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._threads = [
            threading.Thread(target=self._run, name=f"table-worker-{i}", daemon=True)
            for i in range(count)
        ]
        self._busy = 0
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._pending = 0
        for thread in self._threads:
            thread.start()

    def submit(self, job: Callable[[], None]) -> None:
        with self._lock:
            self._pending += 1
        self._jobs.put(job)

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            try:
                job()
            except BaseException:  # a job's own errors are handled inside it; never lose a thread
                log.exception("table job failed")
            finally:
                with self._lock:
                    self._pending -= 1
                    if self._pending == 0:
                        self._idle.notify_all()

    def drain(self, timeout: float) -> bool:
        """Wait until no job is pending or running (at most `timeout` s); True if idle."""
        end = time.monotonic() + timeout
        with self._lock:
            while self._pending:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._idle.wait(left)
        return True

    def stop(self) -> None:
        for _ in self._threads:
            self._jobs.put(None)


class Room:
    def __init__(
        self,
        ledger: LedgerPort,
        repo: TableRepo,
        clock: Clock,
        timing: Timing | None = None,
        *,
        workers: int = 4,
        lease_ttl_s: float = 15.0,
        seed_source: Callable[[], bytes] = new_seed,
    ) -> None:
        self.ledger = ledger
        self.seed_source = seed_source  # every table's deal and bot seeds (tests fix it)
        self.repo = repo
        self.clock = clock
        self.timing = timing or Timing()
        self.tables: dict[str, Table] = {}
        self.connections: dict[str, set[Connection]] = {}
        self.recovery: dict[str, str] = {}
        self.unrestorable: dict[str, str] = {}
        """Saved layouts that could not be rebuilt at start-up: table id -> why."""
        self.elsewhere: set[str] = set()
        """Tables another live process owns (their leases): claimed here once they lapse."""
        self.moved: collections.OrderedDict[str, None] = collections.OrderedDict()
        """Tables this room ran until their lease was lost (newest last, at most `MOVED_KEPT`):
        a request that raced the loss is told `table_moved` (409), not `no table`."""
        self.lease_ttl_s = lease_ttl_s
        self._next_lease_check = 0.0
        self.host: TableHost | None = None
        """The cluster this room is a table host of (it keeps the leases then)."""
        self.accepting = True
        """False once an operator drains this host: no new table opens here, nobody is placed."""
        self.opening: set[str] = set()
        """Tables being opened here (`opening.py`): claimed, not in `tables` yet. Their leases
        are renewed like the others' and never taken over as lapsed."""
        self.handing_over: set[str] = set()
        """Tables to give up at their next round boundary (a drain): see `hand_over`."""
        self.on_handed_over: Callable[[str], None] = lambda _table_id: None
        """Called (on the table's worker thread) once a table was handed over."""
        self.worker_count = workers
        self._heap: list[tuple[float, int, str]] = []
        self._due: dict[str, float] = {}  # table id -> its live entry in the heap
        self._order = itertools.count()
        self._cond = threading.Condition(threading.Lock())
        self._mail: dict[str, _Mailbox] = {}
        self._mail_lock = threading.Lock()
        self._workers: _Workers | None = None
        self._scheduler: threading.Thread | None = None
        self._stopping = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None
        self._outbox: list[tuple[Connection, JSON]] = []
        self._outbox_lock = threading.Lock()
        self._flush_pending = False

    # ----- tables ---------------------------------------------------------------------------
    def _make(self, table_id: str, terms: TableTerms, name: str, owner: str | None = None) -> Table:
        table = self.build(table_id, terms, name, owner)
        self.register(table)
        return table

    def build(self, table_id: str, terms: TableTerms, name: str, owner: str | None = None) -> Table:
        """A table of this room, not in it yet (`register` puts it in)."""
        info = games_mod.get(terms.game)
        return Table(
            table_id,
            info,
            self.ledger,
            self.clock,
            repo=self.repo,
            name=name,
            terms=terms,
            owner=owner,
            timing=self.timing,
            send=functools.partial(self._deliver, table_id),
            seed_source=self.seed_source,
        )

    def register(self, table: Table) -> None:
        self.tables[table.id] = table
        self.moved.pop(table.id, None)

    def create_table(
        self,
        terms: TableTerms | str,
        name: str = "",
        config: Mapping[str, Any] | None = None,
        *,
        owner: str | None = None,
    ) -> Table:
        """Open a table on `terms` (built by the operator's template store). A game name instead
        builds the game's default terms (with `config` over the defaults, for operators' tools
        and tests until every table comes from a template)."""
        if isinstance(terms, str):
            terms = default_terms(games_mod.get(terms), config)
        elif config is not None:
            raise InvalidInput("a table's settings come from its terms only")
        if not self.accepting:
            raise HostDraining("this table host is being drained; open the table elsewhere")
        table_id = secrets.token_hex(6)
        if not self._claim(table_id):
            raise InvalidInput("the new table could not be claimed; try again")
        table = self._make(table_id, terms, name, owner)
        table.save()
        self._start_runner(table)
        return table

    def table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            if table_id in self.moved:
                raise TableMoved(MOVED_MESSAGE)
            raise InvalidInput(f"no table {table_id!r}")
        return table

    # ----- operators --------------------------------------------------------------------------
    def suspend(self, table_id: str, reason: str) -> None:
        """Stop a table (its open round ends by the interrupted-game policy)."""
        self.table(table_id).suspend(reason or "suspended by an operator")
        self.wake(table_id)

    def resume(self, table_id: str) -> None:
        self.table(table_id).resume()
        self.wake(table_id)

    def close(self, table_id: str) -> None:
        """Close a table for good: every seat stood up and cashed out, then the table is
        forgotten (`forget_closed`): it no longer counts toward the room's `max_tables`."""
        table = self.table(table_id)
        table.close()  # raises if the ledger refused: the table stays (closing again retries)
        self.forget_closed(table)

    def forget_closed(self, table: Table) -> None:
        """Remove a closed table from the room. Its last messages are out already: `close`
        broadcast the final state, the stand-ups and the deal unit's reveal to the sockets'
        queues before it returned (and journaled them). A job still queued in its mailbox finds
        no table and does nothing; the sockets that watched it stop listening to it."""
        if not table.closed:
            return
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        with self._cond:
            self._due.pop(table.id, None)
        with self._mail_lock:
            box = self._mail.get(table.id)
            if box is not None and not box.running and not box.jobs:
                del self._mail[table.id]
        self.handing_over.discard(table.id)
        self._release(table.id)
        self._on_loop(functools.partial(self._unwatch_everywhere, table.id))

    def _unwatch_everywhere(self, table_id: str) -> None:
        for conns in self.connections.values():
            for conn in conns:
                conn.tables.discard(table_id)

    def _on_loop(self, fn: Callable[[], None]) -> None:
        """Run `fn` on the event loop's thread (connections are the loop's), or now without
        a loop (tests) or on it."""
        loop = self._loop
        if loop is None or threading.get_ident() == self._loop_thread:
            fn()
            return
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody listens any more
            loop.call_soon_threadsafe(fn)

    def automatch(
        self,
        player: str,
        name: str,
        game: TableTerms | str,
        buy_in: int,
        client_seed: str | None = None,
        opening: Gate | None = None,
    ) -> Table:
        """自动配桌: seat the player at the liveliest table of the game (or of the same template
        when `game` is a template's terms) with a free seat, moving them from a table where they
        sit alone with bots, or open a new table with bots. `client_seed`: the player's client
        seed there (docs/fairness.md#keys), taken with the seat: it keys the next deal unit whose
        commitment was drawn before it came (at a table opened for the player, the unit after
        the first: `automatch._open`).
        Many people at once: `qipai/server/automatch.py` (`opening` guards opening a table)."""
        return automatch_mod.automatch(self, player, name, game, buy_in, client_seed, opening)

    # ----- running table work -----------------------------------------------------------------
    async def call(self, table_id: str, fn: Callable[[Table], T]) -> T:
        """Run `fn(table)` where that table's work runs (its mailbox on a worker thread) and
        return its result, or raise its exception. InvalidInput for an unknown table."""
        table = self.table(table_id)
        workers = self._workers
        if workers is None:  # not started: inline
            try:
                return fn(table)
            finally:
                self.wake(table_id)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()

        def job() -> None:
            try:
                result = fn(table)
            except BaseException as exc:
                loop.call_soon_threadsafe(_fail_future, future, exc)
            else:
                loop.call_soon_threadsafe(_resolve_future, future, result)
            finally:
                # the table looks at what changed here, in its own mailbox on this thread: a
                # wake through the scheduler cost two more thread hand-offs per action
                # (scheduler, then a worker again) for the same tick
                current = self.tables.get(table_id)
                if current is not None:  # (closed and forgotten meanwhile: nothing to tick)
                    self._tick(current)

        self._submit(table_id, job)
        return await future

    def _submit(self, table_id: str, job: Callable[[], None]) -> None:
        workers = self._workers
        if workers is None:
            job()
            return
        with self._mail_lock:
            box = self._mail.get(table_id)
            if box is None:
                box = self._mail[table_id] = _Mailbox()
            box.jobs.append(job)
            if box.running:
                return
            box.running = True
        workers.submit(functools.partial(self._drain, table_id, box))

    def _drain(self, table_id: str, box: _Mailbox) -> None:
        """Run a table's jobs in order (a few at a time, then let other tables' turn come)."""
        for _ in range(32):
            with self._mail_lock:
                if not box.jobs:
                    box.running = False
                    return
                job = box.jobs.popleft()
            try:
                job()
            except Exception:
                log.exception("table %s: job failed", table_id)
        workers = self._workers
        if workers is None:
            with self._mail_lock:
                box.running = False
            return
        workers.submit(functools.partial(self._drain, table_id, box))

    def _tick_job(self, table_id: str) -> None:
        with self._mail_lock:
            box = self._mail.get(table_id)
            if box is not None:
                box.tick_queued = False
        table = self.tables.get(table_id)
        if table is None:  # closed and forgotten (or lost): its mailbox goes too
            with self._mail_lock:
                if box is not None and not box.jobs and self._mail.get(table_id) is box:
                    del self._mail[table_id]
            return
        self._tick(table)

    def _tick(self, table: Table) -> None:
        if table.id in self.handing_over and self._hand_over(table):
            return  # drained: between rounds, given up before a new round starts
        now = self.clock.now()
        try:
            table.tick()  # never raises for the table's own failures (it suspends itself)
        except Exception as exc:  # pragma: no cover - a bug outside the table's containment
            log.exception("table %s tick failed", table.id)
            table.suspend(f"tick failed: {type(exc).__name__}: {exc}")
        due = table.next_wakeup()
        if due is not None:  # never again in this pass: others first
            self._schedule(table.id, max(due, now + 0.005))
        if table.id in self.handing_over:
            self._hand_over(table)  # its round may just have ended

    # ----- the scheduler ----------------------------------------------------------------------
    def _start_runner(self, table: Table) -> None:
        """Tick `table` as soon as the scheduler runs (it is started by `start`)."""
        self._schedule(table.id, self.clock.now())

    def _schedule(self, table_id: str, when: float) -> None:
        """Make sure `table_id` is ticked no later than `when` (an earlier entry stands)."""
        with self._cond:
            current = self._due.get(table_id)
            if current is not None and current <= when:
                return
            self._due[table_id] = when
            # the scheduler is woken only when this is due before everything it waits for:
            # otherwise it is busy or already waits for an earlier time, and looks then (a
            # wake-up per action cost a thread switch for nothing while tables were due)
            first = not self._heap or when < self._heap[0][0]
            heapq.heappush(self._heap, (when, next(self._order), table_id))
            if first:
                self._cond.notify()

    def start(self) -> None:
        """Start the worker threads and the scheduler (every known table is ticked at once)."""
        if self._scheduler is not None:
            return
        try:
            self._loop = asyncio.get_running_loop()
            self._loop_thread = threading.get_ident()
        except RuntimeError:
            self._loop = None
        self._stopping = False
        self._workers = _Workers(self.worker_count)
        for table in self.tables.values():
            self._start_runner(table)
        self._scheduler = threading.Thread(
            target=self._run_scheduler, name="table-scheduler", daemon=True
        )
        self._scheduler.start()

    async def stop(self, timeout_s: float = 8.0) -> None:
        """Stop promptly: no new table work starts; the work in progress finishes (every action
        is journaled before it is applied, so every open round is in its journal); then every
        table's layout is saved. Returns within about `timeout_s` even if a table is stuck."""
        scheduler, self._scheduler = self._scheduler, None
        workers = self._workers
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if scheduler is not None:
            await asyncio.to_thread(scheduler.join, 1.0)
        if workers is not None:
            idle = await asyncio.to_thread(workers.drain, max(0.1, timeout_s - 1.0))
            if not idle:
                log.warning("stopping with table work still running (it is journaled first)")
            self._workers = None
            workers.stop()
        for table in list(self.tables.values()):
            with contextlib.suppress(Exception):
                await asyncio.to_thread(table.save)
            await asyncio.to_thread(self._release, table.id)
        self._flush()
        self._loop = None

    def wake(self, table_id: str) -> None:
        """Something happened at the table (a seat, an action): let it look at once."""
        if table_id in self.tables:
            self._schedule(table_id, self.clock.now())

    def _pop_due(self, now: float) -> str | None:
        with self._cond:
            while self._heap and self._heap[0][0] <= now:
                when, _, table_id = heapq.heappop(self._heap)
                if self._due.get(table_id) != when:
                    continue  # superseded by an earlier wake
                del self._due[table_id]
                return table_id
        return None

    def run_due(self, budget_s: float | None = None) -> int:
        """Tick the due tables inline, the longest overdue first, until none is due or
        `budget_s` is spent; returns how many were ticked (tests; the threads do it otherwise)."""
        stop_at = None if budget_s is None else time.perf_counter() + budget_s
        now = self.clock.now()
        ticked = 0
        while True:
            table_id = self._pop_due(now)
            if table_id is None:
                break
            table = self.tables.get(table_id)
            if table is None:
                continue
            self._tick(table)
            ticked += 1
            if stop_at is not None and time.perf_counter() >= stop_at:
                break
        return ticked

    def _next_due(self) -> float | None:
        with self._cond:
            while self._heap and self._due.get(self._heap[0][2]) != self._heap[0][0]:
                heapq.heappop(self._heap)  # drop superseded entries
            return self._heap[0][0] if self._heap else None

    def _run_scheduler(self) -> None:
        while True:
            if self.leasing and self.host is None and time.monotonic() >= self._next_lease_check:
                self._next_lease_check = time.monotonic() + self.lease_ttl_s / 3
                try:
                    self.maintain_leases()
                except Exception:
                    log.exception("lease maintenance failed")
            with self._cond:
                if self._stopping:
                    return
                now = self.clock.now()
                due = self._heap[0][0] if self._heap else None
                if due is None or due > now:
                    self._cond.wait(None if due is None else min(1.0, due - now))
                    continue
            while not self._stopping:
                table_id = self._pop_due(self.clock.now())
                if table_id is None:
                    break
                self._post_tick(table_id)

    def _post_tick(self, table_id: str) -> None:
        with self._mail_lock:
            box = self._mail.get(table_id)
            if box is None:
                box = self._mail[table_id] = _Mailbox()
            if box.tick_queued:
                return  # one tick already waits in the mailbox: it does everything due
            box.tick_queued = True
        self._submit(table_id, functools.partial(self._tick_job, table_id))

    # ----- owner leases (one owner per table) ------------------------------------
    @property
    def leasing(self) -> bool:
        """Whether this room claims its tables under owner leases (the ledger adapter was given
        a host id): every round write is then fenced by the lease's epoch."""
        return getattr(self.ledger, "host", None) is not None

    def _claim(self, table_id: str) -> bool:
        if not self.leasing:
            return True
        claim: Callable[[str, float], bool] = self.ledger.claim  # type: ignore[attr-defined]
        return claim(table_id, self.lease_ttl_s)

    def maintain_leases(self) -> None:
        """Renew the leases of this room's tables (a table whose lease was lost stops here at
        once: another process runs it now) and claim tables whose other owner went away."""
        if not self.leasing:
            return
        renew: Callable[[str, float], bool] = self.ledger.renew  # type: ignore[attr-defined]
        for table_id in list(self.tables):
            try:
                kept = renew(table_id, self.lease_ttl_s)
            except Exception:
                log.exception("table %s: lease renewal failed", table_id)
                continue  # the database is unreachable: writes will fail too; try again
            if not kept:
                self.drop(table_id)
                self.elsewhere.add(table_id)
        for table_id in sorted(self.elsewhere):
            try:
                if self._claim(table_id):
                    self.elsewhere.discard(table_id)
                    self._adopt(table_id)
            except Exception:
                log.exception("table %s: could not be taken over", table_id)

    # ----- draining (an operator moves this host's tables to the others) ----------------------
    def hand_over(self, table_ids: list[str] | None = None) -> list[str]:
        """Stop opening tables here and give up `table_ids` (default: all) at their next round
        boundary: each one, when no round of it is running, saves its layout, stops and
        releases its lease, so another host claims it by the normal takeover (with its journal
        and seats; a released lease is lapsed at once). The ids marked."""
        self.accepting = False
        marked = sorted(set(self.tables if table_ids is None else table_ids) & set(self.tables))
        self.handing_over.update(marked)
        for table_id in marked:
            self.wake(table_id)  # between rounds: handed over on the next tick, at once
        return marked

    def _hand_over(self, table: Table) -> bool:
        """On the table's worker: give it up now if it is between rounds (True: done)."""
        try:
            done = table.hand_over()
        except Exception:
            log.exception("table %s: could not be handed over (tried again)", table.id)
            self._schedule(table.id, self.clock.now() + 0.5)
            return False
        if not done:
            return False
        self.tables.pop(table.id, None)
        self.handing_over.discard(table.id)
        self._release(table.id)
        log.info("table %s: handed over (drain)", table.id)
        try:
            self.on_handed_over(table.id)
        except Exception:
            log.exception("table %s: hand-over hook failed", table.id)
        return True

    def drop(self, table_id: str) -> None:
        """This room's lease of the table was lost (taken over after it lapsed): the table
        stops here at once and is forgotten (another process runs it now)."""
        table = self.tables.pop(table_id, None)
        if table is not None:
            self.moved[table_id] = None
            while len(self.moved) > MOVED_KEPT:
                self.moved.popitem(last=False)
            self._submit(table_id, table.lose)

    def adopt(self, table_id: str, prepared: Prepared | None = None) -> Table | None:
        """Take over a table another process ran (its lease is claimed already): its layout
        as last saved, then its open rounds from the journal. None (lease released) if the
        table is closed, gone or cannot be rebuilt. `prepared`: what to read, already read
        with the other tables of a takeover pass (`adoption.prepare`: a few statements for
        the whole pass instead of ~9 per table); without it each is read here."""
        if prepared is not None:
            data = prepared.layout
        else:
            load_one = getattr(self.repo, "load_table", None)
            if load_one is not None:
                data = load_one(table_id)
            else:
                data = next(
                    (d for d in self.repo.load_tables() if d.get("table_id") == table_id), None
                )
        if data is None or data.get("closed"):
            self._release(table_id)
            return None
        table = self._restore(data, None if prepared is None else prepared.client_ids)
        if table is None:
            return None
        open_rounds = (
            self.ledger.open_rounds(table_id) if prepared is None else prepared.open_rounds
        )
        for open_round in open_rounds:
            self._recover_round(table, open_round)
        self._start_runner(table)
        return table

    def prepare_adoptions(self, table_ids: list[str]) -> dict[str, Prepared] | None:
        """`adopt`'s reads for all of `table_ids` at once (None: the ports read per table)."""
        return adoption.prepare(self.ledger, self.repo, table_ids)

    _adopt = adopt

    def release_lease(self, table_id: str) -> None:
        """Give up the lease of a table that did not open (`opening.py`)."""
        self._release(table_id)

    def start_runner(self, table: Table) -> None:
        """Tick a newly opened table (`opening.py`)."""
        self._start_runner(table)

    def _release(self, table_id: str) -> None:
        if self.leasing:
            with contextlib.suppress(Exception):
                self.ledger.release(table_id)  # type: ignore[attr-defined]

    # ----- recovery -------------------------------------------------------------------------
    def _restore(
        self, data: Mapping[str, Any], client_ids: list[tuple[str, str]] | None = None
    ) -> Table | None:
        table_id = str(data.get("table_id"))
        try:
            info = games_mod.get(str(data["game"]))
            saved_terms = data.get("terms")
            terms = (
                TableTerms.from_json(info, saved_terms)
                if isinstance(saved_terms, Mapping)
                else default_terms(info, data.get("config"))
            )
            table = self._make(table_id, terms, data.get("name", ""), data.get("owner"))
            table.restore_layout(data)
        except Exception as exc:
            self.tables.pop(table_id, None)
            self.unrestorable[table_id] = f"{type(exc).__name__}: {exc}"
            log.error("table %s cannot be restored: %s", table_id, exc)
            return None
        try:  # a client id seen before the restart is never applied again (docs/protocol.md)
            if client_ids is None:
                client_ids = self.ledger.recent_client_ids(table_id, Journal.CLIENT_IDS_KEPT)
            table.remember_client_ids(client_ids)
        except Exception:
            log.exception("table %s: its recent client ids could not be read", table_id)
        return table

    def _recover_round(self, table: Table, open_round: Any) -> str:
        round_id = open_round.record.round_id
        try:
            return table.recover(open_round)
        except Exception as exc:
            log.exception("round %s cannot be recovered", round_id)
            table.suspend(f"recovery failed: {type(exc).__name__}: {exc}"[:300])
            return "failed"

    def recover(self) -> dict[str, str]:
        """Rebuild every table from its saved layout, then resume (or void) every open round.

        Never raises because of what is in the database: a layout that cannot be rebuilt is
        listed in `unrestorable`; a table whose open round cannot be resumed or settled is
        suspended with the reason (`Table.recover`); every other table plays on."""
        saved = [d for d in self.repo.load_tables() if not d.get("closed")]  # closed: cashed out
        won = self._claim_at_start([str(d.get("table_id")) for d in saved])
        try:  # the last results' chain heads of the tables won, in one read
            mine = {str(d.get("table_id")): d for d in saved if str(d.get("table_id")) in won}
            headed = adoption.with_chain_heads(self.ledger, mine)
            saved = [headed.get(str(d.get("table_id")), d) for d in saved]
        except Exception:
            log.exception("the tables' chain heads could not be read at once")
        client_ids: dict[str, list[tuple[str, str]]] = {}
        read_many = getattr(self.ledger, "recent_client_ids_of", None)
        if read_many is not None and won:
            try:  # one read for all (a replacement host recovers hundreds)
                client_ids = read_many(sorted(won), Journal.CLIENT_IDS_KEPT)
            except Exception:
                log.exception("the tables' recent client ids could not be read")
        for data in saved:
            table_id = str(data.get("table_id"))
            if table_id in self.unrestorable:
                continue  # its lease could not be claimed
            if table_id not in won:
                self.elsewhere.add(table_id)  # another live process runs it
                continue
            self._restore(data, client_ids.get(table_id))
        if self.leasing and self.tables:  # a table host's log says what it took at start-up
            log.warning(  # (benchmarks/bench_server.py --failover reads it)
                "start-up recovery: %d tables restored: %s",
                len(self.tables),
                " ".join(sorted(self.tables)),
            )
        outcome: dict[str, str] = {}
        try:
            all_open = getattr(self.ledger, "open_rounds_of", None)
            open_rounds = self.ledger.open_rounds() if all_open is None else all_open(None)
        except Exception as exc:
            log.exception("the open rounds cannot be read")
            for table in self.tables.values():
                table.suspend(f"its open rounds could not be read: {type(exc).__name__}: {exc}")
            open_rounds = []
        for open_round in open_rounds:
            round_id = open_round.record.round_id
            table_id = open_round.record.table_id
            owner = self.tables.get(table_id)
            if owner is not None:
                outcome[round_id] = self._recover_round(owner, open_round)
                continue
            if table_id in self.elsewhere:
                outcome[round_id] = "owned elsewhere"  # its live owner goes on with it
                continue
            if table_id in self.unrestorable:
                outcome[round_id] = "unrestorable"  # the holds stay for an operator
                continue
            if getattr(open_round, "broken", None) is not None:
                # its records fail their MACs: not voided either (the holds stay for an operator)
                log.error("round %s is not recovered: %s", round_id, open_round.broken)
                outcome[round_id] = "suspended"
                continue
            try:
                if not self._claim(table_id):  # a table another process just opened
                    self.elsewhere.add(table_id)
                    outcome[round_id] = "owned elsewhere"
                    continue
                self.void_gone(open_round, "its table no longer exists")
                self._release(table_id)
                outcome[round_id] = "voided"
            except Exception:
                log.exception("round %s of a table that no longer exists", round_id)
                outcome[round_id] = "failed"
        self.recovery = outcome
        return outcome

    def _claim_at_start(self, table_ids: list[str]) -> set[str]:
        """The tables of `table_ids` this room holds now: claimed all at once when the ledger
        port can (`claim_all`: one statement for those with a lease row), else one by one; a
        table whose claim failed is listed in `unrestorable`."""
        claim_all = getattr(self.ledger, "claim_all", None)
        if self.leasing and claim_all is not None and table_ids:
            try:
                won: set[str] = claim_all(table_ids, self.lease_ttl_s)
                return won
            except Exception:
                log.exception("the tables' leases cannot be claimed at once: one by one")
        won = set()
        for table_id in table_ids:
            try:
                if self._claim(table_id):
                    won.add(table_id)
            except Exception as exc:
                log.exception("table %s: its lease cannot be claimed", table_id)
                self.unrestorable[table_id] = f"lease: {type(exc).__name__}: {exc}"
        return won

    def void_gone(
        self, open_round: Any, reason: str, ledger: LedgerPort | None = None
    ) -> dict[str, int]:
        """End an open round that no live table holds (its table is gone) by the
        interrupted-game policy (docs/rules/common.md#interrupted-games, `interrupt.py`), as its
        table would have: the round is rebuilt from its journal through its game's engine (the
        recovery replay), every stake is returned (the round voided), and what a player had
        already won (`won_so_far`) is paid by the house on top, one journaled
        `interrupted_game` transfer per player. A round that cannot be rebuilt is simply
        voided (stakes returned). `ledger`: where to write (default the room's). Returns what
        the house paid, per player."""
        port = ledger or self.ledger
        record = open_round.record
        try:
            units = DealUnits(False, self.seed_source)
            round_ = recovery.rebuild(games_mod.get(record.game), units, open_round)
            players = {seat: player for seat, player, _ in record.seats}
            pay = interrupt.payouts(round_, players)
        except Exception:
            log.exception("round %s cannot be replayed: its stakes are returned", record.round_id)
            pay = {}
        port.void_round(record.round_id, reason[:300])
        for player, amount in sorted(pay.items()):
            port.pay_interrupted(record.round_id, record.table_id, player, amount, reason)
        return pay

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
        """Listen to a table: this connection gets the table's state now (after any countdown
        that already ran out was applied), then after every change. From async code prefer
        `await room.watch(conn, table_id)`, which does the table's part in its mailbox."""
        table = self.table(table_id)
        conn.tables.add(table_id)
        self._post(conn, self._join(table, conn.player))

    async def watch(self, conn: Connection, table_id: str) -> None:
        """`subscribe` with the table's part run where the table's work runs."""
        conn.tables.add(table_id)
        try:
            await self.call(
                table_id, lambda table: self._post(conn, self._join(table, conn.player))
            )
        except Exception:
            conn.tables.discard(table_id)
            raise

    @staticmethod
    def _join(table: Table, player: str) -> JSON:
        with table.lock:
            table.listen(player)  # an away seat of theirs is back
            table.catch_up()  # a countdown that ran out is applied before the state is shown
            return table.state_of(player)  # whole: later ones go as deltas from it

    def unsubscribe(self, conn: Connection, table_id: str) -> None:
        conn.tables.discard(table_id)
        table = self.tables.get(table_id)
        if table is None:
            return
        still = any(table_id in c.tables for c in self.connections.get(conn.player, set()))
        if not still:
            table.disconnect(conn.player)

    def _deliver(self, table_id: str, player: str, message: JSON) -> None:
        # one copy for all of the player's sockets (read-only); a state already names its table
        # and is passed on as it is (its delta and its encoding go with it: `sockets.py`)
        tagged: JSON | None = message if message.get("table_id") == table_id else None
        for conn in list(self.connections.get(player, ())):
            if table_id in conn.tables or message.get("type") == "left":
                if tagged is None:
                    tagged = {**message, "table_id": table_id}
                self._post(conn, tagged)
        host = self.host
        if host is not None:
            host.deliver(table_id, player, message)

    def deliver_local(self, table_id: str, player: str, message: JSON) -> None:
        """A message another process's table sent for `player` (the cluster's front door)."""
        for conn in list(self.connections.get(player, ())):
            if table_id in conn.tables or message.get("type") == "left":
                self._post(conn, {**message, "table_id": table_id})

    def _post(self, conn: Connection, message: JSON) -> None:
        """Hand a message to a connection: at once on the event loop's thread, else through the
        loop in order (a batch per loop turn)."""
        loop = self._loop
        if loop is None:
            conn.push(message)
            return
        if threading.get_ident() == self._loop_thread:
            # on the loop (a handler calling a table directly): what the threads handed over
            # first goes first, so that no client sees an older state after a newer one
            self._flush()
            conn.push(message)
            return
        with self._outbox_lock:
            self._outbox.append((conn, message))
            if self._flush_pending:
                return
            self._flush_pending = True
        try:
            loop.call_soon_threadsafe(self._flush)
        except RuntimeError:  # the loop is closed: nobody is listening any more
            with self._outbox_lock:
                self._outbox.clear()
                self._flush_pending = False

    def _flush(self) -> None:
        with self._outbox_lock:
            batch, self._outbox = self._outbox, []
            self._flush_pending = False
        for conn, message in batch:
            conn.push(message)


def _resolve_future(future: asyncio.Future[T], result: T) -> None:
    if not future.done():
        future.set_result(result)


def _fail_future(future: asyncio.Future[Any], exc: BaseException) -> None:
    if not future.done():
        future.set_exception(exc)
