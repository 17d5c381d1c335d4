"""Helpers for the browser and process tests: a real `qipai serve` subprocess."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
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
        self.lines: list[bytes] = []  # the server's output so far (stdout and stderr)
        self._reader: threading.Thread | None = None

    def _drain(self) -> None:
        """Read the server's output as it comes: a pipe nobody reads fills up (64 kB) and
        blocks the server on its next log line."""
        assert self.proc is not None and self.proc.stdout is not None
        for line in iter(self.proc.stdout.readline, b""):
            self.lines.append(line)

    def output(self, timeout: float = 10.0) -> str:
        """Everything the server wrote so far (all of it once the process has exited)."""
        if self.proc is not None and self.proc.poll() is not None and self._reader is not None:
            self._reader.join(timeout)
        return b"".join(self.lines).decode(errors="replace")

    def start(self, timeout: float = 600.0) -> None:
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
        self.lines = []
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.output()}")
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
