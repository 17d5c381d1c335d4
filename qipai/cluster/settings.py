"""A table host's cluster settings (`QIPAI_CLUSTER__<NAME>`, `qipai serve --redis/--processes`)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator


class ClusterSettings(BaseModel):
    """How a process takes part in a room of several processes (PostgreSQL only).

    With PostgreSQL every process owns its tables under leases (renewed every `renew_s`, lapsing
    after `lease_ttl_s`); with `redis_url` the processes also route clients' messages to the
    owners of their tables (one room behind any number of front doors)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    redis_url: str | None = Field(
        default=None, description="Redis of the room's routing (redis://host:6379/0); none: alone"
    )
    name: str = Field(
        default="qipai",
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9_.-]+$",
        description="the room's name in Redis (several rooms can share one Redis)",
    )
    lease_ttl_s: float = Field(default=3.0, gt=0, le=3600, description="a lease lapses after")
    renew_s: float = Field(default=1.0, gt=0, le=600, description="leases are renewed every")
    call_timeout_s: float = Field(
        default=3.0, gt=0, le=60, description="a forwarded call waits this long for the owner"
    )
    redis_timeout_s: float = Field(
        default=2.0,
        gt=0,
        le=60,
        description="a Redis command, connection attempt or silent subscription is given up after"
        " this (then retried): a Redis gone silent is noticed, and left, this soon",
    )
    play_timeout_s: float = Field(
        default=15.0,
        gt=0,
        le=600,
        description="a forwarded action or subscription waits this long for the table's owner"
        " (a busy owner answers late; calls to a host that left the directory fail at once)",
    )
    forward_timeout_s: float = Field(
        default=30.0,
        gt=0,
        le=600,
        description="an HTTP request forwarded to another host (a table's owner, the placed host)"
        " waits this long for its answer",
    )
    drain_timeout_s: float = Field(
        default=120.0,
        gt=0,
        le=3600,
        description="a drain waits this long for each table's round boundary, then stops anyway",
    )
    table_workers: int = Field(
        default=32,
        ge=1,
        le=64,
        description="a table host's threads running table work (QIPAI_CLUSTER__TABLE_WORKERS;"
        " QIPAI_TABLE_WORKERS, when set, wins): each waits for its table's commits, so the more"
        " of them, the more tables share a commit (docs/scaling.md)",
    )
    pg_writers: int = Field(
        default=4,
        ge=1,
        le=8,
        description="a table host's ledger writer lanes (QIPAI_CLUSTER__PG_WRITERS;"
        " QIPAI_PG_WRITERS, when set, wins): each its own connection and group commit",
    )
    resume_threads: int = Field(
        default=64,
        ge=1,
        le=128,
        # each resume is ~3 ms of CPU and one journal commit ("resumed"): more side by side
        # share commits (measured: 259 resumes took 3.5 s with 16, for 0.75 s of CPU)
        description="tables of a dead host resumed side by side",
    )
    advertise: str | None = Field(
        default=None,
        description="this process's own HTTP address for the other processes (http://ip:port)",
    )
    host_id: str | None = Field(
        default=None, max_length=120, description="this process's id in the room (default: unique)"
    )

    @model_validator(mode="after")
    def _renew_before_lapse(self) -> ClusterSettings:
        if self.renew_s * 2 > self.lease_ttl_s:
            raise ValueError("renew_s must be at most half of lease_ttl_s")
        return self


__all__ = ["ClusterSettings"]
