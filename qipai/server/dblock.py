"""One server process per SQLite database: an OS lock on `<database>.lock`.

Two servers on one SQLite file would both recover and run the same tables (the tables live in
the process). The first server takes an exclusive `flock` on a file beside the database and
keeps it while it runs; a second process asks for it, does not get it, and refuses to start
with a message naming the database and the holder's process id. The OS drops the lock when
the holder dies, however it dies, so a crash never leaves the database locked.

Within one process the lock is counted (tests open several apps on one file in turn).
PostgreSQL needs no file: tables there are owned by leases in the database (the ledger's).
"""

from __future__ import annotations

import fcntl
import os
import threading
from pathlib import Path

from sqlalchemy.engine import make_url


class DatabaseInUse(RuntimeError):
    """Another process serves this database."""


_held: dict[Path, tuple[int, int]] = {}  # lock path -> (fd, count)
_guard = threading.Lock()


def sqlite_file(url: str) -> Path | None:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database or ""
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database).expanduser().resolve()


class DatabaseLock:
    """Held from `acquire()` until `release()` (both idempotent per instance)."""

    def __init__(self, url: str) -> None:
        database = sqlite_file(url)
        self.path = None if database is None else database.with_name(database.name + ".lock")
        self._mine = False

    def acquire(self) -> None:
        if self.path is None or self._mine:
            return
        with _guard:
            held = _held.get(self.path)
            if held is not None:
                _held[self.path] = (held[0], held[1] + 1)
                self._mine = True
                return
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
                os.close(fd)
                database = self.path.with_name(self.path.name.removesuffix(".lock"))
                who = f" (process {holder})" if holder.isdigit() else ""
                raise DatabaseInUse(
                    f"another qipai server{who} is using the database {database}: stop it "
                    "first, or give this one another --db"
                ) from None
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)
            _held[self.path] = (fd, 1)
            self._mine = True

    def release(self) -> None:
        if self.path is None or not self._mine:
            return
        with _guard:
            self._mine = False
            fd, count = _held[self.path]
            if count > 1:
                _held[self.path] = (fd, count - 1)
                return
            del _held[self.path]
            os.close(fd)  # closing the descriptor drops the flock


__all__ = ["DatabaseInUse", "DatabaseLock", "sqlite_file"]
