"""Table ownership by lease: renew this host's tables, take lapsed ones over, stop lost ones.

Two threads per host (never the event loop's or a table's thread: a slow database delays only
them): renewals every `renew_s` seconds; take-over passes every `renew_s` seconds too, or
sooner, when another host's lease is due to lapse before that (`LeaseLine.next_lapse`: the pass
then comes as that lease lapses, not up to `renew_s` later). Renewal has a thread of its own,
so that it never waits behind a takeover: resuming the hundreds of tables of a dead host takes
far longer than a lease, and a host whose own leases lapsed meanwhile would lose them in turn
(lease churn).

1. **Renew** every lease of this host's tables in one UPDATE (`Ledger.renew_many`'s statement,
   on connections of the lease work's own: `lease_line.py`). A table
   whose lease is no longer ours (we were paused or partitioned past `lease_ttl_s` and another
   host claimed it, raising the epoch) is dropped at once (`Room.drop`): it stops, and every
   write it might still attempt is refused by the ledger's fence anyway.
2. **Take over** tables whose lease lapsed (their host died or stopped): a compare-and-set
   claim raises the epoch (`Ledger.claim_table`; only one host wins), then the room rebuilds
   the table from its saved layout and resumes its open round from the journal
   (`Room.adopt`, the crash recovery: same seed, same deal, same seats). Each pass claims at
   most its share of the lapsed tables (lapsed / live hosts, at least one), so the tables of
   a dead host spread over the survivors, and resumes them in parallel (`resume_threads`:
   each resume is mostly database round trips). A released lease (a host drained or stopped)
   is lapsed at once.
3. **Return stray stacks.** A buy-in commits before the table saves the seat it bought; if
   the lease was lost in between, the seat is refused (`LeaseLost`) but the money sits in a
   table stack that no saved layout seats. The new owner cashes every such stack of a table
   it takes over out to its player's wallet (a bot's to the bot bankroll), fenced by its own
   lease like any cash-out, with an idempotency key per table, epoch and player.

Expiry is judged by the database's clock, so hosts' clocks need not agree.
"""

from __future__ import annotations

import logging
import math
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import select

from qipai.cluster.lease_line import LeaseLine
from qipai.cluster.metrics import ClusterMetrics
from qipai.ledger import Ledger
from qipai.ledger import accounts as acct
from qipai.ledger.schema import accounts
from qipai.server.adoption import Prepared
from qipai.server.room import Room
from qipai.tables.ledger_adapter import LedgerAdapter

log = logging.getLogger("qipai.cluster.ownership")

LAPSE_MARGIN_S = 0.02
"""A take-over pass timed to a lease's lapse comes this long after it (the database's clock
must have passed the expiry for the lease to count as lapsed)."""


def next_wait(every_s: float, took_s: float, sooner_s: float | None) -> float:
    """How long a pass's thread sleeps: the rest of `every_s` after a pass that took `took_s`,
    or `sooner_s` if that is shorter; never under 50 ms (a busy loop on a failing database)."""
    wait = every_s - took_s
    if sooner_s is not None:
        wait = min(wait, sooner_s)
    return max(0.05, wait)


