"""Abuse against one `qipai serve` process: does anyone else notice?

A baseline client measures `GET /api/games` and WebSocket ping→pong latency (sequentially, about
20 of each per second) while a Pok Deng table with bots plays. The server is measured once its start-up warm-up is done
(`qipai_warming 0`). First without abuse, then under
each abuse in turn:

  (a) 20 wrong sign-ins per second (random existing accounts, one address);
  (b) one client flooding 5,000 frames per second (reconnecting whenever it is closed);
  (c) 100 sockets that never read (subscribed to the busy table, receive window 4 kB);
  (d) 2,000 idle signed-in sockets;
  (e) operator sign-in flood: 16 workers from 16 addresses, wrong names and passwords, each
      sending its next attempt as soon as the last is answered;
  (f) player sign-in flood: the same with wrong passwords of existing accounts;
  (g) table creation by 30 accounts at once (each from its own address, as fast as answered);
  (h) huge bodies: 8 workers posting 4 MB and 100,000-deep JSON bodies to sign-in and tables.

The server runs with its default limits, the connection limit per address included: the
sockets of (c) and (d) each come from an address of their own (127.1.x.y), as real clients
do; the flooder of (b) reconnects from one address (127.2.0.1) and the guesser of (a) signs in
from another (127.3.0.1), neither the probe's (127.0.0.1).

Each abuse runs in a process of its own (this script again, `--abuser`), so that the probe's
figures are the server's and not the abuser's: a flooding client in the probe's own event loop
delays the probe itself. (c) and (d) open all their sockets first; the phase is measured once
they are all open (idle, not connecting).

Prints p50/p99 of both latencies beside the no-abuse baseline (and the ratio of the p99s), the
event-loop lag during the phase (the server's own `qipai_event_loop_lag` histogram: p99 bucket
and max of the sampled gauge), the server's CPU use (whole process and event-loop thread: what
each abuse costs the server, less dependent on a busy machine), the server's resident memory and, for (c)/(d), the memory per
socket; then each goal with "met" or "NOT met" and the load average. Goal (docs/security.md): p99 under
abuse <= 3 x the baseline p99 and <= 50 ms; memory per never-reading socket <= 256 kB.

    uv run python benchmarks/bench_abuse.py                 # every scenario, 10 s each
    uv run python benchmarks/bench_abuse.py --seconds 5 --only a,b
    uv run python benchmarks/bench_abuse.py --only a --profile /tmp/a.prof   # server under cProfile
    uv run python benchmarks/bench_abuse.py --refusal-cost 20000   # CPU per refused reconnection
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]


def prepare(db: Path, n: int) -> list[str]:
    """`n` accounts with wallets and session tokens, straight into the database (one scrypt)."""
    from sqlalchemy import insert

    from qipai.ledger import Ledger
    from qipai.server.store import RoomStore, room_users

    ledger = Ledger.open(str(db))
    store = RoomStore(ledger.engine)
    store.create_user("abuser0", "a-long-password")
    with ledger.engine.connect() as conn:
        row = conn.execute(room_users.select()).first()
    assert row is not None
    with ledger.engine.begin() as conn:
        conn.execute(
            insert(room_users),
            [
                {
                    "username": f"abuser{i}",
                    "username_key": f"abuser{i}",
                    "salt": row.salt,
                    "pw_hash": row.pw_hash,
                    "created_at": 0.0,
                }
                for i in range(1, n)
            ],
        )
    tokens = []
    for i in range(n):
        if i < 3:
            ledger.create_user(f"abuser{i}", f"abuser{i}")
            ledger.deposit(f"abuser{i}", 1_000_000, f"bench-{i}")
        tokens.append(store.new_session(f"abuser{i}"))
    ledger.close()
    return tokens


def rss_kb(pid: int) -> int:
    text = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"VmRSS:\s+(\d+) kB", text)
    return int(found.group(1)) if found else 0


def cpu_s(pid: int, task: int | None = None) -> float:
    """CPU seconds (user + system) of the process, or of one of its threads (`task`)."""
    path = f"/proc/{pid}/stat" if task is None else f"/proc/{pid}/task/{task}/stat"
    fields = Path(path).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def switches(pid: int) -> tuple[int, int]:
    """(voluntary, involuntary) context switches of the process's main (event-loop) thread.
    Voluntary: the loop waited (idle in epoll, or for the GIL or a lock); involuntary: the
    kernel took the CPU from it (another runnable thread or process: the machine's load)."""
    text = Path(f"/proc/{pid}/task/{pid}/status").read_text()
    vol = re.search(r"^voluntary_ctxt_switches:\s+(\d+)", text, re.M)
    invol = re.search(r"^nonvoluntary_ctxt_switches:\s+(\d+)", text, re.M)
    return (int(vol.group(1)) if vol else 0, int(invol.group(1)) if invol else 0)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def lag_histogram(text: str) -> dict[float, float]:
    out: dict[float, float] = {}
    for m in re.finditer(r'qipai_event_loop_lag_bucket\{le="([^"]+)"\} ([0-9.e+]+)', text):
        out[float(m.group(1))] = float(m.group(2))
    return out


def lag_p99(before: dict[float, float], after: dict[float, float]) -> float:
    bounds = sorted(after)
    total = after[bounds[-1]] - before.get(bounds[-1], 0.0)
    if total <= 0:
        return float("nan")
    for b in bounds:
        if after[b] - before.get(b, 0.0) >= 0.99 * total:
            return b
    return float("inf")


class Probe:
    """The baseline client: GET /api/games and WebSocket ping, one after the other."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url
        self.token = token
        self.http: list[float] = []
        self.ping: list[float] = []
        self.lag_seen: list[float] = []
        self.errors = 0

    async def run(self, stop: asyncio.Event) -> None:
        async with (
            httpx.AsyncClient(base_url=self.url, timeout=30) as http,
            websockets.connect(self.url.replace("http", "ws") + "/ws", ping_interval=None) as ws,
        ):
            await ws.send(json.dumps({"type": "auth", "token": self.token}))
            assert json.loads(await ws.recv())["type"] == "hello"
            n = 0
            while not stop.is_set():
                t0 = time.perf_counter()
                try:
                    r = await http.get("/api/games")
                    r.raise_for_status()
                    self.http.append(time.perf_counter() - t0)
                except httpx.HTTPError:
                    self.errors += 1
                n += 1
                t0 = time.perf_counter()
                await ws.send(json.dumps({"type": "ping", "client_id": f"probe{n}"}))
                while True:
                    msg = json.loads(await ws.recv())
                    if msg.get("type") == "pong" and msg.get("client_id") == f"probe{n}":
                        break
                self.ping.append(time.perf_counter() - t0)
                if n % 10 == 0:
                    text = (await http.get("/metrics")).text
                    found = re.search(r"^qipai_event_loop_lag_seconds ([0-9.e+-]+)$", text, re.M)
                    if found:
                        self.lag_seen.append(float(found.group(1)))
                await asyncio.sleep(0.05)


async def wrong_logins(url: str, stop: asyncio.Event, rate: float = 20.0) -> dict[str, int]:
    """`rate` wrong sign-ins per second (random accounts); counts the answers by status."""
    statuses: dict[str, int] = {}

    def count(task: asyncio.Task[httpx.Response]) -> None:
        pending.discard(task)
        if not task.cancelled() and task.exception() is None:
            key = f"HTTP {task.result().status_code}"
            statuses[key] = statuses.get(key, 0) + 1

    transport = httpx.AsyncHTTPTransport(local_address=GUESSER)
    async with httpx.AsyncClient(base_url=url, timeout=30, transport=transport) as http:
        pending: set[asyncio.Task[httpx.Response]] = set()
        next_at = time.perf_counter()
        while not stop.is_set():
            body = {"username": f"abuser{random.randrange(1, 500)}", "password": "wrong-guess-1"}
            task = asyncio.create_task(http.post("/api/login", json=body))
            pending.add(task)
            task.add_done_callback(count)
            next_at += 1 / rate
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        for task in list(pending):
            task.cancel()
    return statuses


async def flood(url: str, token: str, stop: asyncio.Event, rate: float = 5000.0) -> dict[str, int]:
    """One client sending `rate` frames per second, reconnecting whenever it is closed."""
    counts = {"frames": 0, "connections": 0}
    frame = json.dumps({"type": "ping", "client_id": "flood"})
    batch = 50
    while not stop.is_set():
        try:
            async with websockets.connect(
                url.replace("http", "ws") + "/ws",
                ping_interval=None,
                max_queue=None,
                local_addr=(FLOODER, 0),
            ) as ws:
                counts["connections"] += 1
                await ws.send(json.dumps({"type": "auth", "token": token}))
                next_at = time.perf_counter()
                while not stop.is_set():
                    for _ in range(batch):
                        await ws.send(frame)
                    counts["frames"] += batch
                    next_at += batch / rate
                    await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        except websockets.InvalidStatus:  # refused by the connection limit (403)
            counts["refused"] = counts.get("refused", 0) + 1
            await asyncio.sleep(0)
        except websockets.InvalidHandshake:  # dropped at the door (over the limit: a reset)
            counts["dropped"] = counts.get("dropped", 0) + 1
            await asyncio.sleep(0)
        except (websockets.ConnectionClosed, OSError):
            await asyncio.sleep(0)
    return counts


async def hammer(
    url: str, stop: asyncio.Event, workers: int, request: Any, base: str
) -> dict[str, int]:
    """`workers` clients, worker i from address `base`.i, each sending `request(http, i, n)`
    again as soon as the last one is answered; counts the answers by status."""
    statuses: dict[str, int] = {}

    async def worker(i: int) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=f"{base}.{i + 1}")
        async with httpx.AsyncClient(base_url=url, timeout=60, transport=transport) as http:
            n = 0
            while not stop.is_set():
                try:
                    r = await request(http, i, n)
                    key = f"HTTP {r.status_code}"
                except Exception as exc:  # counted by kind: a worker never dies silently
                    key = type(exc).__name__
                statuses[key] = statuses.get(key, 0) + 1
                n += 1

    tasks = [asyncio.create_task(worker(i)) for i in range(workers)]
    await stop.wait()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return statuses


async def ops_logins(http: httpx.AsyncClient, i: int, n: int) -> httpx.Response:
    body = {"name": f"nobody{i}x{n}", "password": "wrong-guess-wrong", "totp": "123456"}
    return await http.post("/api/ops/login", json=body)


async def player_logins(http: httpx.AsyncClient, i: int, n: int) -> httpx.Response:
    body = {"username": f"abuser{random.randrange(1, 500)}", "password": f"wrong-{n}-guess"}
    return await http.post("/api/login", json=body)


def table_opener(tokens: list[str]) -> Any:
    async def open_table(http: httpx.AsyncClient, i: int, n: int) -> httpx.Response:
        auth = {"Authorization": f"Bearer {tokens[200 + i]}"}
        return await http.post("/api/tables", json={"game": "pokdeng"}, headers=auth)

    return open_table


HUGE = b'{"username": "' + b"x" * (4 << 20) + b'", "password": "y"}'
DEEP = b"[" * 100_000 + b"]" * 100_000


async def huge_bodies(http: httpx.AsyncClient, i: int, n: int) -> httpx.Response:
    body, path = (HUGE, "/api/login") if n % 2 else (DEEP, "/api/tables")
    headers = {"Content-Type": "application/json"}
    return await http.post(path, content=body, headers=headers)


GUESSER = "127.3.0.1"
"""The address of the wrong sign-ins (a): not the probe's (127.0.0.1)."""
FLOODER = "127.2.0.1"
"""The address of the flooder (b): its connection limit is its own, not the probe's."""


def address(i: int) -> str:
    """The `i`-th client address of (c)/(d): one loopback address per socket (127.0.0.0/8 is
    all loopback), as real clients come from many addresses: the server keeps its default
    per-address connection limit (QIPAI_CONNECT_RATE, 10/s) in every phase, the flood (b)
    included."""
    return f"127.1.{i // 250}.{i % 250 + 1}"


def raw_ws(
    port: int, token: str, rcvbuf: int | None, subscribe: str | None, source: str
) -> socket.socket:
    """A WebSocket by hand (never read after the handshake): auth (+ subscribe)."""
    raw = socket.socket()
    raw.bind((source, 0))
    if rcvbuf is not None:
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    raw.connect(("127.0.0.1", port))
    raw.sendall(
        b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += raw.recv(1)
    assert b" 101 " in head, head

    def frame(text: str) -> bytes:
        data = text.encode()
        mask = b"\x01\x02\x03\x04"
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        if len(data) < 126:
            return bytes([0x81, 0x80 | len(data)]) + mask + body
        return bytes([0x81, 0xFE]) + len(data).to_bytes(2, "big") + mask + body

    raw.sendall(frame(json.dumps({"type": "auth", "token": token})))
    if subscribe is not None:
        raw.sendall(frame(json.dumps({"type": "subscribe", "table_id": subscribe})))
    return raw


class Abuser:
    """One abuse in a process of its own: `bench_abuse.py --abuser KIND`. It prints `ready`
    once it is abusing (all its sockets open, for c/d), and its figures (JSON) once stopped."""

    def __init__(self, kind: str, url: str, port: int, tokens: Path) -> None:
        args = ["--abuser", kind, "--url", url, "--port", str(port), "--tokens", str(tokens)]
        self.proc = subprocess.Popen(
            [sys.executable, __file__, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    async def ready(self) -> None:
        assert self.proc.stdout is not None
        line = await asyncio.to_thread(self.proc.stdout.readline)
        if line.strip() != "ready":
            raise RuntimeError(f"abuser failed: {line!r}")

    async def stop(self) -> Any:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("stop\n")
        self.proc.stdin.flush()
        out = await asyncio.to_thread(self.proc.stdout.read)
        await asyncio.to_thread(self.proc.wait, 60)
        return json.loads(out) if out.strip() else None


async def phase(
    name: str,
    url: str,
    pid: int,
    probe_token: str,
    seconds: float,
    abuse: Abuser | None,
    warmup: float = 2.0,
) -> dict[str, Any]:
    base_rss = rss_kb(pid)
    if abuse is not None:
        await abuse.ready()
    await asyncio.sleep(warmup if abuse is not None else 0.5)
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        before = lag_histogram((await http.get("/metrics")).text)
        rss0 = rss_kb(pid)
        cpu0, loop0, t0 = cpu_s(pid), cpu_s(pid, pid), time.perf_counter()
        abuser0 = cpu_s(abuse.proc.pid) if abuse is not None else 0.0
        sw0 = switches(pid)
        probe = Probe(url, probe_token)
        stop = asyncio.Event()
        runner = asyncio.create_task(probe.run(stop))
        await asyncio.sleep(seconds)
        stop.set()
        await runner
        cpu1, loop1, t1 = cpu_s(pid), cpu_s(pid, pid), time.perf_counter()
        abuser1 = cpu_s(abuse.proc.pid) if abuse is not None else 0.0
        sw1 = switches(pid)
        after = lag_histogram((await http.get("/metrics")).text)
        rss1 = rss_kb(pid)
        open_now = (await http.get("/api/health")).json()["sockets"]
    extra = await abuse.stop() if abuse is not None else None
    return {
        "name": name,
        "http_p50": pct(probe.http, 0.5) * 1e3,
        "http_p99": pct(probe.http, 0.99) * 1e3,
        "ping_p50": pct(probe.ping, 0.5) * 1e3,
        "ping_p99": pct(probe.ping, 0.99) * 1e3,
        "samples": len(probe.http),
        "lag_p99": lag_p99(before, after) * 1e3,
        "lag_max": max(probe.lag_seen, default=float("nan")) * 1e3,
        "rss_mb": max(rss0, rss1) / 1024,
        "cpu_pct": 100 * (cpu1 - cpu0) / (t1 - t0),
        "loop_pct": 100 * (loop1 - loop0) / (t1 - t0),
        "abuser_pct": 100 * (abuser1 - abuser0) / (t1 - t0),
        "vol_s": (sw1[0] - sw0[0]) / (t1 - t0),
        "invol_s": (sw1[1] - sw0[1]) / (t1 - t0),
        "rss_gain_kb": max(rss0, rss1) - base_rss,
        "sockets_open": open_now,
        "extra": extra,
        "errors": probe.errors,
    }


async def abuser_main(kind: str, url: str, port: int, tokens: list[str]) -> None:
    """The abuser process: abuse until a line comes on stdin, then print the figures."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()

    def wait_stdin() -> None:
        sys.stdin.readline()
        loop.call_soon_threadsafe(stop.set)

    threading.Thread(target=wait_stdin, daemon=True).start()
    result: Any = None
    if kind == "a":
        print("ready", flush=True)
        result = await wrong_logins(url, stop)
    elif kind == "b":
        print("ready", flush=True)
        result = await flood(url, tokens[2], stop)
    elif kind in HAMMERS:
        print("ready", flush=True)
        workers, make, base = HAMMERS[kind]
        result = await hammer(url, stop, workers, make(tokens), base)
    elif kind == "c":  # by hand: never read after the handshake, a 4 kB receive window
        held = []
        for i in range(100):
            held.append(
                await asyncio.to_thread(raw_ws, port, tokens[100 + i], 4096, tokens[-1], address(i))
            )
        print("ready", flush=True)
        await stop.wait()
        for s in held:
            with contextlib.suppress(OSError):
                s.close()
        result = {"sockets": len(held)}
    else:  # (d) signed-in clients that say nothing (their library answers the server's pings)
        idle = []
        for i in range(2000):
            ws = await websockets.connect(
                url.replace("http", "ws") + "/ws", ping_interval=None, local_addr=(address(i), 0)
            )
            await ws.send(json.dumps({"type": "auth", "token": tokens[100 + i]}))
            idle.append(ws)
        for ws in idle:
            assert json.loads(await ws.recv())["type"] == "hello"
        print("ready", flush=True)
        await stop.wait()
        open_at_end = sum(ws.state is websockets.protocol.State.OPEN for ws in idle)
        await asyncio.gather(*(ws.close() for ws in idle), return_exceptions=True)
        result = {"sockets": len(idle), "still open": open_at_end}
    print(json.dumps(result), flush=True)


HAMMERS: dict[str, tuple[int, Any, str]] = {
    "e": (16, lambda tokens: ops_logins, "127.4.0"),
    "f": (16, lambda tokens: player_logins, "127.5.0"),
    "g": (30, table_opener, "127.6.0"),
    "h": (8, lambda tokens: huge_bodies, "127.7.0"),
}
"""The abuses of (e)-(h): how many workers, their request (made from the tokens), their
addresses' prefix."""


UPGRADE = (
    b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


def reconnect_once(port: int) -> str:
    """One reconnection of a refused client by hand (cheap, so that the client's own speed
    does not set the rate): connect from the flooder's address, send a WebSocket upgrade, read
    until the status line or the end. The status line, "closed" or "reset"."""
    raw = socket.socket()
    raw.bind((FLOODER, 0))
    try:
        raw.connect(("127.0.0.1", port))
        raw.sendall(UPGRADE)
        head = b""
        while b"\r\n" not in head:
            got = raw.recv(4096)
            if not got:
                return "closed"
            head += got
        return head.split(b"\r\n", 1)[0].decode()
    except OSError:
        return "reset"
    finally:
        raw.close()


def refusal_cost(n: int) -> None:
    """The server's CPU per refused reconnection: its door shut for the flooder's address
    (a connection limit of 2/s), then `n` reconnections by hand; the event-loop thread's CPU
    time over them divided by `n` (CPU time: far less dependent on the machine's load). The
    server holds no refused connection here (QIPAI_HELD_PER_ADDRESS=0): each is reset at once,
    the path of every refusal past the tarpit's bounds and the dearer one per refusal (a held
    connection costs the same accept and a timer, but makes its client wait out the window)."""
    with tempfile.TemporaryDirectory() as tmp:
        port = 18700 + os.getpid() % 200
        env = {
            **os.environ,
            "QIPAI_CONNECT_RATE": "2/second;4/minute",
            "QIPAI_HELD_PER_ADDRESS": "0",
        }
        serve = ["serve", "--port", str(port), "--db", str(Path(tmp) / "refusals.db")]
        proc = subprocess.Popen(
            [sys.executable, "-m", "qipai.cli", *serve],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            url = f"http://127.0.0.1:{port}"
            for _ in range(3000):
                with contextlib.suppress(httpx.HTTPError):
                    if re.search(r"^qipai_warming 0", httpx.get(url + "/metrics").text, re.M):
                        break
                time.sleep(0.2)
            outcomes: dict[str, int] = {}
            for i in range(n + 6):
                if i == 6:  # over its limit by now: the door is shut
                    loop0, cpu0, t0 = (
                        cpu_s(proc.pid, proc.pid),
                        cpu_s(proc.pid),
                        time.perf_counter(),
                    )
                    outcomes = {}
                got = reconnect_once(port)
                outcomes[got] = outcomes.get(got, 0) + 1
            loop1, cpu1, t1 = cpu_s(proc.pid, proc.pid), cpu_s(proc.pid), time.perf_counter()
        finally:
            proc.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(30)
            if proc.poll() is None:
                proc.kill()
    print(
        f"refused reconnections: {n} in {t1 - t0:.1f} s ({n / (t1 - t0):.0f}/s); server CPU "
        f"per reconnection: event-loop thread {(loop1 - loop0) * 1e6 / n:.0f} us, process "
        f"{(cpu1 - cpu0) * 1e6 / n:.0f} us; outcomes {outcomes}; load average "
        f"{os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)"
    )


PROFILED = """
import cProfile, runpy, signal, sys
out = sys.argv.pop(1)
def stop(*_):
    raise SystemExit(0)
signal.signal(signal.SIGTERM, stop)
profile = cProfile.Profile()
profile.enable()
try:
    sys.argv[0] = "qipai"
    runpy.run_module("qipai.cli", run_name="__main__")
finally:
    profile.disable()
    profile.dump_stats(out)
"""


def goals(results: list[dict[str, Any]]) -> list[str]:
    """Each goal of docs/security.md per abuse phase: met or NOT met, with the figures."""
    base = results[0]
    lines = []
    for r in results[1:]:
        for what in ("http", "ping"):
            p99, b99 = r[f"{what}_p99"], base[f"{what}_p99"]
            ok = p99 <= 3 * b99 and p99 <= 50.0
            label = "GET /api/games" if what == "http" else "WebSocket ping"
            lines.append(
                f"  {r['name']:32} {label:15} p99 {p99:6.1f} ms = {p99 / b99:4.1f}x baseline "
                f"({b99:.1f} ms): {'met' if ok else 'NOT met'} (<= 3x and <= 50 ms)"
            )
        if r["name"].startswith("(c)"):
            kb = r["extra_per_socket_kb"]
            lines.append(
                f"  {r['name']:32} memory per never-reading socket {kb:.0f} kB: "
                f"{'met' if kb <= 256 else 'NOT met'} (<= 256 kB)"
            )
    return lines


async def main_async(seconds: float, only: set[str], profile: str | None) -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 20_000), hard))
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "abuse.db"
        tokens = prepare(db, 2_200)
        port = 18700 + os.getpid() % 200
        env = {
            **os.environ,
            "QIPAI_BOT_DELAY": "0.2",
            "QIPAI_BETWEEN_ROUNDS": "1",
            "QIPAI_SIGNUP_RATE": "10/minute",
            # the default connection limit per address (10/s): (c) and (d) come from one
            # loopback address per socket (`address`), the flooder (b) from one address
        }
        serve = ["serve", "--port", str(port), "--db", str(db)]
        command = (
            [sys.executable, "-c", PROFILED, profile, *serve]
            if profile
            else [sys.executable, "-m", "qipai.cli", *serve]
        )
        log = (Path(tmp) / "server.log").open("wb")
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
        url = f"http://127.0.0.1:{port}"
        results: list[dict[str, Any]] = []
        try:
            for _ in range(3000):  # up, and done with its start-up warm-up
                try:
                    text = httpx.get(url + "/metrics", timeout=5).text
                    if re.search(r"^qipai_warming 0", text, re.M):
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.2)
            async with httpx.AsyncClient(base_url=url, timeout=60) as http:
                r = await http.post(
                    "/api/automatch",
                    json={"game": "pokdeng", "buy_in": 100_000},
                    headers={"Authorization": f"Bearer {tokens[0]}"},
                )
                r.raise_for_status()
                table_id = r.json()["table_id"]
            tokens_file = Path(tmp) / "tokens.json"
            tokens_file.write_text(json.dumps([*tokens, table_id]))
            probe_token = tokens[1]
            results.append(await phase("baseline", url, proc.pid, probe_token, seconds, None))
            for key, label, count in (
                ("a", "(a) 20 wrong sign-ins/s", 0),
                ("b", "(b) 5,000 frames/s flood", 0),
                ("c", "(c) 100 never-reading sockets", 100),
                ("d", "(d) 2,000 idle sockets", 2000),
                ("e", "(e) operator sign-in flood x16", 0),
                ("f", "(f) player sign-in flood x16", 0),
                ("g", "(g) 30 accounts opening tables", 0),
                ("h", "(h) huge and deep bodies x8", 0),
            ):
                if key not in only:
                    continue
                abuser = Abuser(key, url, port, tokens_file)
                result = await phase(label, url, proc.pid, probe_token, seconds, abuser)
                if count:
                    result["extra_per_socket_kb"] = result["rss_gain_kb"] / count
                results.append(result)
                await asyncio.sleep(2)
        finally:
            proc.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(30)
            if proc.poll() is None:
                proc.kill()
            log.close()
        tracebacks = (Path(tmp) / "server.log").read_text(errors="replace").count("Traceback")
    base = results[0]
    load = os.getloadavg()
    print(
        f"bench_abuse: {seconds:.0f} s per phase; load average (1, 5 min) "
        f"{load_start[0]:.2f} {load_start[1]:.2f} at the start, {load[0]:.2f} {load[1]:.2f} "
        f"at the end ({os.cpu_count()} cores){'; server under cProfile' if profile else ''}"
    )
    print(
        f"{'phase':32} {'GET p50':>8} {'GET p99':>8} {'x base':>7} {'ping p50':>9} "
        f"{'ping p99':>9} {'x base':>7} {'lag p99':>8} {'lag max':>8} {'RSS MB':>7} "
        f"{'CPU%':>5} {'loop%':>5} {'cs/s':>5} {'pre/s':>5} {'ab%':>4}  notes"
    )
    for r in results:
        ratio_h = r["http_p99"] / base["http_p99"]
        ratio_p = r["ping_p99"] / base["ping_p99"]
        notes = []
        extra = r["extra"]
        if "extra_per_socket_kb" in r:
            notes.append(f"{r['extra_per_socket_kb']:.0f} kB/socket")
            notes.append(f"{r['sockets_open']} sockets open at the end")
        elif isinstance(extra, dict):
            notes.append(", ".join(f"{v} {k}" for k, v in extra.items()))
        if r["errors"]:
            notes.append(f"{r['errors']} probe errors")
        print(
            f"{r['name']:32} {r['http_p50']:7.1f}ms {r['http_p99']:7.1f}ms {ratio_h:6.1f}x "
            f"{r['ping_p50']:8.1f}ms {r['ping_p99']:8.1f}ms {ratio_p:6.1f}x "
            f"{r['lag_p99']:6.0f}ms {r['lag_max']:6.1f}ms {r['rss_mb']:7.0f} "
            f"{r['cpu_pct']:5.0f} {r['loop_pct']:5.0f} {r['vol_s']:5.0f} {r['invol_s']:5.0f} "
            f"{r['abuser_pct']:4.0f}  "
            f"{', '.join(notes)}"
        )
    print(
        f"({statistics.mean(r['samples'] for r in results):.0f} probe samples per phase; lag p99 "
        f"is the upper bound of the server's histogram bucket; CPU% is the server process's CPU "
        f"time per second of the phase (all threads), loop% its event-loop thread's: they depend "
        f"far less on the machine's load than the latencies; cs/s and pre/s are the loop "
        f"thread's context switches per second, voluntary (it waited: epoll, the GIL, a lock) "
        f"and involuntary (preempted: other runnable threads and processes, i.e. the "
        f"machine's load); ab% is the abuse process's own CPU on the same cores (the probe and "
        f"the server compete with it: a reconnecting flooder takes a core whatever the server "
        f"does); server log tracebacks: {tracebacks})"
    )
    print("goals (docs/security.md):")
    for line in goals(results):
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per phase")
    parser.add_argument(
        "--only", default="a,b,c,d,e,f,g,h", help="scenarios to run (a,b,c,d,e,f,g,h)"
    )
    parser.add_argument("--profile", help="run the server under cProfile, stats to this file")
    parser.add_argument(
        "--refusal-cost",
        type=int,
        metavar="N",
        help="only measure the server's CPU per refused reconnection, over N of them",
    )
    parser.add_argument("--abuser", help=argparse.SUPPRESS)  # the abuse process (internal)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--tokens", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.abuser:
        _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 20_000), hard))
        tokens = json.loads(Path(args.tokens).read_text())
        asyncio.run(abuser_main(args.abuser, args.url, args.port, tokens))
        return
    if args.refusal_cost:
        refusal_cost(args.refusal_cost)
        return
    asyncio.run(main_async(args.seconds, set(args.only.split(",")), args.profile))


if __name__ == "__main__":
    main()
