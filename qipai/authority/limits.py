"""Players' money limits (docs/operators.md "Money controls"): deposit, loss, wager and
withdrawal per UTC day (minor units) and session length (minutes), each set by the player and
by the operator; the lower of the two applies.

A player lowers their own limit at once; a raise (or removing it) waits for the room's cooling
period (`AuthoritySettings.limit_cooling_s`) and only then applies — so a limit set in a calm
moment holds through a heated one. The operator's limit applies at once either way.
`effective` is a pure function of the stored row and the time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection, Engine, insert, select, update

from qipai.authority.errors import LimitReached
from qipai.authority.oplog import Actor, OperatorLog
from qipai.authority.schema import player_limits
from qipai.authority.templates import parse_model

Kind = Literal["deposit", "loss", "wager", "session", "withdrawal"]
KINDS: tuple[Kind, ...] = ("deposit", "loss", "wager", "session", "withdrawal")
MAX_LIMIT = 10**12


class LimitIn(BaseModel):
    """One limit: `kind` and `value` (null: none)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Kind
    value: int | None = Field(ge=0, le=MAX_LIMIT)


class OperatorLimitIn(LimitIn):
    reason: str = Field(min_length=1, max_length=500)


def _lower(a: int | None, b: int | None) -> int | None:
    """The lower of two limits (None: no limit)."""
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)


def player_value(row: dict[str, Any], now: float) -> int | None:
    """The player's own limit at `now`: a pending raise counts once its cooling period ended."""
    if row.get("pending_from") is not None and now >= float(row["pending_from"]):
        pending = row.get("pending_value")
        return None if pending is None else int(pending)
    value = row.get("player_value")
    return None if value is None else int(value)


def effective(row: dict[str, Any] | None, now: float) -> int | None:
    """The limit that applies at `now`: the lower of the player's and the operator's."""
    if row is None:
        return None
    operator = row.get("operator_value")
    return _lower(player_value(row, now), None if operator is None else int(operator))


def _is_raise(current: int | None, new: int | None) -> bool:
    """Whether going from `current` to `new` loosens the limit (None is no limit)."""
    if current is None:
        return False
    return new is None or new > current


class MoneyLimits:
    def __init__(
        self,
        engine: Engine,
        log: OperatorLog,
        cooling_s: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.engine = engine
        self.log = log
        self.cooling_s = cooling_s
        self.clock = clock

    def _rows(self, conn: Connection, player: str) -> dict[str, dict[str, Any]]:
        rows = conn.execute(select(player_limits).where(player_limits.c.player == player))
        return {str(r["kind"]): dict(r) for r in rows.mappings()}

    def of(self, player: str) -> dict[str, dict[str, Any]]:
        """Every kind: `player`, `operator`, `pending` (with `pending_from`) and `effective`."""
        now = self.clock()
        with self.engine.connect() as conn:
            rows = self._rows(conn, player)
        found: dict[str, dict[str, Any]] = {}
        for kind in KINDS:
            row = rows.get(kind)
            waiting = row is not None and row.get("pending_from") is not None
            waiting = waiting and now < float(row["pending_from"])  # type: ignore[index]
            found[kind] = {
                "player": None if row is None else player_value(row, now),
                "operator": None if row is None else row["operator_value"],
                "pending": row["pending_value"] if waiting and row else None,
                "pending_from": row["pending_from"] if waiting and row else None,
                "effective": effective(row, now),
            }
        return found

    def limit(self, player: str, kind: Kind, conn: Connection | None = None) -> int | None:
        """The limit of `kind` that applies now (read on `conn`, the caller's transaction,
        when given: SQLite's writer holds the only write lock)."""
        query = select(player_limits).where(
            player_limits.c.player == player, player_limits.c.kind == kind
        )
        if conn is None:
            with self.engine.connect() as own:
                row = own.execute(query).mappings().first()
        else:
            row = conn.execute(query).mappings().first()
        return effective(None if row is None else dict(row), self.clock())

    def check(
        self,
        player: str,
        kind: Kind,
        used: int,
        amount: int,
        conn: Connection | None = None,
    ) -> None:
        """Refuse (403 `limit_reached`, naming `amount`) what would pass the daily limit."""
        limit = self.limit(player, kind, conn)
        if limit is not None and used + amount > limit:
            left = max(0, limit - used)
            raise LimitReached(
                f"your {kind} limit is {limit} a day; {left} left today (UTC)", "amount"
            )

    def _write(self, player: str, kind: str, actor: Actor, reason: str, **values: Any) -> None:
        now = self.clock()
        with self.engine.begin() as conn:
            exists = self._rows(conn, player).get(kind)
            if exists is None:
                base: dict[str, Any] = {
                    "player_value": None,
                    "operator_value": None,
                    "pending_value": None,
                    "pending_from": None,
                }
                base.update(values)
                conn.execute(
                    insert(player_limits).values(
                        player=player, kind=kind, updated_at=now, updated_by=actor.name, **base
                    )
                )
            else:
                conn.execute(
                    update(player_limits)
                    .where(player_limits.c.player == player, player_limits.c.kind == kind)
                    .values(updated_at=now, updated_by=actor.name, **values)
                )
            self.log.append_in(conn, actor, f"limit.{kind}", player, reason, values)

    def set_by_player(self, player: str, data: object) -> dict[str, Any]:
        """The player's own limit: lowered (or first set) at once, raised after cooling."""
        body: LimitIn = parse_model(LimitIn, data)
        now = self.clock()
        with self.engine.connect() as conn:
            row = self._rows(conn, player).get(body.kind)
        current = None if row is None else player_value(row, now)
        actor = Actor(player, "player")
        if _is_raise(current, body.value):
            self._write(
                player,
                body.kind,
                actor,
                "raise after the cooling period",
                player_value=current,
                pending_value=body.value,
                pending_from=now + self.cooling_s,
            )
        else:
            self._write(
                player,
                body.kind,
                actor,
                "lowered",
                player_value=body.value,
                pending_value=None,
                pending_from=None,
            )
        return self.of(player)[body.kind]

    def set_by_operator(self, player: str, actor: Actor, data: object) -> dict[str, Any]:
        body: OperatorLimitIn = parse_model(OperatorLimitIn, data)
        self._write(player, body.kind, actor, body.reason, operator_value=body.value)
        return self.of(player)[body.kind]


def wagered_since(engine: Engine, player: str, since: float) -> int:
    """What the player staked at tables since `since` (UNIX seconds): the stake holds rounds
    put on their stacks (one per seat and round, `holds.round_id` set)."""
    from datetime import UTC, datetime

    from sqlalchemy import func

    from qipai.ledger.schema import accounts, holds

    start = datetime.fromtimestamp(since, UTC)
    with engine.connect() as conn:
        total = conn.execute(
            select(func.coalesce(func.sum(holds.c.amount), 0))
            .join(accounts, accounts.c.id == holds.c.source_account_id)
            .where(
                accounts.c.owner == player,
                holds.c.round_id.is_not(None),
                holds.c.created_at >= start,
            )
        ).scalar()
    return int(total or 0)
