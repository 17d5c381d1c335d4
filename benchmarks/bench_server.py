"""Card-room load: N WebSocket clients on one `qipai serve` process, each auto-matched to a Pok
Deng table whose other seats are bots, betting and confirming every round as fast as the server
lets them.

Prints rounds settled per second and the p50/p99 latency from sending an action to receiving the
broadcast state it caused. Accounts and sessions are written to the database before the server
starts (signing 1,000 people up through scrypt would measure the password hash, not the room).

    uv run python benchmarks/bench_server.py --clients 100 --seconds 20
    uv run python benchmarks/bench_server.py --clients 10,100,1000

Past one process (docs/scaling.md): `--processes 1,2` runs `qipai serve --processes N` on PostgreSQL
(a fresh schema) and Redis for each N, side by side, and prints the ratio of N processes to
one. The connections land on the workers as the kernel spreads them (SO_REUSEPORT), so about
half of the actions and states cross Redis to the table's owner and back. `--failover` also
kills one worker (SIGKILL) in the middle of the measured time (the launcher starts it again as
a new host) and reports the takeover time (the last of its tables owned again) and the p99
from the kill to the end; the clients of the killed worker reconnect and resubscribe.

    uv run python benchmarks/bench_server.py --processes 1,2 --clients 1000 --seconds 20
    uv run python benchmarks/bench_server.py --processes 2 --clients 1000 --failover
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import websockets

from qipai.tables.deltas import apply

ROOT = Path(__file__).resolve().parents[1]
_TAKEN = re.compile(r"takeover pass: .*; \d+ resumed: ([0-9a-f ]*)")
_RESTORED = re.compile(r"start-up recovery: \d+ tables restored: ([0-9a-f ]+)")
GAME = "pokdeng"


PG_URL = os.environ.get("QIPAI_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("QIPAI_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def prepare(db: Path | str, n: int) -> list[str]:
    """Users with wallets and session tokens, straight into the database."""
    from sqlalchemy import insert

    from qipai.ledger import Ledger
    from qipai.server.store import RoomStore, room_users

    ledger = Ledger.open(str(db))
    store = RoomStore(ledger.engine)
    store.create_user("benchuser0", "bench-password")
    with ledger.engine.connect() as conn:
        row = conn.execute(room_users.select()).first()
    assert row is not None
    with ledger.engine.begin() as conn:
        conn.execute(
            insert(room_users),
            [
                {
                    "username": f"benchuser{i}",
                    "username_key": f"benchuser{i}",
                    "salt": row.salt,
                    "pw_hash": row.pw_hash,
                    "created_at": 0.0,
                }
                for i in range(1, n)
            ],
        )

    def account(i: int) -> str:
        name = f"benchuser{i}"
        ledger.create_user(name, name)
        ledger.deposit(name, 1_000_000, f"bench-{i}")
        return store.new_session(name)

    # side by side: the ledger's writer commits the deposits of waiting threads together (one
    # by one, 4,000 people took the benchmark minutes on PostgreSQL before the server started)
    with ThreadPoolExecutor(16) as pool:
        tokens = list(pool.map(account, range(n)))
    ledger.close()
    return tokens


STATE = '{"type":"state"'
DELTA = '{"type":"delta"'
RESYNC: dict[str, Any] = {"type": "resync"}


class Frames:
    """What one client holds of its table: it signs in taking deltas (docs/protocol.md,
    "Deltas"; a server that does not know them sends every state whole). A whole state is kept
    as its text and parsed only when it is worth it or a delta needs it."""

    def __init__(self) -> None:
        self.held: str | dict[str, Any] | None = None

    def read(self, raw: str) -> tuple[bool, dict[str, Any] | None]:
        """(whether `raw` brought a state, the message parsed or None when not worth it);
        `RESYNC`: a delta this client cannot apply (it should subscribe again)."""
        if raw.startswith(STATE):
            self.held = raw
            if not worth_parsing(raw):
                return True, None
            msg: dict[str, Any] = json.loads(raw)
            self.held = msg
            return True, msg
        if raw.startswith(DELTA):
            delta = json.loads(raw)
            held = json.loads(self.held) if isinstance(self.held, str) else self.held
            if held is None or held.get("seq") != delta["base"]:
                self.held = None
                return False, RESYNC
            made = {**apply(held, delta["patch"]), "seq": delta["seq"]}
            self.held = made
            return True, made
        return False, json.loads(raw)


def worth_parsing(state: str) -> bool:
    """Whether a state message can change what a client does or counts: it offers actions
    (`legal` is not empty) or shows a finished round. The others are only timed, unparsed: on
    this machine the clients share the server's cores, and decoding every ~13 KB state for
    1,000 clients cost more CPU than the server spent building them. (The server sends
    `legal` after the round and its view, so the last `"legal":` is the message's own.)"""
    at = state.rfind('"legal":')
    return at < 0 or not state.startswith("[]", at + 8) or '"finished":true' in state


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.rounds: set[str] = set()
        self.errors = 0
        self.error_codes: Counter[str] = Counter()
        self.measured_errors = 0
        self.measuring = False
        self.ready = 0
        self.reconnects = 0
        self.seat_retries = 0
        self.killed_at: float | None = None
        self.after_kill: list[float] = []
        self.takeover_s: float | None = None
        """Seconds from the kill until every table of the killed worker was claimed."""
        self.resumed_s: float | None = None
        """... until every one of them was resumed (its new owner's log names it)."""
        self.cpu_s: float | None = None
        """CPU seconds the server's processes used in the measured time (None: not measured)."""
        self.pg_cpu_s: float | None = None
        """... and PostgreSQL's processes (all of them: the machine's one PostgreSQL)."""
        self.bench_cpu_s: float | None = None
        """... and this benchmark's own process (the simulated clients)."""
        self.messages = 0
        """Messages the clients received in the measured time (every kind)."""
        self.chars = 0
        """... and their characters once decompressed (the JSON text; ASCII here, so bytes)."""


async def client(
    http: httpx.AsyncClient, url: str, token: str, stats: Stats, stop: asyncio.Event
) -> None:
    for attempt in range(5):  # a 5xx (a busy host did not answer in time): ask again
        try:
            r = await http.post(
                "/api/automatch",
                json={"game": GAME, "buy_in": 100_000},
                headers={"Authorization": f"Bearer {token}"},
            )
        except httpx.TransportError:
            if attempt == 4:
                raise
            await asyncio.sleep(1.0)
            continue
        if r.status_code < 500 or attempt == 4:
            break
        stats.seat_retries += 1
        await asyncio.sleep(1.0)
    r.raise_for_status()
    table_id = r.json()["table_id"]
    ws_url = url.replace("http", "ws") + "/ws"
    ready = [False]  # counted once, at the first subscription that got through (a client
    # whose first connection failed under load was never counted, and the warm-up waited out
    # its whole patience for it)
    while not stop.is_set():
        try:
            await _play(ws_url, token, table_id, stats, stop, ready)
        except (OSError, websockets.ConnectionClosed):
            stats.reconnects += 1  # its server died: connect again (another worker answers)
            await asyncio.sleep(0.2)


async def _play(
    ws_url: str, token: str, table_id: str, stats: Stats, stop: asyncio.Event, ready: list[bool]
) -> None:
    async with websockets.connect(
        ws_url, max_queue=None, open_timeout=None, ping_interval=None, close_timeout=1
    ) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token, "deltas": True}))
        await ws.send(json.dumps({"type": "subscribe", "table_id": table_id}))
        frames = Frames()
        if not ready[0]:
            ready[0] = True
            stats.ready += 1
        sent_at: float | None = None
        acted_round: str | None = None
        n = 0
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            assert isinstance(raw, str)
            if stats.measuring:
                stats.messages += 1
                stats.chars += len(raw)
            is_state, parsed = frames.read(raw)
            if is_state and sent_at is not None:
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - sent_at)
                    if stats.killed_at is not None:
                        stats.after_kill.append(time.perf_counter() - sent_at)
                sent_at = None
            if parsed is RESYNC:
                await ws.send(json.dumps({"type": "subscribe", "table_id": table_id}))
                continue
            if parsed is None:
                continue
            msg = parsed
            if msg["type"] == "error":
                stats.errors += 1
                stats.error_codes[str(msg.get("code"))] += 1
                if stats.measuring:
                    stats.measured_errors += 1
                sent_at = None
                continue
            if msg["type"] != "state":
                continue
            rnd = msg.get("round")
            if rnd and rnd["finished"] and stats.measuring:
                stats.rounds.add(rnd["round_id"])
            if rnd and not rnd["finished"] and msg["legal"] and acted_round != rnd["round_id"]:
                bet = next((a for a in msg["legal"] if a["type"] == "bets"), None)
                if bet is None:
                    continue
                spot = "P1"
                amount = bet["spots"][spot]["min"]
                n += 1
                acted_round = rnd["round_id"]
                sent_at = time.perf_counter()
                await ws.send(
                    json.dumps(
                        {
                            "type": "action",
                            "table_id": table_id,
                            "client_id": f"{token[:8]}-{rnd['round_id'][:8]}-{n}",
                            "version": msg["version"],
                            "action": {
                                "type": "bets",
                                "bets": [{"spot": spot, "amount": amount}],
                                "done": True,
                            },
                        }
                    )
                )


