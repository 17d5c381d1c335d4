"""`qipai serve --processes N`: N table hosts behind one address.

The parent binds nothing and serves nothing: it starts N worker processes and keeps them
running (a worker that dies is started again, as a new host; the others take its tables over
by their leases meanwhile), and passes SIGTERM/SIGINT on to them. Each worker listens on the
room's address with `SO_REUSEPORT` (the kernel spreads the connections over the workers) and on
a private port of its own, its address in the room's host directory (other hosts forward the
lobby's requests about its tables there).
"""

from __future__ import annotations

import multiprocessing
import signal
import socket
import sys
import time
from multiprocessing.process import BaseProcess
from types import FrameType
from typing import Any

from qipai.server.settings import Settings

DRAINED = 4
"""A worker's exit code after an operator drained it: the supervisor does not start it again."""


def reuse_port_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.setblocking(False)
    return sock


def private_socket(host: str) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.bind((host, 0))
    sock.listen(512)
    sock.setblocking(False)
    return sock


def advertised(host: str, port: int) -> str:
    """The address other hosts reach this one at (an any-address bind: this machine's name)."""
    if host in ("0.0.0.0", "::", ""):
        host = socket.gethostbyname(socket.gethostname())
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def serve_worker(settings: Settings, sockets: list[socket.socket]) -> None:
    """Run one table host on already bound sockets (the last one is its own address)."""
    import uvicorn

    from qipai.server.app import create_app
    from qipai.server.serving import uvicorn_options

    own = sockets[-1].getsockname()
    cluster = settings.cluster
    if cluster.advertise is None:
        cluster = cluster.model_copy(update={"advertise": advertised(settings.host, own[1])})
    settings = settings.model_copy(update={"cluster": cluster})
    app = create_app(settings=settings)
    config = uvicorn.Config(
        app,
        log_level=settings.log_level,
        **uvicorn_options(settings),
        # the server's JSON lines (qipai/server/logs.py, started by the caller) replace
        # uvicorn's handlers and access log
        log_config=None,
        access_log=False,
    )
    server = uvicorn.Server(config)
    node = app.state.services.cluster
    drained = False
    if node is not None:

        def stop_drained() -> None:
            nonlocal drained
            drained = True
            server.should_exit = True

        node.on_drained = stop_drained
    server.run(sockets=sockets)
    if drained:
        raise SystemExit(DRAINED)


def _worker_main(settings: Settings, index: int) -> None:
    from qipai.ledger.errors import LedgerKeyError

    try:
        shared = reuse_port_socket(settings.host, settings.port)
        own = private_socket(settings.host)
    except OSError as exc:
        print(f"error: cannot listen on {settings.host}:{settings.port}: {exc}", file=sys.stderr)
        raise SystemExit(3) from None
    try:
        from qipai.server.logs import ServerLog

        # every process writes its own JSON lines: a request is served by one process only
        logs = ServerLog(settings.log_level).start()
        try:
            serve_worker(settings, [shared, own])
        finally:
            logs.stop()
    except LedgerKeyError as exc:
        print(f"error: {exc}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None


def run(settings: Settings, processes: int) -> None:
    """Start `processes` workers on the settings' address and supervise them until stopped."""
    ctx = multiprocessing.get_context("spawn")
    workers: list[BaseProcess | None] = [None] * processes
    stopping = False

    def start(index: int) -> None:
        proc = ctx.Process(
            target=_worker_main, args=(settings, index), name=f"qipai-host-{index}", daemon=False
        )
        proc.start()
        workers[index] = proc

    def stop(signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True
        for proc in workers:
            if proc is not None and proc.is_alive() and proc.pid is not None:
                with _suppress():
                    signal_proc(proc.pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for index in range(processes):
        start(index)
    started: dict[int, float] = dict.fromkeys(range(processes), time.monotonic())
    while not stopping:
        time.sleep(0.2)
        for index, proc in enumerate(workers):
            if stopping or proc is None or proc.is_alive():
                continue
            code = proc.exitcode
            if code == DRAINED:  # an operator drained it: its tables run elsewhere now
                print(f"qipai: table host {index} drained; not started again", file=sys.stderr)
                workers[index] = None
                if all(w is None for w in workers):
                    stopping = True
                continue
            if code in (2, 3) and time.monotonic() - started[index] < 30:
                # refused at start (bad settings, a lock): starting again cannot help
                print(f"error: table host {index} exited with code {code}", file=sys.stderr)
                stop(signal.SIGTERM, None)
                break
            print(f"qipai: table host {index} ended ({code}); starting it again", file=sys.stderr)
            start(index)
            started[index] = time.monotonic()
    deadline = time.monotonic() + settings.shutdown_timeout_s + 15
    for proc in workers:
        if proc is not None:
            proc.join(max(0.1, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()


def signal_proc(pid: int, signum: int) -> None:
    import os

    os.kill(pid, signum)


class _suppress:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> bool:
        return exc[0] is not None and issubclass(exc[0], ProcessLookupError)


__all__ = ["DRAINED", "advertised", "private_socket", "reuse_port_socket", "run", "serve_worker"]
