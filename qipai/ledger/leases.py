"""Table leases and fencing: one owner per table at a time, and a stale owner can never write.

A lease row is (table id, owner host, epoch, expires at). `claim` is a compare-and-set that takes
a table that is free (never claimed, released, or lapsed) and raises its epoch; `renew` extends
the owner's lease under the same epoch; `release` gives it up. A writer passes
`fence=(table_id, epoch)` and `check_fence` runs inside the writer's own database transaction:

* PostgreSQL: the writer reads the lease row `FOR KEY SHARE`. A concurrent `claim` locks that
  row `FOR UPDATE` before it raises the epoch, so it waits until the writer commits (the write
  happened under the old owner, before the claim), and a writer that starts after the claim
  committed reads the new epoch and is refused. There is no window in which a claim and a
  stale write both succeed. Renewals and releases leave the epoch alone and take the weaker
  row lock of a plain UPDATE, which `FOR KEY SHARE` does not conflict with: the one UPDATE that
  renews all of a host's leases every second never waits for, nor holds up, the table writes in
  flight (with `FOR SHARE` it did both, and the card room's writers queued behind it:
  docs/scaling.md).
* SQLite: every write transaction holds the database lock from its start (`BEGIN IMMEDIATE`), so
  a claim and a write are serialized outright.

Expiry is judged by the database's clock on PostgreSQL (hosts' clocks may differ) and by this
process's clock on SQLite (one machine). Only the epoch fences: a lapsed lease that nobody claimed
yet still lets its owner write and renew, because no one else can have written in between.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, bindparam, select, text

from qipai.ledger import accounts as acct
from qipai.ledger.errors import Fenced, LedgerError
from qipai.ledger.schema import table_leases, utcnow

Fence = tuple[str, int]
"""(table id, epoch) as returned by `claim`."""

_MAX_TTL_S = 24 * 3600.0


@dataclass(frozen=True)
class Lease:
    """A table's lease as stored. `held` is whether it is owned and not yet expired (by the
    database's clock when it was read)."""

    table_id: str
    owner: str | None
    epoch: int
    expires_at: datetime
    held: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "owner": self.owner,
            "epoch": self.epoch,
            "expires_at": self.expires_at.isoformat(),
            "held": self.held,
        }


def _ttl(ttl_s: float) -> float:
    if isinstance(ttl_s, bool) or not isinstance(ttl_s, int | float) or not 0 < ttl_s <= _MAX_TTL_S:
        raise LedgerError(f"lease ttl_s must be a number of seconds in (0, {_MAX_TTL_S:.0f}]")
    return float(ttl_s)


def _host(host: str) -> str:
    if not isinstance(host, str) or not 0 < len(host) <= 200:
        raise LedgerError("a lease owner is a host id of 1-200 characters")
    return host


_PG_CLAIM = text(
    "INSERT INTO table_leases (table_id, owner, epoch, expires_at, claimed_at) "
    "VALUES (:t, :h, 1, now() + make_interval(secs => :ttl), now()) "
    "ON CONFLICT (table_id) DO UPDATE SET owner = :h, epoch = table_leases.epoch + 1, "
    "expires_at = now() + make_interval(secs => :ttl), claimed_at = now() "
    "WHERE table_leases.owner IS NULL OR table_leases.owner = :h "
    "OR table_leases.expires_at <= now() "
    "RETURNING epoch"
)
_PG_CLAIM_LOCK = text("SELECT 1 FROM table_leases WHERE table_id = :t FOR UPDATE")
_LITE_CLAIM = text(
    "INSERT INTO table_leases (table_id, owner, epoch, expires_at, claimed_at) "
    "VALUES (:t, :h, 1, :until, :now) "
    "ON CONFLICT (table_id) DO UPDATE SET owner = :h, epoch = table_leases.epoch + 1, "
    "expires_at = :until, claimed_at = :now "
    "WHERE table_leases.owner IS NULL OR table_leases.owner = :h "
    "OR table_leases.expires_at <= :now "
    "RETURNING epoch"
)
_PG_RENEW = text(
    "UPDATE table_leases SET expires_at = now() + make_interval(secs => :ttl) "
    "WHERE table_id = :t AND owner = :h AND epoch = :e"
)
_LITE_RENEW = text(
    "UPDATE table_leases SET expires_at = :until WHERE table_id = :t AND owner = :h AND epoch = :e"
)
_PG_RELEASE = text(
    "UPDATE table_leases SET owner = NULL, expires_at = now() "
    "WHERE table_id = :t AND owner = :h AND epoch = :e"
)
_LITE_RELEASE = text(
    "UPDATE table_leases SET owner = NULL, expires_at = :now "
    "WHERE table_id = :t AND owner = :h AND epoch = :e"
)
_FENCE = (
    select(table_leases.c.epoch)
    .where(table_leases.c.table_id == bindparam("f_table"))
    .with_for_update(read=True, key_share=True)
)


