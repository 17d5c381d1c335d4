"""What operators set about a player: a lock (the player can sign in to nothing and play at no
table) and per-player limits that override the room's quotas and the demo daily limit."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

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
        self._cache: dict[str, tuple[float, tuple[bool, dict[str, Any]]]] = {}
        self.on_change: Callable[[str], None] | None = None
        """Called (in the writer's thread) after a player's lock or limits changed here: a
        table host announces it to the others, which `forget` the player's cached entry."""

    def get(self, player: str) -> tuple[bool, dict[str, Any]]:
        """(locked, limits) of a player (cached; this process's writes and other processes'
        announced changes drop the entry, and it is read again after CONTROLS_TTL_S)."""
        now = time.monotonic()
        cached = self._cache.get(player)
        if cached is not None and now - cached[0] <= CONTROLS_TTL_S:
            return cached[1]
        with self.engine.connect() as conn:
            row = conn.execute(
                select(player_controls.c.locked, player_controls.c.limits).where(
                    player_controls.c.player == player
                )
            ).first()
        found = (bool(row[0]), dict(row[1])) if row else (False, {})
        if len(self._cache) > 100_000:
            self._cache.clear()
        self._cache[player] = (now, found)
        return found

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
            return {"locked": False, "lock_reason": "", "limits": {}}
        return {"locked": row["locked"], "lock_reason": row["lock_reason"], "limits": row["limits"]}

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

    def lock(self, player: str, actor: Actor, reason: str, locked: bool = True) -> None:
        if not isinstance(reason, str) or not 1 <= len(reason) <= 500:
            raise BadRequest("a reason of 1-500 characters", "reason")
        self._write(
            player,
            actor,
            "player.lock" if locked else "player.unlock",
            reason,
            locked=locked,
            lock_reason=reason if locked else "",
        )

    def set_limits(self, player: str, actor: Actor, data: object) -> dict[str, Any]:
        body: LimitsChange = parse_model(LimitsChange, data)
        limits = body.model_dump(exclude={"reason"}, exclude_none=True)
        self._write(player, actor, "player.limits", body.reason, limits=limits)
        return limits
