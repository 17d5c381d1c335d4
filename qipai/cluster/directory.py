"""The room's table directory in PostgreSQL: every open table of every host, from any host.

A table's saved layout (`room_tables`, written by its owner under the lease fence) and its
lease (`table_leases`: owner, epoch, expiry) are in the one database all hosts share, so any
front door can list the whole room without asking the other hosts: the lobby's table counts
(`/api/games`) and the operator's table list (`/api/ops/tables`) show the tables this host
runs live and every other open table from the directory (its host, epoch and whether the lease
is held: a table whose host died shows, with its lease lapsed, until another host resumes it).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, func, select

from qipai.ledger.schema import table_leases
from qipai.server.store import room_tables

MAX_LISTED = 10_000
"""At most this many tables are read from the directory for one answer (a bound)."""


@dataclass(frozen=True)
class DirectoryTable:
    table_id: str
    layout: dict[str, Any]
    host: str | None
    epoch: int | None
    held: bool

    @property
    def game(self) -> str:
        return str(self.layout.get("game", ""))

    def row(self) -> dict[str, Any]:
        """The operator's row of a table another host runs (from its last saved layout)."""
        data = self.layout
        seats = [s for s in data.get("seats") or [] if isinstance(s, dict)]
        suspended = data.get("suspended")
        return {
            "id": self.table_id,
            "game": self.game,
            "name": str(data.get("name", "")),
            "owner": data.get("owner"),
            "status": "suspended" if suspended else "elsewhere",
            "reason": suspended or None,
            "seats": [
                {
                    "seat": s.get("seat"),
                    "name": s.get("name"),
                    "bot": s.get("bot"),
                    "occupied": s.get("player") is not None,
                }
                for s in seats
            ],
            "humans": sum(1 for s in seats if s.get("player") is not None and not s.get("bot")),
            "number": data.get("number"),
            "terms": data.get("terms"),
            "round_id": None,
            "phase": None,
            "host": self.host,
            "lease_epoch": self.epoch,
            "lease_held": self.held,
            "remote": True,
        }


def elsewhere(engine: Engine, local: Collection[str]) -> list[DirectoryTable]:
    """Every open (not closed) table of the room that is not in `local`, by table id."""
    query = (
        select(
            room_tables.c.id,
            room_tables.c.data,
            table_leases.c.owner,
            table_leases.c.epoch,
            (table_leases.c.expires_at > func.now()).label("live"),
        )
        .select_from(
            room_tables.outerjoin(table_leases, table_leases.c.table_id == room_tables.c.id)
        )
        .order_by(room_tables.c.id)
        .limit(MAX_LISTED + len(local))
    )
    with engine.connect() as conn:
        rows = conn.execute(query).all()
    out: list[DirectoryTable] = []
    for table_id, data, owner, epoch, live in rows:
        if table_id in local or not isinstance(data, dict) or data.get("closed"):
            continue
        out.append(
            DirectoryTable(
                table_id=str(table_id),
                layout=dict(data),
                host=owner,
                epoch=None if epoch is None else int(epoch),
                held=bool(owner is not None and live),
            )
        )
    return out[:MAX_LISTED]


__all__ = ["MAX_LISTED", "DirectoryTable", "elsewhere"]
