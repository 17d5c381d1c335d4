"""The operator log: who did what, when and why — append-only, chained and keyed.

Every operator action (and every refused attempt by an operator) is one row. The database refuses
UPDATE and DELETE on the table (triggers of the `authority` migration); each row also carries an
HMAC-SHA256 of its canonical content and of the row before it, under the operator-log key
derived from the ledger's key (`Keys.oplog_key`, never in the database), and the log's head
(`ops_log_head`: its last row, its number of rows, MACed) is written with every row, as the
ledger keeps its chains' heads. Whoever can write the database but has no key can neither edit
a row, nor delete one and re-hash the rest, nor drop the newest rows: `verify` (and so
`qipai audit`) finds each (docs/security.md, "The operator log"). Rows written before the log
was keyed (plain SHA-256) are accepted only as the log's beginning, before the first keyed row.

Rows are written inside the caller's transaction when the action changes the authority's own
tables (a template version and its log row commit together), or in a transaction of their own.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, func, insert, or_, select, text, update

from qipai.authority.schema import ops_log, ops_log_head
from qipai.server.inputs import scrubbed

GENESIS = "0" * 64
MAX_REASON = 500
_LOCK = 7240918  # PostgreSQL advisory lock serializing appends (the chain is one sequence)
_audit = logging.getLogger("qipai.audit")


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
    """A row's hash as written before the log was keyed (plain SHA-256)."""
    return hashlib.sha256(_canonical(row).encode("utf-8")).hexdigest()


def row_mac(key: bytes, row: Mapping[str, Any]) -> str:
    return hmac.new(key, _canonical(row).encode("utf-8"), hashlib.sha256).hexdigest()


def head_mac(key: bytes, last_id: int, last_hash: str, rows: int) -> str:
    text_ = f"qipai-oplog-head|{last_id}|{last_hash}|{rows}"
    return hmac.new(key, text_.encode(), hashlib.sha256).hexdigest()


HEAD = "ops_log"


