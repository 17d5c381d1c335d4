"""The operator log: who did what, when and why — append-only and hash-chained.

Every operator action (and every refused attempt by an operator) is one row. The database refuses
UPDATE and DELETE on the table (triggers of the `authority` migration); each row also carries the
SHA-256 of its canonical content and of the row before it, so an edit made with the triggers
dropped shows up in `verify` as a broken link.

Rows are written inside the caller's transaction when the action changes the authority's own
tables (a template version and its log row commit together), or in a transaction of their own.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, func, insert, select, text

from qipai.authority.schema import ops_log

GENESIS = "0" * 64
MAX_REASON = 500
_LOCK = 7240918  # PostgreSQL advisory lock serializing appends (the chain is one sequence)


@dataclass(frozen=True)
class Actor:
    """Who acts: an operator (or auditor) by name, or the system itself ("system", "cli")."""

    name: str
    role: str


SYSTEM = Actor("system", "system")
CLI = Actor("cli", "system")


def _canonical(row: Mapping[str, Any]) -> str:
    body = {k: row[k] for k in ("at", "actor", "role", "action", "target", "reason", "outcome")}
    body["detail"] = row["detail"]
    body["prev_hash"] = row["prev_hash"]
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def row_hash(row: Mapping[str, Any]) -> str:
    return hashlib.sha256(_canonical(row).encode("utf-8")).hexdigest()


class OperatorLog:
    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock

    def append_in(
        self,
        conn: Connection,
        actor: Actor,
        action: str,
        target: str = "",
        reason: str = "",
        detail: Mapping[str, Any] | None = None,
        outcome: str = "ok",
    ) -> int:
        """Append one row inside the caller's transaction; returns its id."""
        if conn.dialect.name == "postgresql":
            conn.execute(text(f"SELECT pg_advisory_xact_lock({_LOCK})"))
        last = conn.execute(select(ops_log.c.hash).order_by(ops_log.c.id.desc()).limit(1)).scalar()
        row: dict[str, Any] = {
            "at": float(self.clock()),
            "actor": actor.name,
            "role": actor.role,
            "action": action,
            "target": target[:200],
            "reason": reason[:MAX_REASON],
            "outcome": outcome,
            # JSON round trip: what is hashed is exactly what the database gives back
            "detail": json.loads(json.dumps(dict(detail or {}), default=str)),
            "prev_hash": last or GENESIS,
        }
        row["hash"] = row_hash(row)
        result = conn.execute(insert(ops_log).values(**row))
        key = result.inserted_primary_key
        assert key is not None
        return int(key[0])

    def append(
        self,
        actor: Actor,
        action: str,
        target: str = "",
        reason: str = "",
        detail: Mapping[str, Any] | None = None,
        outcome: str = "ok",
    ) -> int:
        with self.engine.begin() as conn:
            return self.append_in(conn, actor, action, target, reason, detail, outcome)

    def entries(
        self,
        *,
        actor: str | None = None,
        action: str | None = None,
        target: str | None = None,
        before_id: int | None = None,
        limit: int = 50,
    ) -> list[dict[str, Any]]:
        """Newest first; `before_id` pages further back."""
        query = select(ops_log).order_by(ops_log.c.id.desc()).limit(limit)
        if actor is not None:
            query = query.where(ops_log.c.actor == actor)
        if action is not None:
            query = query.where(ops_log.c.action == action)
        if target is not None:
            query = query.where(ops_log.c.target == target)
        if before_id is not None:
            query = query.where(ops_log.c.id < before_id)
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def count(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(ops_log)).scalar() or 0)

    def verify(self) -> list[str]:
        """Every broken link of the chain (empty: the log is intact)."""
        problems: list[str] = []
        prev = GENESIS
        with self.engine.connect() as conn:
            for r in conn.execute(select(ops_log).order_by(ops_log.c.id)):
                row = dict(r._mapping)
                if row["prev_hash"] != prev:
                    problems.append(f"row {row['id']}: does not follow the row before it")
                if row_hash(row) != row["hash"]:
                    problems.append(f"row {row['id']}: content does not match its hash")
                prev = row["hash"]
        return problems
