"""SQLite: the writer's connection keeps statement journals in memory and the WAL is copied back
into the database by a thread of its own, not by the committing writer (`qipai/ledger/sqlite_wal.py`;
docs/ledger.md §8)."""

from __future__ import annotations

import logging
import struct
import time
from pathlib import Path

import pytest

from qipai.ledger import Ledger, sqlite_wal
from tests.ledger.helpers import play_coin


def _ledger(tmp_path: Path) -> Ledger:
    ledger = Ledger.open(str(tmp_path / "wal.sqlite3"))
    for user in ("ann", "bob"):
        ledger.create_user(user)
        ledger.deposit(user, 1_000_000, "test")
        ledger.buy_in(user, "t1", 500_000, "test")
    return ledger


def _wal_pending(path: Path) -> tuple[int, int]:
    """(frames in the WAL, frames of it already copied into the database), read from the
    WAL index (the `-shm` file: `mxFrame` of its header, `nBackfill` of its checkpoint
    information; sqlite.org/walformat.html) — asking SQLite with a checkpoint would copy them."""
    shm = Path(f"{path}-shm").read_bytes()
    (max_frame,) = struct.unpack_from("=I", shm, 16)
    (backfilled,) = struct.unpack_from("=I", shm, 96)
    return max_frame, backfilled


def test_the_writer_keeps_statement_journals_in_memory_and_readers_do_not(
    tmp_path: Path,
) -> None:
    ledger = _ledger(tmp_path)
    try:
        play_coin(ledger, {"A": 10, "B": 20}, {"A": "ann", "B": "bob"})
        writer = ledger.writer
        assert writer._conn is not None
        driver = writer._conn.connection.driver_connection
        assert driver is not None
        # 2 = MEMORY: a batch's statement journals (every page a multi-row statement changes,
        # in WAL mode) never go through a temporary file
        assert driver.execute("PRAGMA temp_store").fetchone() == (2,)
        assert driver.execute("PRAGMA wal_autocheckpoint").fetchone() == (
            sqlite_wal.BACKSTOP_PAGES,
        )
        with ledger.engine.connect() as reader:  # another pooled connection: the defaults
            raw = reader.connection.driver_connection
            assert raw is not None
            assert raw.execute("PRAGMA temp_store").fetchone() == (0,)
            assert raw.execute("PRAGMA wal_autocheckpoint").fetchone() == (1000,)
        writer.close()  # the writer's connection goes back to the pool with the defaults
        with ledger.engine.connect() as again:
            raw = again.connection.driver_connection
            assert raw is not None
            assert raw.execute("PRAGMA temp_store").fetchone() == (0,)
            assert raw.execute("PRAGMA wal_autocheckpoint").fetchone() == (1000,)
    finally:
        ledger.close()


def test_the_wal_is_copied_by_the_checkpointer_not_by_the_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the writer's own automatic checkpoint out of reach: whatever is copied, the checkpointer
    # copied it
    monkeypatch.setattr(sqlite_wal, "BACKSTOP_PAGES", 1_000_000)
    ledger = _ledger(tmp_path)
    path = tmp_path / "wal.sqlite3"
    try:
        for _ in range(40):
            play_coin(ledger, {"A": 10, "B": 20}, {"A": "ann", "B": "bob"})
        checkpointer = ledger.writer.checkpointer
        assert checkpointer is not None and checkpointer.running
        deadline = time.monotonic() + 10
        while True:  # it copies within CHECKPOINT_AFTER_S of the last commit
            frames, copied = _wal_pending(path)
            if copied == frames or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert frames > 0
        assert copied == frames
        assert checkpointer.checkpoints > 0
        assert checkpointer.last_error is None
    finally:
        ledger.close()
    assert not checkpointer.running  # closing the ledger stops it


def test_a_failing_checkpoint_is_logged_and_writes_go_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    checkpointer = sqlite_wal.Checkpointer(str(tmp_path / "missing" / "dir" / "x.sqlite3"))
    try:
        with caplog.at_level(logging.WARNING, logger="qipai.ledger.sqlite_wal"):
            checkpointer.committed()
            deadline = time.monotonic() + 5
            while checkpointer.last_error is None and time.monotonic() < deadline:
                time.sleep(0.02)
        assert checkpointer.last_error is not None
        assert "unable to open database file" in checkpointer.last_error
        assert checkpointer.running  # tries again after the next commit
        assert any("checkpoint" in r.getMessage() for r in caplog.records)
        assert checkpointer.checkpoints == 0
    finally:
        checkpointer.close()
    assert not checkpointer.running


def test_an_in_memory_ledger_has_no_checkpointer() -> None:
    ledger = Ledger.open("sqlite://")
    try:
        ledger.create_user("ann")
        ledger.deposit("ann", 100, "test")
        assert ledger.writer.checkpointer is None
    finally:
        ledger.close()