async def run_load(
    url: str,
    tokens: list[str],
    seconds: float,
    kill: Any = None,
    cpu: Any = None,
    on_measure: Any = None,
) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    tasks = []
    # One HTTP client (a pool of keep-alive connections) for every simulated person: the server
    # still serves one automatch request per person, but the benchmark, which shares the
    # machine's cores with the server, does not build 1,000 clients (and TLS contexts) for it.
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=50)
    http = httpx.AsyncClient(base_url=url, timeout=max(600.0, 1.0 * len(tokens)), limits=limits)
    for token in tokens:  # ramp up gently: automatch is a write
        tasks.append(asyncio.create_task(client(http, url, token, stats, stop)))
        await asyncio.sleep(0.002)
    ramp = time.perf_counter()
    # seating takes a few commits per person on PostgreSQL while the seated tables play
    # (docs/scaling.md "Seating"), so 4,000 people take minutes: wait up to 1 s each
    patience = max(600.0, 1.0 * len(tokens))
    while (
        stats.ready + sum(1 for t in tasks if t.done()) < len(tokens)
        and time.perf_counter() - ramp < patience
    ):
        await asyncio.sleep(0.5)  # warm-up: every client seated and subscribed
    print(
        f"  {stats.ready}/{len(tokens)} clients seated in {time.perf_counter() - ramp:.0f} s"
        f" ({stats.seat_retries} automatch requests asked again after a 5xx)",
        file=sys.stderr,
    )
    await asyncio.sleep(2.0)
    stats.measuring = True
    if on_measure is not None:
        on_measure()
    cpu_before = None if cpu is None else cpu()
    pg_before, bench_before = _cpu_seconds(_postgres_pids()), time.process_time()
    start = time.perf_counter()
    if kill is None:
        await asyncio.sleep(seconds)
    else:
        await asyncio.sleep(seconds / 2)
        stats.killed_at = time.perf_counter()
        stats.takeover_s, stats.resumed_s = await asyncio.to_thread(kill)
        await asyncio.sleep(max(0.0, seconds - (time.perf_counter() - start)))
    stats.measuring = False
    elapsed = time.perf_counter() - start
    if cpu is not None and cpu_before is not None and kill is None:
        stats.cpu_s = cpu() - cpu_before  # (a killed worker's CPU is gone with it)
    stats.pg_cpu_s = _cpu_seconds(_postgres_pids()) - pg_before
    stats.bench_cpu_s = time.process_time() - bench_before
    stop.set()
    done = await asyncio.gather(*tasks, return_exceptions=True)
    await http.aclose()
    failures = [d for d in done if isinstance(d, BaseException)]
    if failures:
        print(f"  {len(failures)} clients failed, e.g. {failures[0]!r}", file=sys.stderr)
    if stats.error_codes:
        print(
            f"  errors by code (whole run, seating included): {dict(stats.error_codes)}; "
            f"{stats.measured_errors} in the measured {seconds:.0f} s",
            file=sys.stderr,
        )
    stats.elapsed = elapsed  # type: ignore[attr-defined]
    return stats


