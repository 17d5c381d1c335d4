"""Table ownership by lease: renew this host's tables, take lapsed ones over, stop lost ones.

One thread per host runs `step()` every `renew_s` seconds (never the event loop's or a
table's thread: a slow database delays only this):

1. **Renew** every lease of this host's tables in one UPDATE (`Ledger.renew_many`). A table
   whose lease is no longer ours (we were paused or partitioned past `lease_ttl_s` and another
   host claimed it, raising the epoch) is dropped at once (`Room.drop`): it stops, and every
   write it might still attempt is refused by the ledger's fence anyway.
2. **Take over** tables whose lease lapsed (their host died or stopped): a compare-and-set
   claim raises the epoch (`Ledger.claim_table`; only one host wins), then the room rebuilds
   the table from its saved layout and resumes its open round from the journal
   (`Room.adopt`, the crash recovery: same seed, same deal, same seats). Each pass claims at
   most its share of the lapsed tables (lapsed / live hosts, at least one), so the tables of
   a dead host spread over the survivors. A released lease (a host drained or stopped) is
   lapsed at once.

Expiry is judged by the database's clock, so hosts' clocks need not agree.
"""

from __future__ import annotations

import logging
import math
import secrets
import threading
import time
from collections.abc import Callable

from sqlalchemy import text

from qipai.cluster.metrics import ClusterMetrics
from qipai.ledger import Ledger
from qipai.server.room import Room
from qipai.tables.ledger_adapter import LedgerAdapter

log = logging.getLogger("qipai.cluster.ownership")

_LAPSED = text(
    "SELECT table_id, EXTRACT(EPOCH FROM now() - expires_at) FROM table_leases "
    "WHERE expires_at <= now() ORDER BY expires_at LIMIT 1000"
)


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
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._rng = (
            secrets.SystemRandom()
        )  # placement jitter; no seeded generator in qipai (tests/core/test_rng.py)

    # ----- one pass ----------------------------------------------------------------------------
    def step(self) -> None:
        """Renew, then take over; never raises (a failing database is retried next pass)."""
        try:
            self.renew()
        except Exception:
            self.metrics.renewal_failures.inc()
            log.exception("lease renewal failed")
        try:
            self.take_over()
        except Exception:
            log.exception("taking over lapsed tables failed")
        self.update_gauges()

    def renew(self) -> None:
        epochs = {t: e for t, e in list(self.adapter.epochs.items()) if t in self.room.tables}
        if not epochs:
            return
        kept = self.ledger.renew_many(self.host, epochs, self.ttl_s)
        self.metrics.renewals.inc(len(kept))
        for table_id in sorted(set(epochs) - kept):
            log.warning("table %s: lease lost to another host", table_id)
            self.metrics.lost.inc()
            self.adapter.epochs.pop(table_id, None)
            self.room.drop(table_id)

    def lapsed(self) -> list[tuple[str, float]]:
        """(table id, seconds since its lease lapsed) of the lapsed leases, oldest first."""
        with self.ledger.engine.connect() as conn:
            rows = conn.execute(_LAPSED).all()
        return [(str(t), float(s or 0.0)) for t, s in rows]

    def take_over(self) -> list[str]:
        """Claim and resume this host's share of the lapsed tables; the ids resumed."""
        if self.draining:
            return []
        found = [
            (t, s) for t, s in self.lapsed() if t not in self.room.tables and t not in self.ignored
        ]
        if not found:
            return []
        share = max(1, math.ceil(len(found) / max(1, self.hosts_alive())))
        self._rng.shuffle(found)
        resumed: list[str] = []
        # at most half a pass of resuming (each one replays a journal): the next renewal of this
        # host's own leases must not wait for hundreds of takeovers (its leases would lapse and
        # be taken in turn); the rest stay lapsed for the next pass, of this host or another
        budget_ends = time.monotonic() + self.renew_s / 2
        for table_id, lapsed_for in found[:share]:
            if self._stop.is_set() or (resumed and time.monotonic() >= budget_ends):
                break
            try:
                if not self.adapter.claim(table_id, self.ttl_s):
                    continue  # another host was first
                table = self.room.adopt(table_id)
            except Exception:
                log.exception("table %s: could not be taken over", table_id)
                continue
            if table is None:
                self.ignored.add(table_id)  # closed or gone: its lease stays released
                continue
            waited = lapsed_for + self.ttl_s
            self.adopted[table_id] = waited
            self.metrics.takeovers.inc()
            self.metrics.takeover_seconds.observe(waited)
            self.room.elsewhere.discard(table_id)
            log.warning(
                "table %s: taken over (its lease had lapsed %.2f s ago)", table_id, lapsed_for
            )
            resumed.append(table_id)
            self.on_adopted(table_id)
        return resumed

    def update_gauges(self) -> None:
        tables = list(self.room.tables.values())
        self.metrics.tables.set(len(tables))
        self.metrics.seats.set(sum(len(t.humans()) for t in tables))

    # ----- the thread --------------------------------------------------------------------------
    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="qipai-leases", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            started = time.monotonic()
            self.step()
            self._stop.wait(max(0.05, self.renew_s - (time.monotonic() - started)))

    def stop(self) -> None:
        """Stop renewing (the room's stop releases the leases, so others take over at once)."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(self.renew_s + 5.0)


__all__ = ["Ownership"]
