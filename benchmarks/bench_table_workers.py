"""Table work on PostgreSQL in one process, no sockets: how many Pok Deng rounds per second one
`Room` settles with T table threads (`QIPAI_TABLE_WORKERS`), N tables of one person (who bets
the minimum as soon as betting opens, through `Room.call` as the WebSocket handler does) and
three bots, the benchmark's pacing (bot delay 0.02 s, 0.3 s between rounds).

It isolates what `bench_server.py --processes 1` cannot: whether one process's ceiling on
PostgreSQL is its table threads waiting for commits (each journal append is a commit before the
action applies) rather than CPU, JSON or sockets.

    uv run python benchmarks/bench_table_workers.py --tables 200 --workers 4,16 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


async def run(url: str, schema: str, tables: int, workers: int, seconds: float) -> dict[str, float]:
    from sqlalchemy import text

    from qipai.ledger import Ledger
    from qipai.server.room import Room
    from qipai.server.store import RoomStore
    from qipai.tables import games
    from qipai.tables.ledger_adapter import LedgerAdapter
    from qipai.tables.ports import SystemClock
    from qipai.tables.table import Timing

    ledger = Ledger.open(url, schema=schema)
    store = RoomStore(ledger.engine)
    adapter = LedgerAdapter(ledger, layouts=store)
    room = Room(adapter, store, SystemClock(), Timing(0.02, 0.3), workers=workers)
    games.get("pokdeng")
    ids = []
    for i in range(tables):
        name = f"w{workers}p{i}"
        adapter.deposit(name, 10_000_000, f"d-{name}")
        table = room.create_table("pokdeng")
        table.sit(name, name, 1_000_000)
        for _ in range(len(table.seating.free_seats()) - 1):
            table.add_bot()
        ids.append((table.id, name))
    room.start()
    stop = asyncio.Event()

    async def person(table_id: str, name: str) -> None:
        acted: set[str] = set()
        while not stop.is_set():
            await asyncio.sleep(0.01)
            table = room.tables[table_id]
            record = table.record
            if record is None or record.round_id in acted or table.round is None:
                continue
            acted.add(record.round_id)

            def bet(t: object, rid: str = record.round_id) -> object:
                return t.act(  # type: ignore[attr-defined]
                    name,
                    {"type": "bets", "bets": [{"spot": "P1", "amount": 100}], "done": True},
                    f"c-{rid}",
                )

            await room.call(table_id, bet)

    def settled() -> int:
        with ledger.engine.connect() as conn:
            return int(conn.execute(text("SELECT count(*) FROM round_ends")).scalar_one())

    tasks = [asyncio.create_task(person(t, n)) for t, n in ids]
    await asyncio.sleep(3.0)  # warm-up
    r0, cpu0, t0 = settled(), time.process_time(), time.perf_counter()
    await asyncio.sleep(seconds)
    r1, cpu1, t1 = settled(), time.process_time(), time.perf_counter()
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    await room.stop()
    ledger.close()
    rounds = r1 - r0
    return {
        "rounds_per_s": rounds / (t1 - t0),
        "cpu_ms_per_round": 1000 * (cpu1 - cpu0) / max(1, rounds),
        "cpu_share": (cpu1 - cpu0) / (t1 - t0),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--workers", default="4,16")
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    from tests.ledger.conftest import pg_database

    print(
        f"bench_table_workers: {args.tables} Pok Deng tables (1 person + 3 bots) on PostgreSQL, "
        f"one process, {os.cpu_count()} CPUs (shared: noisy)"
    )
    print(f"{'workers':>8} {'rounds/s':>9} {'CPU ms/round':>13} {'CPU share':>10}  load avg")
    for workers in [int(w) for w in args.workers.split(",")]:
        with pg_database("qipai_tw") as (url, _, schema):
            before = os.getloadavg()[0]
            r = asyncio.run(run(url, schema, args.tables, workers, args.seconds))
            after = os.getloadavg()[0]
        print(
            f"{workers:>8} {r['rounds_per_s']:>9.1f} {r['cpu_ms_per_round']:>13.1f} "
            f"{r['cpu_share']:>10.2f}  {before:.1f} / {after:.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
