"""What operators set about a player: a lock (the player can sign in to nothing and play at no
table) and per-player limits that override the room's quotas and the demo daily limit."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Engine, insert, select, update

from qipai.authority.errors import BadRequest
from qipai.authority.oplog import Actor, OperatorLog
from qipai.authority.schema import player_controls
from qipai.authority.templates import parse_model


class PlayerLimits(BaseModel):
    """Per-player overrides (absent: the room's setting applies)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    max_open_tables: int | None = Field(default=None, ge=0, le=1000)
    max_connections: int | None = Field(default=None, ge=1, le=1000)
    max_watched: int | None = Field(default=None, ge=1, le=1000)
    demo_daily_limit: int | None = Field(default=None, ge=0, le=10**12)


class LimitsChange(PlayerLimits):
    reason: str = Field(min_length=1, max_length=500)


LockKind = Literal["lock", "self_exclusion", "cool_off", "withdrawals_only"]
SIGN_IN_REFUSED: tuple[str, ...] = ("lock", "self_exclusion", "cool_off")
"""Lock kinds that refuse sign-in (withdrawals-only lets the player in to withdraw)."""
SPANNED: tuple[str, ...] = ("self_exclusion", "cool_off")
"""Lock kinds that end by themselves after their span (`until`)."""
MAX_SPAN_S = 10 * 365 * 86_400.0


class LockIn(BaseModel):
    """A lock (docs/operators.md "Locking a player"): `kind`, `reason` and, for self-exclusion
    and cool-off, `days` (how long: the lock lifts itself then)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    reason: str = Field(min_length=1, max_length=500)
    kind: LockKind = "lock"
    days: float | None = Field(default=None, gt=0, le=MAX_SPAN_S / 86_400)


KycStatus = Literal["none", "pending", "verified", "rejected"]


class KycIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    status: KycStatus
    reason: str = Field(min_length=1, max_length=500)


def lock_active(kind: str, until: float | None, locked: bool, now: float) -> str | None:
    """The lock kind in force at `now` (None: none; a spanned lock past its end is none)."""
    if not locked:
        return None
    if kind in SPANNED and until is not None and until <= now:
        return None
    return kind


CONTROLS_TTL_S = 2.0
"""How stale a cached lock or limit may be (seconds): other processes (table hosts, the
`qipai operator` command) write them too. With Redis, a change is also announced to every
host at once (`on_change` / `forget`); this bounds how long a lost announcement matters."""


class PlayerControls:
    def __init__(
        self, engine: Engine, log: OperatorLog, clock: Callable[[], float] = time.time
    ) -> None:
        self.engine = engine
        self.log = log
        self.clock = clock
        self._cache: dict[str, tuple[float, dict[str, Any]]] = {}
        self.on_change: Callable[[str], None] | None = None
        """Called (in the writer's thread) after a player's lock or limits changed here: a
        table host announces it to the others, which `forget` the player's cached entry."""

    def _state(self, player: str) -> dict[str, Any]:
        """The player's controls row (cached; this process's writes and other processes'
        announced changes drop the entry, and it is read again after CONTROLS_TTL_S)."""
        now = time.monotonic()
        cached = self._cache.get(player)
        if cached is not None and now - cached[0] <= CONTROLS_TTL_S:
            return cached[1]
        with self.engine.connect() as conn:
            row = conn.execute(
                select(
                    player_controls.c.locked,
                    player_controls.c.limits,
                    player_controls.c.lock_kind,
                    player_controls.c.lock_until,
                    player_controls.c.kyc,
                ).where(player_controls.c.player == player)
            ).first()
        found: dict[str, Any] = (
            {
                "locked": bool(row[0]),
                "limits": dict(row[1]),
                "kind": str(row[2]),
                "until": row[3],
                "kyc": str(row[4]),
            }
            if row
            else {"locked": False, "limits": {}, "kind": "lock", "until": None, "kyc": "none"}
        )
        if len(self._cache) > 100_000:
            self._cache.clear()
        self._cache[player] = (now, found)
        return found

    def get(self, player: str) -> tuple[bool, dict[str, Any]]:
        """(locked: sign-in refused, limits) of a player."""
        state = self._state(player)
        return self.lock_kind(player) in SIGN_IN_REFUSED, dict(state["limits"])

    def lock_kind(self, player: str) -> str | None:
        """The kind of lock in force now (None: none)."""
        state = self._state(player)
        return lock_active(state["kind"], state["until"], state["locked"], self.clock())

    def play_blocked(self, player: str) -> bool:
        """Whether the player may not play (any lock in force, withdrawals-only included)."""
        return self.lock_kind(player) is not None

    def kyc(self, player: str) -> str:
        return str(self._state(player)["kyc"])

    def forget(self, player: str | None = None) -> None:
        """Drop a player's cached entry (None: every entry): read again at the next use."""
        if player is None:
            self._cache.clear()
        else:
            self._cache.pop(player, None)

    def locked(self, player: str) -> bool:
        return self.get(player)[0]

    def limit(self, player: str, name: str, default: int) -> int:
        value = self.get(player)[1].get(name)
        return default if value is None else int(value)

    def details(self, player: str) -> dict[str, Any]:
        with self.engine.connect() as conn:
            row = (
                conn.execute(select(player_controls).where(player_controls.c.player == player))
                .mappings()
                .first()
            )
        if row is None:
            return {
                "locked": False,
                "lock_reason": "",
                "lock_kind": None,
                "lock_until": None,
                "kyc": "none",
                "limits": {},
            }
        kind = lock_active(row["lock_kind"], row["lock_until"], row["locked"], self.clock())
        return {
            "locked": kind in SIGN_IN_REFUSED,
            "lock_reason": row["lock_reason"] if kind else "",
            "lock_kind": kind,
            "lock_until": row["lock_until"] if kind else None,
            "kyc": row["kyc"],
            "limits": row["limits"],
        }

    def _write(self, player: str, actor: Actor, action: str, reason: str, **values: Any) -> None:
        now = self.clock()
        with self.engine.begin() as conn:
            exists = conn.execute(
                select(player_controls.c.player).where(player_controls.c.player == player)
            ).first()
            if exists:
                conn.execute(
                    update(player_controls)
                    .where(player_controls.c.player == player)
                    .values(updated_at=now, updated_by=actor.name, **values)
                )
            else:
                base = {"locked": False, "lock_reason": "", "limits": {}}
                base.update(values)
                conn.execute(
                    insert(player_controls).values(
                        player=player, updated_at=now, updated_by=actor.name, **base
                    )
                )
            self.log.append_in(conn, actor, action, player, reason, values)
        self._cache.pop(player, None)
        if self.on_change is not None:
            self.on_change(player)

    def lock(
        self,
        player: str,
        actor: Actor,
        reason: str,
        locked: bool = True,
        kind: str = "lock",
        days: float | None = None,
    ) -> None:
        """Lock (of `kind`; self-exclusion and cool-off for `days`) or unlock a player."""
        body: LockIn = parse_model(LockIn, {"reason": reason, "kind": kind, "days": days})
        if body.kind in SPANNED and body.days is None:
            raise BadRequest(f"a {body.kind} lasts a number of days", "days")
        if body.kind not in SPANNED and body.days is not None:
            raise BadRequest(f"a {body.kind} has no span (it lasts until lifted)", "days")
        until = None if body.days is None else self.clock() + body.days * 86_400
        self._write(
            player,
            actor,
            "player.lock" if locked else "player.unlock",
            reason,
            locked=locked,
            lock_reason=reason if locked else "",
            lock_kind=body.kind if locked else "lock",
            lock_until=until if locked else None,
        )

    def set_kyc(self, player: str, actor: Actor, data: object) -> str:
        """The player's KYC status (withdrawals need `verified` where the room says so)."""
        body: KycIn = parse_model(KycIn, data)
        self._write(player, actor, "player.kyc", body.reason, kyc=body.status)
        return body.status

    def set_limits(self, player: str, actor: Actor, data: object) -> dict[str, Any]:
        body: LimitsChange = parse_model(LimitsChange, data)
        limits = body.model_dump(exclude={"reason"}, exclude_none=True)
        self._write(player, actor, "player.limits", body.reason, limits=limits)
        return limits