def _times(ttl_s: float) -> dict[str, Any]:
    now = utcnow()
    # stored as SQLite stores UtcDateTime: naive UTC (text compares in time order)
    return {
        "now": now.replace(tzinfo=None),
        "until": (now + timedelta(seconds=ttl_s)).replace(tzinfo=None),
    }


def claim(conn: Connection, table_id: str, host: str, ttl_s: float) -> int | None:
    """Take the table if it is free, released, lapsed or already this host's (a restarted host
    fences its earlier self): the new epoch; None if another host holds a live lease."""
    acct.check_id(table_id, "table")
    params: dict[str, Any] = {"t": table_id, "h": _host(host), "ttl": _ttl(ttl_s)}
    if conn.dialect.name == "postgresql":
        # the fence's lock (FOR KEY SHARE) conflicts only with this one: see the docstring
        conn.execute(_PG_CLAIM_LOCK, params)
        row = conn.execute(_PG_CLAIM, params).first()
    else:
        row = conn.execute(_LITE_CLAIM, params | _times(params["ttl"])).first()
    return None if row is None else int(row[0])


_PG_CLAIM_MANY = text(
    "WITH locked AS (SELECT table_id FROM table_leases "
    "WHERE table_id = ANY(CAST(:tables AS text[])) "
    "AND (owner IS NULL OR owner = :h OR expires_at <= now()) "
    "ORDER BY table_id FOR UPDATE) "
    "UPDATE table_leases AS l SET owner = :h, epoch = l.epoch + 1, "
    "expires_at = now() + make_interval(secs => :ttl), claimed_at = now() "
    "FROM locked WHERE l.table_id = locked.table_id "
    "AND (l.owner IS NULL OR l.owner = :h OR l.expires_at <= now()) "
    "RETURNING l.table_id, l.epoch"
)


def claim_many(
    conn: Connection, table_ids: Sequence[str], host: str, ttl_s: float
) -> dict[str, int]:
    """`claim` for many tables that have a lease row already (a takeover: lapsed leases) in
    ONE statement on PostgreSQL: table id -> new epoch for each table won; a table another
    host holds (or claimed first) is left out. The rows are locked `FOR UPDATE` in table
    order before their epochs rise, as `claim` locks its one row, so a fenced write in flight
    finishes first and two hosts claiming overlapping sets wait for each other, never
    deadlock; the loser of a row re-reads it and finds it live. Elsewhere one `claim` each."""
    _host(host)
    tables = sorted(set(table_ids))
    for table_id in tables:
        acct.check_id(table_id, "table")
    if not tables:
        return {}
    if conn.dialect.name != "postgresql":
        won = {t: claim(conn, t, host, ttl_s) for t in tables}
        return {t: e for t, e in won.items() if e is not None}
    rows = conn.execute(_PG_CLAIM_MANY, {"tables": tables, "h": host, "ttl": _ttl(ttl_s)})
    return {str(t): int(e) for t, e in rows}


def renew(conn: Connection, table_id: str, host: str, epoch: int, ttl_s: float) -> bool:
    """Extend this host's lease under the same epoch; False if the epoch is no longer its own."""
    params: dict[str, Any] = {"t": table_id, "h": _host(host), "e": int(epoch), "ttl": _ttl(ttl_s)}
    if conn.dialect.name == "postgresql":
        done = conn.execute(_PG_RENEW, params)
    else:
        done = conn.execute(_LITE_RENEW, params | _times(params["ttl"]))
    return bool(done.rowcount == 1)