class OperatorLog:
    def __init__(
        self, engine: Engine, clock: Callable[[], float] = time.time, key: bytes | None = None
    ) -> None:
        self.engine = engine
        self.clock = clock
        self.key = key

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
            # a refused request's path may hold NUL (PostgreSQL refuses it in text)
            "action": scrubbed(action),
            "target": scrubbed(target[:200]),
            "reason": scrubbed(reason[:MAX_REASON]),
            "outcome": outcome,
            # JSON round trip: what is hashed is exactly what the database gives back
            "detail": json.loads(json.dumps(dict(detail or {}), default=str)),
            "prev_hash": last or GENESIS,
        }
        row["hash"] = row_hash(row) if self.key is None else row_mac(self.key, row)
        result = conn.execute(insert(ops_log).values(**row))
        key = result.inserted_primary_key
        assert key is not None
        if self.key is not None:
            self._advance_head(conn, int(key[0]), row["hash"])
        # the server log's `audit` line (docs/operators.md#logs), written as the row is
        # appended in its transaction: the operator log itself stays the record
        _audit.log(
            logging.INFO if outcome == "ok" else logging.WARNING,
            "%s %s %s: %s",
            actor.name,
            action,
            row["target"],
            outcome,
            extra={
                "event": "audit",
                "fields": {
                    "id": int(key[0]),
                    "actor": actor.name,
                    "role": actor.role,
                    "action": action,
                    "target": row["target"],
                    "outcome": outcome,
                },
            },
        )
        return int(key[0])

    def _advance_head(self, conn: Connection, row_id: int, row_hash_: str) -> None:
        """The head moves to the new row, in the row's transaction (serialized with the append:
        PostgreSQL's advisory lock, SQLite's one writer)."""
        head = conn.execute(select(ops_log_head.c.rows).where(ops_log_head.c.name == HEAD)).first()
        if head is None:
            rows = int(conn.execute(select(func.count()).select_from(ops_log)).scalar() or 0)
        else:
            rows = int(head[0]) + 1
        assert self.key is not None
        values = {
            "last_id": row_id,
            "hash": row_hash_,
            "rows": rows,
            "mac": head_mac(self.key, row_id, row_hash_, rows),
        }
        if head is None:
            conn.execute(insert(ops_log_head).values(name=HEAD, **values))
        else:
            conn.execute(update(ops_log_head).where(ops_log_head.c.name == HEAD).values(**values))

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
        kind: str | None = None,
        since: float | None = None,
        until: float | None = None,
    ) -> list[dict[str, Any]]:
        """Newest first; `before_id` pages further back. `kind` is an action's family, the
        part before its dot (`table` for `table.suspend`, `table.close`…); `since` (inclusive)
        and `until` (exclusive) bound the time, seconds since the epoch."""
        query = select(ops_log).order_by(ops_log.c.id.desc()).limit(limit)
        if actor is not None:
            query = query.where(ops_log.c.actor == actor)
        if action is not None:
            query = query.where(ops_log.c.action == action)
        if kind is not None:
            escaped = kind.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            query = query.where(
                or_(ops_log.c.action == kind, ops_log.c.action.like(escaped + ".%", escape="\\"))
            )
        if since is not None:
            query = query.where(ops_log.c.at >= since)
        if until is not None:
            query = query.where(ops_log.c.at < until)
        if target is not None:
            query = query.where(ops_log.c.target == target)
        if before_id is not None:
            query = query.where(ops_log.c.id < before_id)
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def kinds(self) -> list[str]:
        """The action families in the log (what `kind` filters by), sorted."""
        with self.engine.connect() as conn:
            actions = conn.execute(select(ops_log.c.action).distinct()).scalars()
            return sorted({str(a).split(".", 1)[0] for a in actions})

    def count(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(ops_log)).scalar() or 0)

    def verify(self) -> list[str]:
        """Every finding about the chain (empty: the log is intact). With the key: every row
        after the first keyed one must carry its MAC, and the head must be genuine and name the
        last row and the number of rows; without it only the links and the unkeyed rows are
        checked (and a keyed log says so)."""
        with self.engine.connect() as conn:
            return self.verify_in(conn)

    def verify_in(self, conn: Connection) -> list[str]:
        """`verify` in the caller's connection (the audit's one snapshot)."""
        problems: list[str] = []
        prev = GENESIS
        rows, last_id, keyed_seen = 0, None, False
        for r in conn.execute(select(ops_log).order_by(ops_log.c.id)):
            row = dict(r._mapping)
            rows, last_id = rows + 1, int(row["id"])
            if row["prev_hash"] != prev:
                problems.append(f"row {row['id']}: does not follow the row before it")
            if self.key is not None and hmac.compare_digest(row_mac(self.key, row), row["hash"]):
                keyed_seen = True
            elif row_hash(row) == row["hash"] and not keyed_seen:
                pass  # written before the log was keyed: only as its beginning
            elif self.key is None:  # (a keyed row, too, needs the key to be checked)
                problems.append(f"row {row['id']}: content does not match its hash")
            elif row_hash(row) == row["hash"]:
                problems.append(
                    f"row {row['id']}: hashed without the operator-log key after keyed rows "
                    "(the log was rewritten by someone without the key)"
                )
            else:
                problems.append(f"row {row['id']}: content does not match its MAC")
            prev = row["hash"]
        if self.key is None:
            return problems
        head = conn.execute(select(ops_log_head).where(ops_log_head.c.name == HEAD)).first()
        if head is None:
            if keyed_seen:
                problems.append("the operator log's head is missing")
            return problems
        h = head._mapping
        if not hmac.compare_digest(
            head_mac(self.key, int(h["last_id"]), str(h["hash"]), int(h["rows"])), str(h["mac"])
        ):
            problems.append("the operator log's head does not carry its MAC (it was altered)")
        elif int(h["rows"]) != rows or h["last_id"] != last_id or h["hash"] != prev:
            problems.append(
                f"the operator log's head says {h['rows']} rows ending at row {h['last_id']}, "
                f"but the log has {rows} ending at row {last_id}: rows were deleted or added "
                "by someone without the key"
            )
        return problems
