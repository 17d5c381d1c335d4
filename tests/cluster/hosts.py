"""Real table hosts for the cluster tests: `qipai serve` processes on one PostgreSQL schema and
one Redis, each on its own port, and what the tests read back (leases, rounds, metrics)."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tests.conftest import port_open, require_service
from tests.ledger.conftest import PG_URL, pg_database, postgres_available

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("QIPAI_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def require_cluster_services() -> None:
    require_service(postgres_available(), f"PostgreSQL ({PG_URL})")
    require_service(port_open("127.0.0.1", 6379), f"Redis ({REDIS_URL})")


@contextlib.contextmanager
def room_database() -> Iterator[str]:
    """A fresh PostgreSQL schema for one room, migrated by its owner role, served as the
    application role (as in production: the audit refuses a superuser): yields the URL the
    hosts use (the schema as its search_path)."""
    with pg_database("qipai_room") as (app_url, _, schema):
        url = make_url(app_url).update_query_dict({"options": f"-csearch_path={schema}"})
        yield url.render_as_string(hide_password=False)


class HostProcess:
    """One `qipai serve --db <pg> --redis <redis>` process on its own port."""

    def __init__(self, db_url: str, env: dict[str, str], extra: list[str] | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        self.db_url = db_url
        self.env = env
        self.extra = extra or []
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = Path(f"/tmp/qipai-host-{self.port}.log")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self, timeout: float = 180.0) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "qipai.cli",
                "serve",
                "--port",
                str(self.port),
                "--db",
                self.db_url,
                "--redis",
                REDIS_URL,
                *self.extra,
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self.log.open("wb"),
            stderr=subprocess.STDOUT,
        )
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"host exited: {self.log.read_text()[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/api/health", timeout=5).status_code == 200:
                    return
            time.sleep(0.3)
        raise RuntimeError(f"host did not start: {self.log.read_text()[-3000:]}")

    def metric(self, name: str) -> float:
        """A metric's value from this host's /metrics (sum over labels); 0 if absent."""
        body = httpx.get(f"{self.url}/metrics", timeout=10).text
        total = 0.0
        for line in body.splitlines():
            m = re.match(rf"^{re.escape(name)}(\{{[^}}]*\}})? ([0-9.eE+-]+)$", line)
            if m:
                total += float(m.group(2))
        return total

    def signal(self, signum: int) -> None:
        os.kill(self.pid, signum)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGCONT)
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)


def host_env(name: str) -> dict[str, str]:
    """The same room name for every host of a test's room (and the ledger key this test process
    migrated the schema with: the environment's or the default key file)."""
    return {
        **os.environ,
        "QIPAI_CLUSTER__NAME": name,
        "QIPAI_LOG_LEVEL": "warning",
    }


PACE = ["--bot-delay", "0.2", "--between-rounds", "0.5", "--countdown-scale", "0.5"]


def password(name: str) -> str:
    return f"Tq9-{name}-vL3x-plum-Kite"


def sign_up(http: httpx.Client, name: str, deposit: int = 100_000) -> dict[str, str]:
    reply = http.post("/api/signup", json={"username": name, "password": password(name)})
    reply.raise_for_status()
    auth = {"Authorization": f"Bearer {reply.json()['token']}"}
    http.post("/api/wallet/deposit", json={"amount": deposit}, headers=auth).raise_for_status()
    return auth


class Directory:
    """What the test reads from the room's database (leases, rounds)."""

    def __init__(self, db_url: str) -> None:
        self.engine = create_engine(db_url)

    def owners(self) -> dict[str, tuple[str | None, bool]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                text("SELECT table_id, owner, expires_at > now() FROM table_leases")
            ).all()
        return {str(t): (o, bool(h)) for t, o, h in rows}

    def open_round(self, table_id: str) -> tuple[str, str] | None:
        """(round id, seed commitment) of the table's open round."""
        with self.engine.connect() as conn:
            row = conn.execute(
                text(
                    "SELECT id, seed_commitment FROM rounds WHERE table_id = :t AND id NOT IN "
                    "(SELECT round_id FROM round_ends) ORDER BY opened_at DESC LIMIT 1"
                ),
                {"t": table_id},
            ).first()
        return None if row is None else (str(row[0]), str(row[1]))

    def round_status(self, round_id: str) -> str:
        with self.engine.connect() as conn:
            row = conn.execute(
                text("SELECT status FROM round_ends WHERE round_id = :r"), {"r": round_id}
            ).first()
        return "open" if row is None else str(row[0])

    def settled_twice(self) -> list[Any]:
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    text(
                        "SELECT round_id, count(*) FROM round_ends GROUP BY round_id "
                        "HAVING count(*) > 1"
                    )
                ).all()
            )

    def settlements_twice(self) -> list[Any]:
        """Settlement transactions posted twice for one round (a double payout)."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    text(
                        "SELECT round_id, count(*) FROM transactions "
                        "WHERE round_id IS NOT NULL AND kind IN ('settle', 'void_round') "
                        "GROUP BY round_id HAVING count(*) > 1"
                    )
                ).all()
            )

    def close(self) -> None:
        self.engine.dispose()


def start_hosts(db_url: str, env: dict[str, str], count: int) -> list[HostProcess]:
    """`count` hosts at the tests' pace; the first one migrates the schema, then the others."""
    hosts = [HostProcess(db_url, env, PACE) for _ in range(count)]
    for host in hosts:
        host.start()
    return hosts


def wait_for(what: str, check: Callable[[], object], timeout: float = 180.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def seats_of(host: HostProcess, table_id: str) -> dict[str, str]:
    """The people's seats at a table (seat -> name), asked through any host."""
    info = httpx.get(f"{host.url}/api/tables/{table_id}", timeout=30).json()
    return {s["seat"]: s["name"] for s in info["seats"] if s["occupied"] and not s["bot"]}


def host_of(owner: str | None, hosts: list[HostProcess]) -> HostProcess | None:
    """The process whose host id (`<machine>-<pid>-<random>`) is `owner`."""
    for host in hosts:
        if owner is not None and f"-{host.pid}-" in owner:
            return host
    return None


def audit(db_url: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "qipai.cli", "audit", "--db", db_url],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
