"""Automatch opens a few tables side by side (`qipai/authority/lobby.py`
`_Openings`): the tables being opened count toward the room's cap from the moment their
opening starts, so openings side by side never take the room past `max_tables`, and no more
than the set number run at once."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from qipai.authority import Authority, AuthoritySettings
from qipai.authority.errors import QuotaExceeded
from qipai.authority.lobby import _Openings
from qipai.ledger import Ledger


def test_openings_in_flight_count_toward_the_rooms_cap(ledger: Ledger) -> None:
    authority = Authority(ledger.engine, AuthoritySettings(max_tables=3), ledger=ledger)
    room = SimpleNamespace(tables={"t1": object()})  # one table open already
    openings = _Openings(2)
    inside = threading.Barrier(3, timeout=30)
    release = threading.Event()
    errors: list[BaseException] = []

    def open_slowly() -> None:
        try:
            with openings.one(authority, room, "alice"):
                inside.wait()  # both openings in flight at once
                release.wait(30)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_slowly) for _ in range(2)]
    for thread in threads:
        thread.start()
    inside.wait()
    # 1 table + 2 openings = the cap of 3: a third opening is refused, not let past the cap
    # (before, only the tables already in the room counted: 1 < 3)
    with pytest.raises(QuotaExceeded), openings.one(authority, room, "bob"):
        pass
    assert not openings.slots.acquire(blocking=False)  # and both slots are taken
    release.set()
    for thread in threads:
        thread.join(30)
    assert not errors and openings.now == 0
    with openings.one(authority, room, "bob"):  # finished openings no longer count
        assert openings.now == 1
