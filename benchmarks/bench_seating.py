"""What seating one person costs on PostgreSQL: `POST /api/automatch`'s work (the authority's
`lobby.automatch` on a table host's room: lease, layouts, buy-ins, bots) for N people in a row,
with the database's commits and statements counted (SQLAlchemy events on the ledger's engine),
CPU time (this process) and wall time, per person. The tables do not play (the room is not
started), so this is seating alone: in `bench_server.py` it also competes with the tables
already playing.

    uv run python benchmarks/bench_seating.py --people 200
    uv run python benchmarks/bench_seating.py --people 200 --threads 8   # requests side by side
"""

from __future__ import annotations

import argparse
import os
import secrets
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import make_url

PG_URL = os.environ.get("QIPAI_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=200)
    parser.add_argument("--threads", type=int, default=1, help="automatch requests side by side")
    parser.add_argument("--profile", action="store_true", help="cProfile the serial run")
    args = parser.parse_args()

    from qipai.authority import Authority
    from qipai.authority import lobby as authority_lobby
    from qipai.cluster.fenced import FencedLayouts, HostAdapter
    from qipai.cluster.node import host_capacity
    from qipai.cluster.settings import ClusterSettings
    from qipai.ledger import Ledger
    from qipai.server.room import Room
    from qipai.server.settings import Settings
    from qipai.server.store import RoomStore
    from qipai.tables.ports import SystemClock

    os.environ["QIPAI_KEY"] = os.environ.get("QIPAI_KEY") or secrets.token_hex(32)
    schema = f"qipai_seat_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = (
        make_url(PG_URL)
        .update_query_dict({"options": f"-csearch_path={schema}"})
        .render_as_string(hide_password=False)
    )
    ledger = Ledger.open(url)
    try:
        settings = Settings()
        host_capacity(ClusterSettings(), ledger, None)  # the host's writer lanes
        store = RoomStore(ledger.engine)
        layouts = FencedLayouts(store)
        adapter = HostAdapter(ledger, layouts=layouts, host="bench-host")
        layouts.bind(adapter)
        room = Room(adapter, layouts, SystemClock(), settings.timing(), lease_ttl_s=600.0)
        authority = Authority(ledger.engine, settings.authority, ledger=ledger)
        authority.start()
        people = [f"p{i}" for i in range(args.people)]
        for p in people:
            ledger.create_user(p, p)
            ledger.deposit(p, 1_000_000, f"seed-{p}")

        counts: Counter[str] = Counter()
        lock = threading.Lock()

        @event.listens_for(ledger.engine, "before_cursor_execute")
        def _statement(conn: Any, cursor: Any, stmt: str, *rest: Any) -> None:
            with lock:
                counts["statements"] += 1
                if stmt.lstrip().upper().startswith("COMMIT"):
                    counts["commit statements"] += 1

        @event.listens_for(ledger.engine, "commit")
        def _commit(conn: Any) -> None:
            with lock:
                counts["commits"] += 1

        body = {"game": "pokdeng", "buy_in": 100_000}

        def seat(player: str) -> None:
            authority_lobby.automatch(authority, room, player, body)

        cpu0, wall0 = time.process_time(), time.perf_counter()
        load0 = os.getloadavg()[0]
        if args.profile:
            import cProfile
            import pstats

            prof = cProfile.Profile()
            prof.enable()
            for p in people:
                seat(p)
            prof.disable()
            pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
        elif args.threads <= 1:
            for p in people:
                seat(p)
        else:
            with ThreadPoolExecutor(args.threads) as pool:
                list(pool.map(seat, people))
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        n = len(people)
        seated = sum(1 for t in room.tables.values() for _ in t.seating.humans())
        over = [t.id for t in room.tables.values() if len(t.seating.humans()) > 2]
        print(
            f"bench_seating: {n} people, {args.threads} thread(s), {len(room.tables)} tables, "
            f"{seated} seated; load {load0:.1f} -> {os.getloadavg()[0]:.1f}"
        )
        print(
            f"  wall {wall:.1f} s ({1000 * wall / n:.1f} ms a person), CPU {cpu:.1f} s "
            f"({1000 * cpu / n:.1f} ms a person); per person: "
            + ", ".join(f"{k} {v / n:.1f}" for k, v in sorted(counts.items()))
            + ("" if not over else f"; tables with more than 2 people: {len(over)}")
        )
    finally:
        ledger.close()
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


if __name__ == "__main__":
    main()