def _server_env(root: Path, compression: bool | None) -> dict[str, str]:
    env = {
        **os.environ,
        "QIPAI_BOT_DELAY": "0.02",
        "QIPAI_BETWEEN_ROUNDS": "0.3",
        "QIPAI_CONNECT_RATE": "10000/second",  # every client connects from this address
        # the code under test is the one in `root` (a copy of another revision, side by side)
        "PYTHONPATH": str(root),
    }
    # a server starts from compiled modules as an installed one does (a shell that forbids
    # writing them would time the compiler, not the server's start)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if compression is not None:
        env["QIPAI_WS_COMPRESSION"] = "true" if compression else "false"
    return env


def _first_answer(url: str, proc: subprocess.Popen[bytes], started: float) -> float:
    """Seconds from the server's start to its first answer (`GET /api/games`)."""
    while True:
        try:
            httpx.get(url + "/api/games", timeout=60)
            return time.perf_counter() - started
        except httpx.TransportError:
            if proc.poll() is not None:
                raise RuntimeError("the server exited before it answered") from None
            if time.perf_counter() - started > 300:
                raise RuntimeError("the server did not answer within 300 s") from None
            time.sleep(0.02)


def _profiler(pid: int, seconds: float, out: Path) -> Any:
    """What starts py-spy on the server for the measured time (the dev group's `py-spy`;
    `--gil`: only the samples that hold the interpreter lock, raw collapsed stacks)."""
    spy = Path(sys.executable).with_name("py-spy")

    def start() -> None:
        subprocess.Popen(
            [
                str(spy),
                "record",
                "--pid",
                str(pid),
                "--duration",
                str(int(seconds)),
                "--rate",
                "100",
                "--format",
                "raw",
                "--output",
                str(out),
                "--gil",
                "--nonblocking",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    return start


def _warmed(url: str, patience_s: float = 600.0) -> None:
    """Wait for the server's start-up warm-up (`qipai_warming 0`): its CPU (the Hold'em kernels,
    the templates' exact returns) is not the rounds'."""
    end = time.perf_counter() + patience_s
    while time.perf_counter() < end:
        if re.search(r"^qipai_warming 0", httpx.get(url + "/metrics", timeout=60).text, re.M):
            return
        time.sleep(0.2)


def _pg_schema() -> tuple[str, str, Any]:
    """A fresh PostgreSQL schema (name, URL with its search path, admin engine)."""
    import uuid

    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    schema = f"qipai_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = (
        make_url(PG_URL)
        .update_query_dict({"options": f"-csearch_path={schema}"})
        .render_as_string(hide_password=False)
    )
    return schema, url, admin


def _drop_schema(schema: str, admin: Any) -> None:
    from sqlalchemy import text

    with admin.connect() as conn:
        conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    admin.dispose()


def bench(
    n: int,
    seconds: float,
    root: Path = ROOT,
    database: str = "sqlite",
    compression: bool | None = None,
    port: int | None = None,
    profile: Path | None = None,
) -> dict[str, Any]:
    """One server process (the code in `root`) on SQLite or a fresh PostgreSQL schema, `n`
    clients; CPU of the server, PostgreSQL and the clients, messages and characters per round,
    and the seconds from the server's start to its first answer (on an existing file:
    `prepare` made it)."""
    import secrets

    schema = admin = None
    with tempfile.TemporaryDirectory() as tmp:
        if database == "postgresql":
            schema, db, admin = _pg_schema()
            os.environ["QIPAI_KEY"] = os.environ.get("QIPAI_KEY") or secrets.token_hex(32)
        else:
            db = str(Path(tmp) / "bench.db")
        try:
            tokens = prepare(db, n)
            port = port or 18000 + n % 1000
            # The server's log goes to a file (a pipe nobody reads would block the server once
            # full); tracebacks in it are reported after the run.
            log_path = Path(tmp) / "server.log"
            log = log_path.open("wb")
            command = [sys.executable, "-m", "qipai.cli", "serve", "--port", str(port)]
            command += ["--db", db]
            env = _server_env(root, compression)
            url = f"http://127.0.0.1:{port}"
            # the first start of a database seeds the shipped templates (their exact returns
            # are computed then): timed apart, then stopped; the second start is the one of an
            # existing database, as every start of a room after its first
            started = time.perf_counter()
            proc = subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=log)
            try:
                fresh_answer_s = _first_answer(url, proc, started)
            finally:
                proc.terminate()
                proc.wait()
            started = time.perf_counter()
            proc = subprocess.Popen(
                command, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=log
            )
            try:
                first_answer_s = _first_answer(url, proc, started)
                _warmed(url)
                record = None if profile is None else _profiler(proc.pid, seconds, profile)
                stats = asyncio.run(
                    run_load(
                        url,
                        tokens,
                        seconds,
                        cpu=lambda: _cpu_seconds([proc.pid]),
                        on_measure=record,
                    )
                )
            finally:
                proc.terminate()
                proc.wait()
                log.close()
                text = log_path.read_text(errors="replace")
                if "Traceback" in text:
                    tail = "\n".join(text.splitlines()[-15:])
                    print(
                        f"  the server logged {text.count('Traceback')} tracebacks; "
                        f"last lines:\n{tail}",
                        file=sys.stderr,
                    )
        finally:
            if schema is not None:
                _drop_schema(schema, admin)
    out = _summary(stats, n)
    rounds = max(1, len(stats.rounds))
    out["first_answer_s"] = first_answer_s
    out["fresh_answer_s"] = fresh_answer_s
    out["messages_per_round"] = stats.messages / rounds
    out["kb_per_round"] = stats.chars / rounds / 1000
    out["bytes_per_message"] = stats.chars / max(1, stats.messages)
    return out


