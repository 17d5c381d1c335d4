"""Table hosts in one test process (no server, no Redis): a `Room` per host on one PostgreSQL
schema, its leases kept by `Ownership`, on a shared virtual clock (the database's clock still
judges lease expiry: tests lapse a lease by moving its expiry into the past)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NamedTuple

from prometheus_client import CollectorRegistry
from sqlalchemy import text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tables"))
import helpers  # noqa: F401  (registers the toy game)

from qipai.cluster.fenced import FencedLayouts, HostAdapter
from qipai.cluster.metrics import ClusterMetrics
from qipai.cluster.ownership import Ownership
from qipai.core.protocol import JSON
from qipai.ledger import Ledger
from qipai.server.room import Room
from qipai.server.store import RoomStore
from qipai.tables.ports import ManualClock
from qipai.tables.table import Timing


class _Alone:
    """A `TableHost` without other processes to route to."""

    def deliver(self, table_id: str, player: str, message: JSON) -> None:
        return None


class Host:
    def __init__(self, url: str, schema: str, name: str, clock: ManualClock) -> None:
        self.ledger = Ledger.open(url, schema=schema)
        self.layouts = FencedLayouts(RoomStore(self.ledger.engine))
        self.adapter = HostAdapter(self.ledger, layouts=self.layouts, host=name)
        self.layouts.bind(self.adapter)
        self.room = Room(self.adapter, self.layouts, clock, Timing(0.5, 1.0), lease_ttl_s=3.0)
        self.metrics = ClusterMetrics(CollectorRegistry(), name)
        self.fenced = 0

        def count() -> None:
            self.fenced += 1

        self.adapter.on_fenced = self.layouts.on_fenced = count
        self.ownership = Ownership(self.room, self.adapter, self.ledger, self.metrics)
        self.room.host = _Alone()  # leases kept by `ownership` (no routing: one test process)

    def close(self) -> None:
        self.ownership.close()
        self.ledger.close()


class TwoHosts(NamedTuple):
    """The `two_hosts` fixture (tests/cluster/conftest.py): two hosts, their ledger, the clock."""

    a: Host
    b: Host
    ledger: Ledger
    clock: ManualClock


def lapse(ledger: Ledger, table_id: str | None = None, owner: str | None = None) -> None:
    """The owner stopped renewing (paused, partitioned, dead) for longer than the lease."""
    where = "table_id = :t" if table_id is not None else "owner = :o"
    with ledger.engine.begin() as conn:
        conn.execute(
            text(f"UPDATE table_leases SET expires_at = now() - interval '1 second' WHERE {where}"),
            {"t": table_id, "o": owner},
        )
