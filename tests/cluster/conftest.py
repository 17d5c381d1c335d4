"""Fixtures shared by the cluster tests: two in-process table hosts on one PostgreSQL schema
(`tests/cluster/inproc.py`) and a room database with the environment of real host processes
(`tests/cluster/hosts.py`)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from sqlalchemy import text

from qipai.tables.ports import ManualClock
from tests.cluster.hosts import host_env, require_cluster_services, room_database
from tests.cluster.inproc import Host, TwoHosts
from tests.ledger.conftest import pg_database


@pytest.fixture(scope="module")
def database(request: pytest.FixtureRequest) -> Iterator[tuple[str, str]]:
    """A PostgreSQL schema of the test module's own."""
    name = request.module.__name__.rsplit(".", 1)[-1].removeprefix("test_")[:12]
    with pg_database(f"qipai_{name}") as (url, _, schema):
        yield url, schema


@pytest.fixture
def two_hosts(database: tuple[str, str]) -> Iterator[TwoHosts]:
    """Hosts "host-a" and "host-b" on the module's schema and one virtual clock; the tables
    of the module's earlier tests are given to nobody here (leased far ahead)."""
    url, schema = database
    clock = ManualClock()
    a, b = Host(url, schema, "host-a", clock), Host(url, schema, "host-b", clock)
    with a.ledger.engine.begin() as conn:
        conn.execute(
            text(
                "UPDATE table_leases SET owner = 'earlier-test', expires_at = now() + interval '1 day'"
            )
        )
    try:
        yield TwoHosts(a, b, a.ledger, clock)
    finally:
        a.close()
        b.close()


@pytest.fixture
def room() -> Iterator[tuple[str, dict[str, str]]]:
    """A fresh room database and the environment of its host processes (PostgreSQL + Redis)."""
    require_cluster_services()
    with room_database() as db_url:
        yield db_url, host_env(f"t{time.time_ns()}")
