"""Helpers for the browser and process tests: a real `qipai serve` subprocess."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "test-output"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """`qipai serve` in a subprocess on a free port with its own SQLite file."""

    def __init__(self, db: Path, env: dict[str, str] | None = None) -> None:
        self.db = db
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, **(env or {})}
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 120.0) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "qipai.cli",
                "serve",
                "--port",
                str(self.port),
                "--db",
                str(self.db),
            ],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                out = self.proc.stdout.read().decode() if self.proc.stdout else ""
                raise RuntimeError(f"server exited: {out}")
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("server did not start")

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.kill()  # SIGKILL: no shutdown handlers run
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