def _summary(stats: Stats, n: int) -> dict[str, Any]:
    lat = sorted(stats.latencies)
    after = sorted(stats.after_kill)
    elapsed = stats.elapsed  # type: ignore[attr-defined]
    return {
        "clients": n,
        "rounds_per_s": len(stats.rounds) / elapsed,
        "actions": len(lat),
        "p50_ms": 1000 * statistics.median(lat) if lat else float("nan"),
        "p99_ms": 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))] if lat else float("nan"),
        "errors": stats.errors,
        "reconnects": stats.reconnects,
        "takeover_s": stats.takeover_s,
        "resumed_s": stats.resumed_s,
        "cpu_ms_per_round": (
            1000 * stats.cpu_s / len(stats.rounds) if stats.cpu_s and stats.rounds else None
        ),
        "cores_busy": stats.cpu_s / elapsed if stats.cpu_s else None,
        "pg_cores": (stats.pg_cpu_s or 0.0) / elapsed,
        "pg_ms_per_round": 1000 * (stats.pg_cpu_s or 0.0) / max(1, len(stats.rounds)),
        "bench_ms_per_round": 1000 * (stats.bench_cpu_s or 0.0) / max(1, len(stats.rounds)),
        "bench_cores": (stats.bench_cpu_s or 0.0) / elapsed,
        "p99_after_kill_ms": (
            1000 * after[min(len(after) - 1, int(0.99 * len(after)))] if after else float("nan")
        ),
    }


