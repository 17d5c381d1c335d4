"""The lease work of a table host on database connections of its own.

A host's renewals must never wait behind its tables' work: a renewal that comes late by more
than the lease (3 s) hands the host's own tables to another host (lease churn). The renewal
already has a thread of its own (`ownership.py`), but it took its connection from the ledger's
pool (10 + 20 per process: `qipai.ledger.db.create`), which 32 table threads, 16 seating
threads, the resume threads and the front door's lookups share. Under load every connection
is busy and a checkout waits: one 2-process run counted 318 "lease lost" lines in its
failover, most of them during seating, before any host was killed (docs/scaling.md,
"Takeover"). Here the renewals, the lapsed-lease look-ups and the takeover claims go over
a small engine of their own (two connections), using the ledger's own lease statements
(`qipai.ledger.leases`), so the fencing and epoch semantics are those of `Ledger.renew_many`
and `Ledger.claim_tables` exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from sqlalchemy import Connection, Engine, text

from qipai.ledger import Ledger
from qipai.ledger import db as dbm
from qipai.ledger import leases as leases_mod
from qipai.ledger.api import write_retrying

_LAPSED = text(
    "SELECT table_id, EXTRACT(EPOCH FROM now() - expires_at) FROM table_leases "
    "WHERE expires_at <= now() ORDER BY expires_at LIMIT 1000"
)


T = TypeVar("T")


_NEXT_LAPSE = text(
    "SELECT EXTRACT(EPOCH FROM min(expires_at) - now()) FROM table_leases "
    "WHERE expires_at > now() AND owner IS DISTINCT FROM :host"
)


_HOLDERS = text(
    "SELECT DISTINCT owner FROM table_leases WHERE owner IS NOT NULL AND expires_at > now()"
)


class LeaseLine:
    """`renew_many`, `claim_tables` and `lapsed` as the ledger has them, on an engine of their
    own (PostgreSQL only: table hosts exist only there)."""

    def __init__(self, ledger: Ledger, connections: int = 2) -> None:
        self.engine: Engine = dbm.create(ledger.url, schema=ledger.schema, pool_size=connections)

    def renew_many(self, host: str, epochs: Mapping[str, int], ttl_s: float) -> set[str]:
        """`Ledger.renew_many`: the table ids whose lease (same owner, same epoch) was
        extended."""
        return self._write(lambda conn: leases_mod.renew_many(conn, host, epochs, ttl_s))

    def claim_tables(self, table_ids: Sequence[str], host: str, ttl_s: float) -> dict[str, int]:
        """`Ledger.claim_tables`: table id -> new epoch of each lapsed table won."""
        return self._write(lambda conn: leases_mod.claim_many(conn, table_ids, host, ttl_s))

    def lapsed(self) -> list[tuple[str, float]]:
        """(table id, seconds since its lease lapsed) of the lapsed leases, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(_LAPSED).all()
        return [(str(t), float(s or 0.0)) for t, s in rows]

    def next_lapse(self, host: str) -> float | None:
        """Seconds until the first live lease of another host than `host` lapses if it is not
        renewed (None: there is none). A live host renews before that; a dead one does not,
        and its tables lapse then."""
        with self.engine.connect() as conn:
            found = conn.execute(_NEXT_LAPSE, {"host": host}).scalar()
        return None if found is None else float(found)

    def holders(self) -> set[str]:
        """The hosts holding at least one live lease now (a dead host holds none once its
        leases lapsed, whatever the host directory still says)."""
        with self.engine.connect() as conn:
            return {str(r[0]) for r in conn.execute(_HOLDERS)}

    def _write(self, work: Callable[[Connection], T]) -> T:
        """One transaction on the line's own engine, retried as `Ledger._write` retries."""
        return write_retrying(self.engine, work)

    def close(self) -> None:
        self.engine.dispose()


__all__ = ["LeaseLine"]
