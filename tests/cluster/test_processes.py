"""`qipai serve --processes 2` (PostgreSQL + Redis): two table hosts behind one address, both in
the room's host directory with their own addresses; a table opened through the shared address
is reachable whichever worker answers; SIGTERM to the parent stops both."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import redis

from tests.cluster.hosts import (
    REDIS_URL,
    ROOT,
    free_port,
    host_env,
    require_cluster_services,
    room_database,
    sign_up,
)

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]


def test_two_processes_behind_one_address(tmp_path: Path) -> None:
    require_cluster_services()
    name = f"t{time.time_ns()}"
    env = host_env(name)
    port = free_port()
    with room_database() as db_url:
        log = (tmp_path / "serve.log").open("wb")
        proc = subprocess.Popen(
            [sys.executable, "-m", "qipai.cli", "serve", "--port", str(port), "--db", db_url,
             "--processes", "2", "--redis", REDIS_URL],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        directory = redis.Redis.from_url(REDIS_URL, decode_responses=True)
        try:
            deadline = time.monotonic() + 300
            hosts: dict[str, str] = {}
            while time.monotonic() < deadline:
                hosts = directory.hgetall(f"{name}:hosts")
                if len(hosts) == 2:
                    break
                assert proc.poll() is None, (tmp_path / "serve.log").read_text()
                time.sleep(0.5)
            assert len(hosts) == 2
            addresses = {json.loads(v)["http"] for v in hosts.values()}
            assert len(addresses) == 2 and all(a.startswith("http://127.0.0.1:") for a in addresses)
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
                auth = sign_up(http, "duo")
                matched = http.post(
                    "/api/automatch", json={"game": "pokdeng", "buy_in": 10_000}, headers=auth
                )
                assert matched.status_code == 200, matched.text
                table = matched.json()["table_id"]
            for _ in range(6):  # fresh connections: the kernel spreads them over the workers
                with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
                    info = http.get(f"/api/tables/{table}")
                    assert info.status_code == 200 and info.json()["id"] == table
            for address in addresses:  # and each worker answers for it (its own or forwarded)
                assert httpx.get(f"{address}/api/tables/{table}", timeout=60).status_code == 200
        finally:
            proc.send_signal(signal.SIGTERM)
            code = proc.wait(timeout=90)
            log.close()
        assert code == 0
        assert directory.hlen(f"{name}:hosts") == 0  # both withdrew from the directory