def _lease_owners(engine: Any) -> dict[str, tuple[str | None, bool]]:
    from sqlalchemy import text

    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT table_id, owner, expires_at > now() FROM table_leases")
        ).all()
    return {str(t): (o, bool(h)) for t, o, h in rows}


def _routed(name: str) -> dict[str, float]:
    """Messages the hosts published to Redis (`qipai_routed_messages_total{direction="out"}`,
    by kind), summed over every host in the room's directory (each one's own address)."""
    import re

    import redis

    found: dict[str, float] = {}
    entries = redis.Redis.from_url(REDIS_URL, decode_responses=True).hgetall(f"{name}:hosts")
    for raw in entries.values():
        address = json.loads(raw).get("http")
        try:
            body = httpx.get(f"{address}/metrics", timeout=30).text
        except httpx.HTTPError:
            continue
        for m in re.finditer(
            r'^qipai_routed_messages_total\{direction="out",kind="([a-z]+)"\} ([0-9.e+]+)$',
            body,
            re.M,
        ):
            found[m.group(1)] = found.get(m.group(1), 0.0) + float(m.group(2))
    return found


def _cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of these processes so far (/proc/PID/stat; gone ones: 0)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def _postgres_pids() -> list[int]:
    """Every process of the machine's PostgreSQL (its backends, WAL writer, checkpointer)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().startswith("postgres"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(c) for c in text]
    return found


def bench_cluster(n: int, seconds: float, processes: int, failover: bool) -> dict[str, Any]:
    """`qipai serve --processes N` on a fresh PostgreSQL schema (and Redis when N > 1)."""
    import secrets
    import signal
    import uuid

    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    schema = f"qipai_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = (
        make_url(PG_URL)
        .update_query_dict({"options": f"-csearch_path={schema}"})
        .render_as_string(hide_password=False)
    )
    os.environ["QIPAI_KEY"] = os.environ.get("QIPAI_KEY") or secrets.token_hex(32)
    engine = create_engine(url)
    try:
        tokens = prepare(url, n)
        port = 18000 + (n + 7 * processes) % 1000
        env = {
            **os.environ,
            "QIPAI_BOT_DELAY": "0.02",
            "QIPAI_BETWEEN_ROUNDS": "0.3",
            "QIPAI_CONNECT_RATE": "10000/second",
            "QIPAI_CLUSTER__NAME": schema,
        }
        args = ["--processes", str(processes)]
        if processes > 1:
            args += ["--redis", REDIS_URL]
        with tempfile.TemporaryDirectory() as tmp:
            log_path = Path(tmp) / "server.log"
            log = log_path.open("wb")
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "qipai.cli",
                    "serve",
                    "--port",
                    str(port),
                    "--db",
                    url,
                    *args,
                ],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
            base = f"http://127.0.0.1:{port}"

            def kill() -> tuple[float, float | None]:
                """SIGKILL the worker owning the most tables; seconds until all are claimed,
                and until all are resumed (None: not within 90 s)."""
                owners = _lease_owners(engine)
                workers = _children(proc.pid)
                count = {
                    pid: sum(1 for o, _ in owners.values() if o and f"-{pid}-" in o)
                    for pid in workers
                }
                victim = max(count, key=lambda p: count[p])
                doomed = [t for t, (o, _) in owners.items() if o and f"-{victim}-" in o]
                log.flush()
                offset = log_path.stat().st_size
                os.kill(victim, signal.SIGKILL)
                killed = time.perf_counter()
                claimed_s: float | None = None
                resumed: set[str] = set()
                while time.perf_counter() - killed < 90:
                    if claimed_s is None:
                        now = _lease_owners(engine)
                        if all(now[t][1] and f"-{victim}-" not in str(now[t][0]) for t in doomed):
                            claimed_s = time.perf_counter() - killed
                    # resumed: the new owner's log names the table (a takeover pass) or lists
                    # it (the replacement's start-up recovery); a claim alone is not playable
                    with log_path.open("rb") as f:
                        f.seek(offset)
                        text_ = f.read().decode(errors="replace")
                    for ids in _TAKEN.findall(text_):
                        resumed.update(ids.split())
                    for ids in _RESTORED.findall(text_):
                        resumed.update(ids.split())
                    if claimed_s is not None and set(doomed) <= resumed:
                        break
                    time.sleep(0.1)
                resumed_s = time.perf_counter() - killed if set(doomed) <= resumed else None
                return (claimed_s if claimed_s is not None else float("nan"), resumed_s)

            try:
                for _ in range(900):
                    try:
                        httpx.get(base + "/api/games", timeout=60)
                        break
                    except httpx.TransportError:
                        time.sleep(0.2)
                time.sleep(3.0 if processes > 1 else 0.0)  # every worker up and announced
                stats = asyncio.run(
                    run_load(
                        base,
                        tokens,
                        seconds,
                        kill if failover else None,
                        lambda: _cpu_seconds([proc.pid, *_children(proc.pid)]),
                    )
                )
                routed = _routed(schema) if processes > 1 else {}
            finally:
                proc.terminate()
                proc.wait()
                log.close()
                text_ = log_path.read_text(errors="replace")
                keep = os.environ.get("QIPAI_BENCH_LOG")  # the server's log, kept to read
                if keep:
                    Path(f"{keep}.{processes}p.{n}").write_text(text_)
                if "Traceback" in text_:
                    tail = "\n".join(text_.splitlines()[-15:])
                    print(
                        f"  the server logged {text_.count('Traceback')} tracebacks:\n{tail}",
                        file=sys.stderr,
                    )
        with engine.connect() as conn:  # what the database wrote per round (docs/scaling.md)
            counts = {
                name: int(conn.execute(text(f"SELECT count(*) FROM {name}")).scalar_one())
                for name in ("rounds", "round_log", "transactions", "entries")
            }
    finally:
        engine.dispose()
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()
    out = _summary(stats, n)
    rounds = max(1, counts["rounds"])
    out["per_round"] = {k: v / rounds for k, v in counts.items() if k != "rounds"}
    out["redis_per_round"] = {k: v / rounds for k, v in routed.items()}
    out["redis_total"] = sum(routed.values())
    return out


def main_cluster(args: argparse.Namespace) -> None:
    counts = [int(x) for x in args.processes.split(",")]
    print(
        f"bench_server: {GAME} tables, bots in the free seats, qipai serve --processes "
        f"{args.processes} on PostgreSQL + Redis, {os.cpu_count()} CPUs (shared: noisy)"
    )
    print(
        f"{'procs':>5} {'clients':>8} {'rounds/s':>10} {'actions':>8} {'p50 ms':>9} "
        f"{'p99 ms':>9} {'errors':>7} {'reconn':>7} {'ratio':>6}"
        + ("  takeover s  p99 after kill ms" if args.failover else "")
        + "  load avg (1 min, before / after)"
    )
    for n in [int(x) for x in args.clients.split(",")]:
        base: float | None = None
        for processes in counts:
            load_before = os.getloadavg()[0]
            r = bench_cluster(n, args.seconds, processes, args.failover and processes > 1)
            load_after = os.getloadavg()[0]
            if processes == 1:
                base = r["rounds_per_s"]
            ratio = r["rounds_per_s"] / base if base else float("nan")
            line = (
                f"{processes:>5} {n:>8} {r['rounds_per_s']:>10.1f} {r['actions']:>8} "
                f"{r['p50_ms']:>9.1f} {r['p99_ms']:>9.1f} {r['errors']:>7} "
                f"{r['reconnects']:>7} {ratio:>6.2f}"
            )
            if r["takeover_s"] is not None:
                line += f"  {r['takeover_s']:>10.2f}  {r['p99_after_kill_ms']:>17.1f}"
            line += f"  {load_before:.1f} / {load_after:.1f}"
            print(line, flush=True)
            if r["takeover_s"] is not None:
                resumed = r["resumed_s"]
                print(
                    "      the killed worker's tables: all claimed "
                    f"{r['takeover_s']:.2f} s after the kill, all resumed "
                    + ("(not within 90 s)" if resumed is None else f"{resumed:.2f} s after it"),
                    flush=True,
                )
            if r["cpu_ms_per_round"] is not None:
                print(
                    f"      CPU in the measured time: server {r['cpu_ms_per_round']:.1f} ms per "
                    f"round, {r['cores_busy']:.2f} cores; PostgreSQL {r['pg_cores']:.2f} cores; "
                    f"the benchmark's clients {r['bench_cores']:.2f} cores",
                    flush=True,
                )
            per = ", ".join(f"{k} {v:.1f}" for k, v in r["per_round"].items())
            print(f"      rows written per round (whole run): {per}", flush=True)
            if r["redis_per_round"]:
                sent = ", ".join(f"{k} {v:.1f}" for k, v in sorted(r["redis_per_round"].items()))
                print(
                    f"      Redis messages published per round (whole run, every host): {sent}; "
                    f"{r['redis_total']:.0f} in all",
                    flush=True,
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", default="100", help="comma-separated client counts (≤ 4000)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds per run")
    parser.add_argument(
        "--processes", default=None, help="comma-separated process counts (PostgreSQL + Redis)"
    )
    parser.add_argument(
        "--failover", action="store_true", help="kill -9 one worker halfway (with --processes)"
    )
    parser.add_argument(
        "--db", default="sqlite", help="one process: comma-separated sqlite, postgresql"
    )
    parser.add_argument(
        "--old",
        type=Path,
        default=None,
        help="a copy of another revision (e.g. `git archive main | tar -x -C /tmp/old`): each "
        "run is made with it too, side by side, old before new",
    )
    parser.add_argument(
        "--new",
        type=Path,
        default=ROOT,
        help="the code measured as new (default: this checkout; a copy keeps a long run from "
        "seeing edits made meanwhile)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="py-spy the server over the measured time; collapsed stacks to PATH.<code>.<db>."
        "<deflate>.<clients>.txt (one process only)",
    )
    parser.add_argument(
        "--compression",
        default="default",
        help="comma-separated permessage-deflate settings of the server: on, off, default",
    )
    args = parser.parse_args()
    if args.processes is not None:
        main_cluster(args)
        return
    print(
        f"bench_server: {GAME} tables, bots in the free seats, one server process, "
        f"{os.cpu_count()} CPUs (shared: figures are noisy when other work runs; CPU per round "
        "and ratios are what count)"
    )
    print(
        "  CPU ms/round: server, PostgreSQL (every backend), the clients (this process); "
        "msgs and KB: received by all clients per settled round (decompressed JSON text); "
        "start: seconds from the server's start to its first answer on an existing database "
        "(first: on a database the server never opened, which seeds the shipped templates)"
    )
    print(
        f"{'code':>4} {'db':>10} {'deflate':>7} {'clients':>7} {'rounds/s':>8} {'p50 ms':>7} "
        f"{'p99 ms':>7} {'server':>7} {'pg':>6} {'client':>6} {'msgs':>5} {'KB':>6} "
        f"{'B/msg':>6} {'start':>6} {'first':>6} {'err':>4}  load avg"
    )
    roots = ([("old", args.old.resolve())] if args.old is not None else []) + [
        ("new", args.new.resolve())
    ]
    choices = {"on": True, "off": False, "default": None}
    for n in [int(x) for x in args.clients.split(",")]:
        if not 1 <= n <= 1000:
            raise SystemExit("clients must be 1..1000")
        for database in args.db.split(","):
            for deflate in args.compression.split(","):
                for label, root in roots:
                    profile = (
                        None
                        if args.profile is None
                        else Path(f"{args.profile}.{label}.{database}.{deflate}.{n}.txt")
                    )
                    r = bench(n, args.seconds, root, database, choices[deflate], profile=profile)
                    cpu = r["cpu_ms_per_round"]
                    print(
                        f"{label:>4} {database:>10} {deflate:>7} {n:>7} "
                        f"{r['rounds_per_s']:>8.1f} {r['p50_ms']:>7.1f} {r['p99_ms']:>7.1f} "
                        f"{cpu if cpu is not None else float('nan'):>7.2f} "
                        f"{r['pg_ms_per_round'] if database != 'sqlite' else 0.0:>6.2f} "
                        f"{r['bench_ms_per_round']:>6.2f} {r['messages_per_round']:>5.1f} "
                        f"{r['kb_per_round']:>6.1f} {r['bytes_per_message']:>6.0f} "
                        f"{r['first_answer_s']:>6.2f} {r['fresh_answer_s']:>6.2f} "
                        f"{r['errors']:>4}  "
                        f"{os.getloadavg()[0]:.1f}",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
