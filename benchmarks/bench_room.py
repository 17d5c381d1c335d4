"""A card room at human pacing: N people seated by automatch at Pok Deng tables (bots in the
free seats), each thinking 1-4 s before each bet, the bet confirmed at once as a person's
"done"; plus M spectators watching those tables. The tables run their default countdowns.

Prints the action→state latency of the people (p50, p99), the server's CPU (cores busy and ms
per settled round), what the clients received per second, and the people held per core at that
latency (N ÷ cores busy); the load generator's own CPU is reported apart.

    uv run python benchmarks/bench_room.py --people 200 --spectators 0,200 --seconds 60
    uv run python benchmarks/bench_room.py --people 200 --old /tmp/old   # side by side

Only Pok Deng is played so far: the Niu Niu and Hold'em people of the issue's room need a
client strategy each (their actions' shapes differ) and are not written yet.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from bench_server import (
    RESYNC,
    ROOT,
    Frames,
    _cpu_seconds,
    _first_answer,
    _server_env,
    _warmed,
    prepare,
)

GAME = "pokdeng"


class Room:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.rounds: set[str] = set()
        self.messages = 0
        self.spectator_messages = 0
        self.chars = 0  # characters of the messages the people received (ASCII: bytes)
        self.spectator_chars = 0
        self.errors = 0
        self.measuring = False
        self.ready = 0
        self.tables: list[str] = []


async def person(
    http: httpx.AsyncClient, url: str, token: str, room: Room, stop: asyncio.Event
) -> None:
    r = await http.post(
        "/api/automatch",
        json={"game": GAME, "buy_in": 100_000},
        headers={"Authorization": f"Bearer {token}"},
    )
    r.raise_for_status()
    table_id = r.json()["table_id"]
    room.tables.append(table_id)
    rng = random.Random(token)
    async with websockets.connect(
        url.replace("http", "ws") + "/ws", max_queue=None, ping_interval=None, close_timeout=1
    ) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token, "deltas": True}))
        await ws.send(json.dumps({"type": "subscribe", "table_id": table_id}))
        frames = Frames()
        room.ready += 1
        sent_at: float | None = None
        acted: str | None = None
        thinking: asyncio.Task[None] | None = None
        n = 0

        async def bet(round_id: str, amount: int, think_s: float, version: str) -> None:
            nonlocal sent_at, n
            await asyncio.sleep(think_s)
            n += 1
            sent_at = time.perf_counter()
            await ws.send(
                json.dumps(
                    {
                        "type": "action",
                        "table_id": table_id,
                        "client_id": f"{token[:8]}-{round_id[:8]}-{n}",
                        "version": version,  # the state it was built from (docs/protocol.md)
                        "action": {
                            "type": "bets",
                            "bets": [{"spot": "P1", "amount": amount}],
                            "done": True,
                        },
                    }
                )
            )

        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            assert isinstance(raw, str)
            if room.measuring:
                room.messages += 1
                room.chars += len(raw)
            is_state, parsed = frames.read(raw)
            if is_state and sent_at is not None:
                if room.measuring:
                    room.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if parsed is RESYNC:
                await ws.send(json.dumps({"type": "subscribe", "table_id": table_id}))
                continue
            if parsed is None:
                continue
            msg = parsed
            if msg["type"] == "error":
                room.errors += 1
                sent_at = None
                continue
            if msg["type"] != "state":
                continue
            rnd = msg.get("round")
            if rnd and rnd["finished"] and room.measuring:
                room.rounds.add(rnd["round_id"])
            if rnd and not rnd["finished"] and msg["legal"] and acted != rnd["round_id"]:
                spec = next((a for a in msg["legal"] if a["type"] == "bets"), None)
                if spec is None or (thinking is not None and not thinking.done()):
                    continue
                acted = rnd["round_id"]
                amount = spec["spots"]["P1"]["min"]
                thinking = asyncio.create_task(
                    bet(acted, amount, rng.uniform(1.0, 4.0), msg["version"])
                )
        if thinking is not None:
            thinking.cancel()


async def spectator(url: str, token: str, table_id: str, room: Room, stop: asyncio.Event) -> None:
    async with websockets.connect(
        url.replace("http", "ws") + "/ws", max_queue=None, ping_interval=None, close_timeout=1
    ) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token, "deltas": True}))
        await ws.send(json.dumps({"type": "subscribe", "table_id": table_id}))
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            if room.measuring:
                room.spectator_messages += 1
                room.spectator_chars += len(raw)


async def load(
    url: str, people: list[str], watchers: list[str], seconds: float, pid: int
) -> dict[str, Any]:
    room = Room()
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=50)
    http = httpx.AsyncClient(base_url=url, timeout=600.0, limits=limits)
    tasks = []
    for token in people:
        tasks.append(asyncio.create_task(person(http, url, token, room, stop)))
        await asyncio.sleep(0.005)
    while room.ready < len(people) and not any(t.done() for t in tasks):
        await asyncio.sleep(0.5)
    tables = sorted(set(room.tables))
    for i, token in enumerate(watchers):
        tasks.append(
            asyncio.create_task(spectator(url, token, tables[i % len(tables)], room, stop))
        )
    await asyncio.sleep(10.0)  # every table through a round with its spectators
    room.measuring = True
    cpu0, gen0, start = _cpu_seconds([pid]), time.process_time(), time.perf_counter()
    await asyncio.sleep(seconds)
    room.measuring = False
    elapsed = time.perf_counter() - start
    cpu, gen = _cpu_seconds([pid]) - cpu0, time.process_time() - gen0
    stop.set()
    done = await asyncio.gather(*tasks, return_exceptions=True)
    await http.aclose()
    failed = [d for d in done if isinstance(d, BaseException)]
    if failed:
        print(f"  {len(failed)} clients failed, e.g. {failed[0]!r}", file=sys.stderr)
    lat = sorted(room.latencies)
    cores = cpu / elapsed
    return {
        "tables": len(tables),
        "actions": len(lat),
        "p50_ms": 1000 * statistics.median(lat) if lat else float("nan"),
        "p99_ms": 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))] if lat else float("nan"),
        "cores": cores,
        "ms_per_round": 1000 * cpu / max(1, len(room.rounds)),
        "rounds_per_s": len(room.rounds) / elapsed,
        "people_per_core": len(people) / cores if cores else float("nan"),
        "generator_cores": gen / elapsed,
        "msgs_per_s": room.messages / elapsed,
        # what the people (not the spectators) received per round settled
        "msgs_per_round": room.messages / max(1, len(room.rounds)),
        "kb_per_round": room.chars / 1000 / max(1, len(room.rounds)),
        "watch_kb_per_s": room.spectator_chars / 1000 / elapsed,
        "spectator_msgs_per_s": room.spectator_messages / elapsed,
        "errors": room.errors,
    }


def run(root: Path, n: int, m: int, seconds: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "room.db")
        tokens = prepare(db, n + m)
        port = 19000 + (n + m) % 1000
        env = _server_env(root, None)
        for name in ("QIPAI_BOT_DELAY", "QIPAI_BETWEEN_ROUNDS"):  # the room's own pacing
            env.pop(name, None)
        log = (Path(tmp) / "server.log").open("wb")
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "qipai.cli", "serve", "--port", str(port), "--db", db],
            cwd=root,
            env=env,
            stdout=log,
            stderr=log,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            _first_answer(url, proc, started)
            _warmed(url)
            return asyncio.run(load(url, tokens[:n], tokens[n:], seconds, proc.pid))
        finally:
            proc.terminate()
            proc.wait()
            log.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", default="200", help="comma-separated counts of people")
    parser.add_argument("--spectators", default="0", help="comma-separated counts of spectators")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured seconds per run")
    parser.add_argument("--old", type=Path, default=None, help="a copy of another revision")
    parser.add_argument("--new", type=Path, default=ROOT, help="the code measured as new")
    args = parser.parse_args()
    roots = ([("old", args.old.resolve())] if args.old is not None else []) + [
        ("new", args.new.resolve())
    ]
    print(
        f"bench_room: {GAME} tables at human pacing (think 1-4 s, default countdowns), one "
        f"server process on SQLite, {os.cpu_count()} CPUs (shared: noisy)"
    )
    print(
        f"{'code':>4} {'people':>6} {'watch':>6} {'tables':>6} {'actions':>7} {'p50 ms':>7} "
        f"{'p99 ms':>7} {'cores':>6} {'ms/rnd':>7} {'ppl/core':>8} {'gen cores':>9} "
        f"{'msg/s':>7} {'msg/rnd':>7} {'KB/rnd':>6} {'watch msg/s':>11} {'watch KB/s':>10} "
        f"{'err':>4}  load avg"
    )
    for n in [int(x) for x in args.people.split(",")]:
        for m in [int(x) for x in args.spectators.split(",")]:
            for label, root in roots:
                r = run(root, n, m, args.seconds)
                print(
                    f"{label:>4} {n:>6} {m:>6} {r['tables']:>6} {r['actions']:>7} "
                    f"{r['p50_ms']:>7.1f} {r['p99_ms']:>7.1f} {r['cores']:>6.2f} "
                    f"{r['ms_per_round']:>7.2f} {r['people_per_core']:>8.0f} "
                    f"{r['generator_cores']:>9.2f} {r['msgs_per_s']:>7.0f} "
                    f"{r['msgs_per_round']:>7.1f} {r['kb_per_round']:>6.1f} "
                    f"{r['spectator_msgs_per_s']:>11.0f} {r['watch_kb_per_s']:>10.1f} "
                    f"{r['errors']:>4}  {os.getloadavg()[0]:.1f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