class Ownership:
    def __init__(
        self,
        room: Room,
        adapter: LedgerAdapter,
        ledger: Ledger,
        metrics: ClusterMetrics,
        *,
        ttl_s: float = 3.0,
        renew_s: float = 1.0,
        hosts_alive: Callable[[], int] = lambda: 1,
        on_adopted: Callable[[str], None] = lambda _table_id: None,
        resume_threads: int = 16,
    ) -> None:
        if adapter.host is None:
            raise ValueError("ownership needs a ledger adapter with a host id")
        self.room = room
        self.adapter = adapter
        self.ledger = ledger
        self.metrics = metrics
        self.host: str = adapter.host
        self.ttl_s = ttl_s
        self.renew_s = renew_s
        self.hosts_alive = hosts_alive
        self.on_adopted = on_adopted
        self.draining = False
        """An operator drains this host: it takes nothing over (its own tables leave it)."""
        self.ignored: set[str] = set()
        """Lapsed leases of tables that are closed or gone (nothing to take over)."""
        self.adopted: dict[str, float] = {}
        """Table id -> seconds its lease had been lapsed when this host resumed it."""
        self.resume_threads = max(1, resume_threads)
        self.strays: dict[str, dict[str, int]] = {}
        """Table id -> player -> the stray stack this host returned when it took the table over."""
        self._resume_cpu: dict[str, float] = {}
        """Table id -> CPU seconds its resume took (its thread's), reported per pass."""
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.line: LeaseLine | None = (
            LeaseLine(ledger) if ledger.engine.dialect.name == "postgresql" else None
        )
        """The lease work's own connections (`lease_line.py`): never behind the tables'."""
        self._rng = (
            secrets.SystemRandom()
        )  # placement jitter; no seeded generator in qipai (tests/core/test_rng.py)

    # ----- one pass ----------------------------------------------------------------------------
    def step(self) -> None:
        """Renew, then take over; never raises (a failing database is retried next pass)."""
        self._renew_safely()
        self._takeover_pass()
        self.update_gauges()

    def renew(self) -> None:
        room = self.room
        epochs = {
            t: e
            for t, e in list(self.adapter.epochs.items())
            if t in room.tables or t in room.opening  # a table being opened is ours too
        }
        if not epochs:
            return
        kept = (self.line or self.ledger).renew_many(self.host, epochs, self.ttl_s)
        self.metrics.renewals.inc(len(kept))
        for table_id in sorted(set(epochs) - kept):
            log.warning("table %s: lease lost to another host", table_id)
            self.metrics.lost.inc()
            self.adapter.epochs.pop(table_id, None)
            self.room.drop(table_id)

    def lapsed(self) -> list[tuple[str, float]]:
        """(table id, seconds since its lease lapsed) of the lapsed leases, oldest first."""
        if self.line is None:
            raise RuntimeError("table hosts run on PostgreSQL only")
        return self.line.lapsed()

    def take_over(self) -> list[str]:
        """Claim and resume this host's share of the lapsed tables, in parallel; the ids
        resumed (in the order of the lapsed list as shuffled)."""
        if self.draining:
            return []
        found = [
            (t, s)
            for t, s in self.lapsed()
            if t not in self.room.tables and t not in self.room.opening and t not in self.ignored
        ]
        if not found:
            return []
        share = max(1, math.ceil(len(found) / self._takers()))
        self._rng.shuffle(found)
        chosen = found[:share]
        if self._stop.is_set():
            return []
        # every table of the pass claimed in ONE statement (the epochs raised, fenced as one
        # claim each: `Ledger.claim_tables`); before, one claim transaction per table, in the
        # resume threads (a takeover of hundreds of tables)
        began = time.monotonic()
        won = self._claim([t for t, _ in chosen])
        claimed = time.monotonic()
        chosen = [(t, s) for t, s in chosen if t in won]  # the others: another host was first
        # claimed and not resumed yet: renewed as a table being opened here is (the pass may
        # outlast a lease), never taken for lapsed by this host's next pass
        self.room.opening.update(t for t, _ in chosen)
        try:
            # the stacks of every claimed table in one read (before, one read per table)
            stacks = self._stacks_of([t for t, _ in chosen])
            # and what each adoption reads (layout, client ids, open rounds and journals):
            # one statement per kind for the whole pass, not ~9 per table (docs/scaling.md,
            # "Takeover": 1.1 s of wall per table for 15-20 ms of CPU)
            prepared = self._prepare([t for t, _ in chosen])
            read = time.monotonic()
            jobs = [(t, s, stacks.get(t, []), prepared.get(t)) for t, s in chosen]
            if len(jobs) <= 1 or self.resume_threads == 1:
                done = [self._resume(*job) for job in jobs]
            else:
                with ThreadPoolExecutor(
                    min(self.resume_threads, len(jobs)), thread_name_prefix="qipai-resume"
                ) as pool:
                    done = list(pool.map(lambda job: self._resume(*job), jobs))
        finally:
            self.room.opening.difference_update(t for t, _ in chosen)
        resumed = [t for t in done if t is not None]
        if chosen:  # docs/scaling.md, "Takeover": where a takeover's time goes
            log.warning(
                "takeover pass: %d tables claimed of %d lapsed (share %d); claim %.0f ms, "
                "reads %.0f ms, resumes %.0f ms (%.0f ms of their threads' CPU); "
                "%d resumed: %s",
                len(chosen),
                len(found),
                share,
                1000 * (claimed - began),
                1000 * (read - claimed),
                1000 * (time.monotonic() - read),
                1000 * sum(self._resume_cpu.pop(t, 0.0) for t, _ in chosen),
                len(resumed),
                " ".join(resumed),
            )
        return resumed

    def _takers(self) -> int:
        """How many hosts share the lapsed tables: the live hosts of the directory, but only
        those that hold a live lease (and this one). A host killed a moment ago stays in the
        directory for `lease_ttl_s + 2` s, longer than its leases take to lapse, and a
        replacement that holds nothing yet takes no share: counting either halved this
        host's first pass and left the rest to a second one (measured: two passes of 3-4 s
        each, takeover 7.0 s)."""
        alive = max(1, self.hosts_alive())
        if self.line is None or alive == 1:
            return alive
        try:
            holders = self.line.holders() | {self.host}
        except Exception:
            log.exception("the lease holders could not be read")
            return alive
        return max(1, min(alive, len(holders)))

    def _claim(self, table_ids: list[str]) -> set[str]:
        """Claim the pass's tables in one statement, on the lease line when there is one."""
        if self.line is None:
            return self.adapter.claim_many(table_ids, self.ttl_s)
        won = self.line.claim_tables(table_ids, self.host, self.ttl_s)
        self.adapter.epochs.update(won)
        return set(won)

    def _prepare(self, table_ids: list[str]) -> dict[str, Prepared]:
        """`Room.adopt`'s reads for the pass's tables at once; empty (each table read on its
        own by `adopt`) when the ports cannot batch or the read failed."""
        try:
            return self.room.prepare_adoptions(table_ids) or {}
        except Exception:
            log.exception("the claimed tables could not be read at once: one by one")
            return {}

    def _resume(
        self,
        table_id: str,
        lapsed_for: float,
        stacks: list[tuple[str, int]],
        prepared: Prepared | None = None,
    ) -> str | None:
        """Resume one lapsed table this host has just claimed (`stacks`: its stacks with money,
        `prepared`: what `Room.adopt` reads, both read with the pass's others); its id, or None
        (the table is closed, gone or could not be rebuilt)."""
        if self._stop.is_set():
            return None  # stopping: its claimed lease lapses, another host takes it
        cpu = time.thread_time()
        try:
            return self._resume_now(table_id, lapsed_for, stacks, prepared)
        finally:
            self._resume_cpu[table_id] = time.thread_time() - cpu

    def _resume_now(
        self,
        table_id: str,
        lapsed_for: float,
        stacks: list[tuple[str, int]],
        prepared: Prepared | None,
    ) -> str | None:
        try:
            table = self.room.adopt(table_id, prepared)
        except Exception:
            log.exception("table %s: could not be taken over", table_id)
            return None
        if table is None:
            self.ignored.add(table_id)  # closed or gone: its lease stays released
            return None
        waited = lapsed_for + self.ttl_s
        self.adopted[table_id] = waited
        self.metrics.takeovers.inc()
        self.metrics.takeover_seconds.observe(waited)
        self.room.elsewhere.discard(table_id)
        # one line per table only at DEBUG: the pass names its tables in one line (below). 64
        # resume threads writing a line each queued on the log handler's lock and the GIL —
        # more than half the resume threads' wall in a 1,000-client failover (docs/scaling.md,
        # "Takeover")
        log.debug("table %s: taken over (its lease had lapsed %.2f s ago)", table_id, lapsed_for)
        try:
            self.return_strays(table_id, stacks)
        except Exception:
            log.exception(
                "table %s: its stray stacks could not be returned (next takeover)", table_id
            )
        self.on_adopted(table_id)
        return table_id

    def _stacks_of(self, table_ids: list[str]) -> dict[str, list[tuple[str, int]]]:
        """Table id -> (account name, balance) of its stacks holding money, for many tables in
        one read (the tables of a takeover pass, claimed: nobody else moves their money)."""
        if not table_ids:
            return {}
        found: dict[str, list[tuple[str, int]]] = {t: [] for t in table_ids}
        with self.ledger.engine.connect() as conn:
            rows = conn.execute(
                select(accounts.c.table_id, accounts.c.name, accounts.c.balance).where(
                    accounts.c.table_id.in_(table_ids),
                    accounts.c.kind == "stack",
                    accounts.c.balance > 0,
                )
            ).all()
        for table_id, name, balance in rows:
            found.setdefault(str(table_id), []).append((str(name), int(balance)))
        return found

    def return_strays(
        self, table_id: str, stacks: list[tuple[str, int]] | None = None
    ) -> dict[str, int]:
        """Cash out every stack of `table_id` whose player no seat of the table holds (a
        buy-in whose seat was refused when the lease was lost: module docstring, 3); under
        the table's lock, so nobody sits down meanwhile. `stacks`: the table's stacks with
        money as read since its claim (read here when not given). Player -> amount returned."""
        table = self.room.tables.get(table_id)
        epoch = self.adapter.epochs.get(table_id)
        if table is None or epoch is None:
            return {}
        rows = stacks if stacks is not None else self._stacks_of([table_id]).get(table_id, [])
        returned: dict[str, int] = {}
        with table.lock:
            for name, balance in rows:
                spec = acct.parse(str(name))
                player = spec.owner
                if (
                    spec.kind != "stack"
                    or spec.table_id != table_id
                    or player is None
                    or table.seating.seat_of(player) is not None
                ):
                    continue
                key = f"stray:{table_id}:{epoch}:{player}"
                if player.startswith(f"bot.{table_id}."):
                    amount = self.adapter.bot_cash_out(player, table_id, key)
                else:
                    amount = self.adapter.cash_out(player, table_id, key)
                returned[player] = amount or int(balance)
                self.metrics.stray_cashouts.inc()
                log.warning(
                    "table %s: %s had %d in a stack with no seat (a buy-in whose seat was "
                    "refused): returned to the wallet",
                    table_id,
                    player,
                    int(balance),
                )
            if returned:
                table.money.moved()
        if returned:
            self.strays[table_id] = returned
        return returned

    def update_gauges(self) -> None:
        tables = list(self.room.tables.values())
        self.metrics.tables.set(len(tables))
        self.metrics.seats.set(sum(len(t.seating.humans()) for t in tables))

    # ----- the thread --------------------------------------------------------------------------
    def start(self) -> None:
        """Renewals in one thread, takeovers in another: a renewal never waits behind a
        takeover however many tables it resumes."""
        if self._threads:
            return
        self._stop.clear()
        self._threads = [
            threading.Thread(target=self._every, args=(work,), name=name, daemon=True)
            for name, work in (
                ("qipai-leases", self._renew_pass),
                ("qipai-takeovers", self._takeover_pass),
            )
        ]
        for thread in self._threads:
            thread.start()

    def _renew_safely(self) -> None:
        try:
            self.renew()
        except Exception:
            self.metrics.renewal_failures.inc()
            log.exception("lease renewal failed")

    def _renew_pass(self) -> None:
        self._renew_safely()
        self.update_gauges()

    def _takeover_pass(self) -> float | None:
        try:
            self.take_over()
        except Exception:
            log.exception("taking over lapsed tables failed")
        return self.next_pass_in()

    def next_pass_in(self) -> float | None:
        """Seconds until the next take-over pass should look, when sooner than `renew_s`: as
        the first of another host's leases lapses if it is not renewed (a host killed just
        after renewing loses its tables `lease_ttl_s` later; with a pass only every `renew_s`
        they waited up to `renew_s` more: docs/scaling.md, "Takeover"). None: every
        `renew_s` (SQLite has one host; a failing look-up waits the usual time)."""
        if self.line is None or self.draining:
            return None
        try:
            due = self.line.next_lapse(self.host)
        except Exception:
            log.exception("the next lease lapse could not be read")
            return None
        return None if due is None else due + LAPSE_MARGIN_S

    def _every(self, work: Callable[[], float | None]) -> None:
        while not self._stop.is_set():
            started = time.monotonic()
            sooner = work()
            self._stop.wait(next_wait(self.renew_s, time.monotonic() - started, sooner))

    def stop(self) -> None:
        """Stop renewing (the room's stop releases the leases, so others take over at once)."""
        self._stop.set()
        threads, self._threads = self._threads, []
        for thread in threads:
            thread.join(self.renew_s + 5.0)

    def close(self) -> None:
        """Stop, and close the lease line's connections."""
        self.stop()
        if self.line is not None:
            self.line.close()


__all__ = ["Ownership"]
