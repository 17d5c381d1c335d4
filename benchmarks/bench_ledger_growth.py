"""Settled rounds per second as the books grow: one SQLite file, 4 tables settling from 4
threads (as `bench_ledger.py`'s 4-table run), measured segment by segment.

    uv run python benchmarks/bench_ledger_growth.py [--segment 2000] [--segments 8]

Each segment plays `--segment` rounds (a quarter at each table) on the same file, so the last
segments write into books of `segment × (segments − 1)` rounds. Rounds/s that fall from segment
to segment mean a write costs more as the books grow (docs/ledger.md §8: random
round ids put every round at a random leaf of each index keyed by round).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench_ledger import play, setup_table

from qipai.core.rng import Rng, new_seed
from qipai.ledger import Ledger

TABLES = 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--segment", type=int, default=2000, help="rounds per segment")
    parser.add_argument("--segments", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "growth.sqlite3"
        ledger = Ledger.open(str(path))
        try:
            tables = [f"growth{i}" for i in range(TABLES)]
            players = {t: setup_table(ledger, t) for t in tables}
            rates = []
            for _ in range(args.segments):
                start = time.perf_counter()
                with ThreadPoolExecutor(max_workers=TABLES) as pool:
                    jobs = [
                        pool.submit(
                            play, ledger, t, players[t], args.segment // TABLES, Rng(new_seed(), t)
                        )
                        for t in tables
                    ]
                    for job in jobs:
                        job.result()
                rates.append(args.segment // TABLES * TABLES / (time.perf_counter() - start))
        finally:
            ledger.close()
        size = path.stat().st_size / 1e6
    print(
        f"SQLite, {TABLES} tables, rounds/s per segment of {args.segment} rounds "
        f"(load {os.getloadavg()[0]:.1f}; file {size:.0f} MB at the end):"
    )
    print("  " + "  ".join(f"{r:.0f}" for r in rates))


if __name__ == "__main__":
    main()
