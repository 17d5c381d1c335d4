"""Four-eyes (docs/operators.md §2): what one operator asks for waits for a second operator.

Ledger adjustments, withdrawals above the room's threshold and template changes (new template,
new version, retirement) are *requests* here: the asking operator's input is checked at once
(bad input is refused before anything waits), then the request waits as `pending` until another
operator who holds the kind's capability (`roles.FOUR_EYES`) approves it — the action then runs
under the asker's name with the approver recorded — or rejects it. Nobody decides their own
request (403 `own_request`). A decision claims the request conditionally (`status = 'pending'`
in the UPDATE): of two decisions at once exactly one runs it, on SQLite and PostgreSQL alike.
Every request and decision is a line of the operator log.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, Engine, RowMapping, insert, select, update

from qipai.authority.errors import AuthorityError, Conflict, NotFound, OwnRequest, RoleForbidden
from qipai.authority.oplog import Actor, OperatorLog
from qipai.authority.roles import FOUR_EYES, may
from qipai.authority.schema import approvals

Runner = Callable[[dict[str, Any], Actor, Actor, str], dict[str, Any]]
"""Runs an approved request: (payload, asker, approver, approver's reason) -> its result."""

MAX_PENDING = 200
"""Requests waiting at once in the whole room: a flood of requests is refused, not stored."""


def _row(conn: Connection, approval_id: int) -> RowMapping:
    row = conn.execute(select(approvals).where(approvals.c.id == approval_id)).mappings().first()
    if row is None:
        raise NotFound(f"no approval request {approval_id}", "approval_id")
    return row


def _json(row: RowMapping) -> dict[str, Any]:
    found = dict(row)
    found["payload"] = {k: v for k, v in dict(found["payload"]).items() if k != "_role"}
    return found


class Approvals:
    def __init__(
        self, engine: Engine, log: OperatorLog, clock: Callable[[], float] = time.time
    ) -> None:
        self.engine = engine
        self.log = log
        self.clock = clock
        self.runners: dict[str, Runner] = {}

    def register(self, kind: str, runner: Runner) -> None:
        assert kind in FOUR_EYES, kind
        self.runners[kind] = runner

    def request(
        self, kind: str, target: str, payload: dict[str, Any], actor: Actor, reason: str
    ) -> dict[str, Any]:
        """A request of `kind` waiting for a second operator (its input already checked)."""
        assert kind in self.runners, kind
        with self.engine.begin() as conn:
            waiting = conn.execute(
                select(approvals.c.id).where(approvals.c.status == "pending").limit(MAX_PENDING)
            ).all()
            if len(waiting) >= MAX_PENDING:
                raise Conflict(f"{MAX_PENDING} requests wait for approval already")
            key = conn.execute(
                insert(approvals).values(
                    kind=kind,
                    target=target[:200],
                    payload={**payload, "_role": actor.role},
                    reason=reason,
                    requested_by=actor.name,
                    requested_at=self.clock(),
                    status="pending",
                )
            ).inserted_primary_key
            assert key is not None
            self.log.append_in(
                conn, actor, f"approval.request.{kind}", target[:200], reason, {"id": int(key[0])}
            )
            return _json(_row(conn, int(key[0])))

    def get(self, approval_id: int) -> dict[str, Any]:
        with self.engine.connect() as conn:
            return _json(_row(conn, approval_id))

    def pending_for(self, kind: str, target: str) -> dict[str, Any] | None:
        """The pending request of `kind` about `target`, if there is one."""
        with self.engine.connect() as conn:
            row = (
                conn.execute(
                    select(approvals).where(
                        approvals.c.kind == kind,
                        approvals.c.target == target,
                        approvals.c.status == "pending",
                    )
                )
                .mappings()
                .first()
            )
        return None if row is None else _json(row)

    def list(
        self, *, status: str | None = None, kind: str | None = None, limit: int = 50
    ) -> list[dict[str, Any]]:
        query = select(approvals).order_by(approvals.c.id.desc()).limit(limit)
        if status is not None:
            query = query.where(approvals.c.status == status)
        if kind is not None:
            query = query.where(approvals.c.kind == kind)
        with self.engine.connect() as conn:
            return [_json(r) for r in conn.execute(query).mappings()]

    def decide(self, approval_id: int, approve: bool, actor: Actor, reason: str) -> dict[str, Any]:
        """Approve (the action runs now) or reject another operator's request."""
        if not reason.strip():
            from qipai.authority.errors import BadRequest

            raise BadRequest("a reason of 1-500 characters", "reason")
        with self.engine.connect() as conn:
            row = _row(conn, approval_id)
        kind = str(row["kind"])
        if row["status"] != "pending":
            raise Conflict(f"approval request {approval_id} is {row['status']} already")
        if row["requested_by"] == actor.name:
            self.log.append(actor, f"approval.{kind}", str(approval_id), reason, {}, "refused")
            raise OwnRequest("another operator must decide your own request", "approval_id")
        if not may(actor.role, FOUR_EYES[kind]):
            raise RoleForbidden(f"a {actor.role} cannot decide a {kind} request", "approval_id")
        with self.engine.begin() as conn:
            claimed = conn.execute(
                update(approvals)
                .where(approvals.c.id == approval_id, approvals.c.status == "pending")
                .values(
                    status="approved" if approve else "rejected",
                    decided_by=actor.name,
                    decided_at=self.clock(),
                    decision_reason=reason,
                )
            )
            if claimed.rowcount != 1:
                raise Conflict(f"approval request {approval_id} was decided meanwhile")
            if not approve:
                self.log.append_in(conn, actor, f"approval.reject.{kind}", str(approval_id), reason)
        if not approve:
            return self.get(approval_id)
        payload = dict(row["payload"])
        asker = Actor(str(row["requested_by"]), str(payload.pop("_role", "unknown")))
        try:
            result = self.runners[kind](payload, asker, actor, reason)
        except AuthorityError as exc:
            self._finish(approval_id, "failed", {"error": exc.to_json()}, actor, kind, reason)
            raise
        except Exception as exc:  # the ledger refused (funds, a closed hold): nothing moved
            error = {"code": "failed", "message": str(exc)[:500]}
            self._finish(approval_id, "failed", {"error": error}, actor, kind, reason)
            raise
        self._finish(approval_id, "approved", result, actor, kind, reason)
        return self.get(approval_id)

    def _finish(
        self,
        approval_id: int,
        status: str,
        result: dict[str, Any],
        actor: Actor,
        kind: str,
        reason: str,
    ) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(approvals)
                .where(approvals.c.id == approval_id)
                .values(status=status, result=result)
            )
            self.log.append_in(
                conn,
                actor,
                f"approval.approve.{kind}",
                str(approval_id),
                reason,
                {"result": result} if status == "approved" else result,
                "ok" if status == "approved" else "refused",
            )
