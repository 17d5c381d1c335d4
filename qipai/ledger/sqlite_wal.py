"""SQLite: the writer's connection, and WAL checkpoints off the writer's path (docs/ledger.md).

Two costs of a SQLite commit that are not the rows themselves, found by counting system calls
(`strace -f -c` on `benchmarks/bench_ledger.py`'s 4-table run; docs/ledger.md §8):

* **Statement journals in temporary files.** A multi-row INSERT or UPDATE that may fail on a
  constraint keeps a copy of every page it changes so that it alone can be undone (SQLite's
  statement journal); in WAL mode that is every page the statement touches. Past 64 KiB it
  spills to a temporary file: one file per batch, created, written (≈ 340 KB) and unlinked —
  a third of all `pwrite` calls of a settled round. The writer's connection keeps them in
  memory (`PRAGMA temp_store=MEMORY`; a batch's statements touch a few hundred KB at most).
  Other connections keep the default, so a large audit query still sorts on disk.
* **Checkpoints in the committing thread.** SQLite copies the WAL back into the database
  (`wal_autocheckpoint`, every 1,000 pages) inside the commit that crosses the mark — on the
  writer's thread, which every table waits for. `Checkpointer` does it on a thread and a
  connection of its own (a PASSIVE checkpoint never blocks the writer; SQLite releases the GIL
  while it copies, so on a second core it costs the writer nothing). The writer's own automatic
  checkpoint stays as a backstop at `BACKSTOP_PAGES`, in case the checkpointer cannot keep up.

Durability is unchanged: a PASSIVE checkpoint is the same operation as the automatic one,
with the same `synchronous` level (syncs the WAL before copying, the database after).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from typing import Any

log = logging.getLogger(__name__)

BACKSTOP_PAGES = 4_000
"""The writer's own `wal_autocheckpoint` (pages, ≈ 16 MB). While tables write without pause,
the WAL is never found fully copied when a transaction starts (the checkpointer copies beside
the writer, which keeps appending), so SQLite does not start it over and it grows; at this size
the writer's own checkpoint copies what is left (little: the checkpointer did the rest) and
the next transaction starts the WAL over. So the WAL file stays near this size at most.
(SQLite's default, used by every other connection, is 1,000.)"""

CHECKPOINT_AFTER_S = 0.05
"""How long the checkpointer lets commits accumulate before it copies them: one checkpoint
copies a page changed by many commits once."""


def tune_writer(driver: Any) -> None:
    """Settings of the writer's own connection (outside a transaction; see the module's text)."""
    driver.execute("PRAGMA temp_store=MEMORY")
    driver.execute(f"PRAGMA wal_autocheckpoint={BACKSTOP_PAGES}")


def untune_writer(driver: Any) -> None:
    """Back to the defaults before the connection returns to the pool (readers use it next)."""
    driver.execute("PRAGMA temp_store=DEFAULT")
    driver.execute("PRAGMA wal_autocheckpoint=1000")


class Checkpointer:
    """Copies the WAL into the database after commits, on its own thread and connection.

    `committed()` (the writer calls it after each commit) wakes it; it waits
    `CHECKPOINT_AFTER_S` for more commits, then runs one PASSIVE checkpoint. Idle, it sleeps
    without waking. A failing checkpoint is logged and retried after the next commit; the
    writer's backstop bounds the WAL meanwhile."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.checkpoints = 0
        """Checkpoints run (tests and diagnostics)."""
        self.last_error: str | None = None
        self._wake = threading.Event()
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="qipai-sqlite-checkpoint")
        self._thread.daemon = True
        self._thread.start()

    def committed(self) -> None:
        self._wake.set()

    def close(self, timeout: float = 5.0) -> None:
        self._stop = True
        self._wake.set()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def _run(self) -> None:
        conn: sqlite3.Connection | None = None
        try:
            while not self._stop:
                self._wake.wait()
                if self._stop:
                    return
                time.sleep(CHECKPOINT_AFTER_S)
                self._wake.clear()
                try:
                    if conn is None:
                        conn = sqlite3.connect(self.path, isolation_level=None, timeout=0.0)
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                except sqlite3.Error as exc:  # (the next commit wakes it again)
                    if self.last_error != str(exc):
                        log.warning("SQLite checkpoint of %s failed: %s", self.path, exc)
                    self.last_error = str(exc)
                    continue
                self.checkpoints += 1
                self.last_error = None
        finally:
            if conn is not None:
                conn.close()