def renew_many(conn: Connection, host: str, epochs: Mapping[str, int], ttl_s: float) -> set[str]:
    """`renew` for many tables in one UPDATE; the table ids renewed."""
    _host(host)
    ttl = _ttl(ttl_s)
    if not epochs:
        return set()
    tables = sorted(epochs)
    if conn.dialect.name == "postgresql":
        found = conn.execute(
            text(
                "UPDATE table_leases AS l SET expires_at = now() + make_interval(secs => :ttl) "
                "FROM unnest(CAST(:tables AS text[]), CAST(:epochs AS bigint[])) AS v(t, e) "
                "WHERE l.table_id = v.t AND l.epoch = v.e AND l.owner = :h RETURNING l.table_id"
            ),
            {"ttl": ttl, "tables": tables, "epochs": [int(epochs[t]) for t in tables], "h": host},
        )
    else:
        marks = ", ".join(f":t{i}" for i in range(len(tables)))
        cases = " ".join(f"WHEN :t{i} THEN :e{i}" for i in range(len(tables)))
        params: dict[str, Any] = {"h": host, **_times(ttl)}
        for i, t in enumerate(tables):
            params[f"t{i}"], params[f"e{i}"] = t, int(epochs[t])
        found = conn.execute(
            text(
                f"UPDATE table_leases SET expires_at = :until WHERE owner = :h "
                f"AND table_id IN ({marks}) AND epoch = CASE table_id {cases} END "
                "RETURNING table_id"
            ),
            params,
        )
    return {str(r[0]) for r in found}


def release(conn: Connection, table_id: str, host: str, epoch: int) -> bool:
    """Give the table up (the next claim raises the epoch); False if it was not this lease."""
    params: dict[str, Any] = {"t": table_id, "h": _host(host), "e": int(epoch)}
    if conn.dialect.name == "postgresql":
        done = conn.execute(_PG_RELEASE, params)
    else:
        done = conn.execute(_LITE_RELEASE, params | _times(1.0))
    return bool(done.rowcount == 1)


def _now(conn: Connection) -> datetime:
    if conn.dialect.name == "postgresql":
        value = conn.execute(text("SELECT now()")).scalar_one()
        assert isinstance(value, datetime)
        return value
    return utcnow()


def get(conn: Connection, table_id: str | None = None) -> list[Lease]:
    """Every lease (or one table's), by table id."""
    query = select(table_leases).order_by(table_leases.c.table_id)
    if table_id is not None:
        query = query.where(table_leases.c.table_id == table_id)
    now = _now(conn)
    return [
        Lease(
            table_id=str(r["table_id"]),
            owner=r["owner"],
            epoch=int(r["epoch"]),
            expires_at=r["expires_at"],
            held=r["owner"] is not None and r["expires_at"] > now,
        )
        for r in conn.execute(query).mappings()
    ]


def check_fence(conn: Connection, fence: Fence | None, table_id: str | None = None) -> None:
    """Refuse the write (`Fenced`) unless `fence` is the table's current epoch; PostgreSQL holds
    the lease row shared until this transaction ends, so no claim can slip in before commit.
    `table_id`: the table the write is for (a fence for another table is refused too)."""
    if fence is None:
        return
    try:
        fenced_table, epoch = fence
    except (TypeError, ValueError):
        raise Fenced(f"fence must be (table_id, epoch), not {fence!r}") from None
    if table_id is not None and fenced_table != table_id:
        raise Fenced(f"fence is for table {fenced_table!r}, but this write is for {table_id!r}")
    current = conn.execute(_FENCE, {"f_table": fenced_table}).scalar()
    if current is None:
        raise Fenced(f"table {fenced_table!r} has no lease: claim it first")
    if int(current) != epoch:
        raise Fenced(
            f"table {fenced_table!r} lease epoch {epoch} is stale (now {int(current)}): "
            "another host owns the table"
        )
