"""Card-room load: N WebSocket clients on one `qipai serve` process, each auto-matched to a Pok
Deng table whose other seats are bots, betting and confirming every round as fast as the server
lets them.

Prints rounds settled per second and the p50/p99 latency from sending an action to receiving the
broadcast state it caused. Accounts and sessions are written to the database before the server
starts (signing 1,000 people up through scrypt would measure the password hash, not the room).

    uv run python benchmarks/bench_server.py --clients 100 --seconds 20
    uv run python benchmarks/bench_server.py --clients 10,100,1000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]
GAME = "pokdeng"


def prepare(db: Path, n: int) -> list[str]:
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
    tokens = []
    for i in range(n):
        name = f"benchuser{i}"
        ledger.create_user(name, name)
        ledger.deposit(name, 1_000_000, f"bench-{i}")
        tokens.append(store.new_session(name))
    ledger.close()
    return tokens


STATE = '{"type":"state"'


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


async def client(
    http: httpx.AsyncClient, url: str, token: str, stats: Stats, stop: asyncio.Event
) -> None:
    r = await http.post(
        "/api/automatch",
        json={"game": GAME, "buy_in": 100_000},
        headers={"Authorization": f"Bearer {token}"},
    )
    r.raise_for_status()
    table_id = r.json()["table_id"]
    ws_url = url.replace("http", "ws") + "/ws"
    async with websockets.connect(
        ws_url, max_queue=None, open_timeout=None, ping_interval=None, close_timeout=1
    ) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        await ws.send(json.dumps({"type": "subscribe", "table_id": table_id}))
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
            is_state = raw.startswith(STATE)
            if is_state and sent_at is not None:
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if is_state and not worth_parsing(raw):
                continue
            msg: dict[str, Any] = json.loads(raw)
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
                            "client_id": f"{token[:8]}-{n}",
                            "action": {
                                "type": "bets",
                                "bets": [{"spot": spot, "amount": amount}],
                                "done": True,
                            },
                        }
                    )
                )


async def run_load(url: str, tokens: list[str], seconds: float) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    tasks = []
    # One HTTP client (a pool of keep-alive connections) for every simulated person: the server
    # still serves one automatch request per person, but the benchmark, which shares the
    # machine's cores with the server, does not build 1,000 clients (and TLS contexts) for it.
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=50)
    http = httpx.AsyncClient(base_url=url, timeout=600, limits=limits)
    for token in tokens:  # ramp up gently: automatch is a write
        tasks.append(asyncio.create_task(client(http, url, token, stats, stop)))
        await asyncio.sleep(0.002)
    ramp = time.perf_counter()
    while stats.ready < len(tokens) and time.perf_counter() - ramp < 600:
        await asyncio.sleep(0.5)  # warm-up: every client seated and subscribed
    print(
        f"  {stats.ready}/{len(tokens)} clients seated in {time.perf_counter() - ramp:.0f} s",
        file=sys.stderr,
    )
    await asyncio.sleep(2.0)
    stats.measuring = True
    start = time.perf_counter()
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - start
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


def bench(n: int, seconds: float) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        tokens = prepare(db, n)
        port = 18000 + n % 1000
        env = {**os.environ, "QIPAI_BOT_DELAY": "0.02", "QIPAI_BETWEEN_ROUNDS": "0.3"}
        # The server's log goes to a file (a pipe nobody reads would block the server once
        # full); tracebacks in it are reported after the run.
        log_path = Path(tmp) / "server.log"
        log = log_path.open("wb")
        proc = subprocess.Popen(
            [sys.executable, "-m", "qipai.cli", "serve", "--port", str(port), "--db", str(db)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(600):
                try:
                    httpx.get(url + "/api/games", timeout=60)
                    break
                except httpx.TransportError:
                    time.sleep(0.2)
            stats = asyncio.run(run_load(url, tokens, seconds))
        finally:
            proc.terminate()
            proc.wait()
            log.close()
            text = log_path.read_text(errors="replace")
            if "Traceback" in text:
                tail = "\n".join(text.splitlines()[-15:])
                print(
                    f"  the server logged {text.count('Traceback')} tracebacks; last lines:\n{tail}",
                    file=sys.stderr,
                )
    lat = sorted(stats.latencies)
    elapsed = stats.elapsed  # type: ignore[attr-defined]
    return {
        "clients": n,
        "rounds_per_s": len(stats.rounds) / elapsed,
        "actions": len(lat),
        "p50_ms": 1000 * statistics.median(lat) if lat else float("nan"),
        "p99_ms": 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))] if lat else float("nan"),
        "errors": stats.errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", default="100", help="comma-separated client counts (≤ 1000)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds per run")
    args = parser.parse_args()
    print(
        f"bench_server: {GAME} tables, bots in the free seats, one server process, "
        f"{os.cpu_count()} CPUs (shared: figures are noisy when other work runs)"
    )
    print(
        f"{'clients':>8} {'rounds/s':>10} {'actions':>8} {'p50 ms':>9} {'p99 ms':>9} {'errors':>7}"
    )
    for n in [int(x) for x in args.clients.split(",")]:
        if not 1 <= n <= 1000:
            raise SystemExit("clients must be 1..1000")
        r = bench(n, args.seconds)
        print(
            f"{n:>8} {r['rounds_per_s']:>10.1f} {r['actions']:>8} {r['p50_ms']:>9.1f} "
            f"{r['p99_ms']:>9.1f} {r['errors']:>7}"
        )


if __name__ == "__main__":
    main()
