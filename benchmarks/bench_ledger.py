"""Settled rounds per second on SQLite and PostgreSQL, side by side, with the MAC chain on.

A round = open the round in the journal with its stakes (one transaction holding each of 4
seats' stake), then settle it: capture
the holds and post the 4 seats' results, house, commission and rounding, and reveal its seed.
Sequential (one table) and with 4 tables settling from 4 threads at once (their writes commit
together: group commit). Statements and commits per round are the ledger's own counts.

    uv run python benchmarks/bench_ledger.py [--rounds 400] [--pg URL] [--pg-sync on,off]
        [--pg-writers 1,2] [--no-sqlite | --no-pg]

PostgreSQL: `QIPAI_BENCH_PG_URL` or 127.0.0.1:5432/test; it runs in a temporary schema that is
dropped afterwards, once per `synchronous_commit` level (`QIPAI_PG_SYNC`; `on` = each commit's
WAL flushed to disk before it returns, `off` = the WAL writer flushes within ~0.6 s: a killed
card room loses nothing, a crashed database server or machine may lose the last commits — the
class of SQLite's WAL + NORMAL), and once per number of writer lanes (`QIPAI_PG_WRITERS`, default 1 and 2:
1 = one writer committing every table's operations together; n: n writers with their own
connections, a table always on the same one, so one lane's WAL flush does not hold up the
others' and one lane's tables build their next operations while the other lane's commit). SQLite: a temporary file in WAL mode with `QIPAI_SQLITE_SYNC` (default NORMAL: commits
survive a killed process, the last ones may be lost on power failure; FULL = fsync per commit).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from sqlalchemy import create_engine

from qipai.core.protocol import COMMISSION, HOUSE, ROUNDING, Posting, RoundResult, Seat
from qipai.core.rng import Rng, new_seed
from qipai.ledger import Ledger
from qipai.ledger import db as dbm

SEATS = ("P1", "P2", "P3", "P4")
DEFAULT_PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def result_for(rng: Rng, bets: dict[str, int]) -> RoundResult:
    """A banker-style result: each seat wins 0.95x or loses 1x its bet against the house."""
    postings: list[Posting] = []
    house = commission = rounding = 0
    for seat, bet in bets.items():
        if rng.randbelow(2):
            fee, frac = divmod(bet * 5, 100)
            pay = bet - fee - (1 if frac else 0)
            postings.append(Posting(seat, pay))
            commission, rounding, house = (
                commission + fee,
                rounding + (1 if frac else 0),
                house - bet,
            )
        else:
            postings.append(Posting(seat, -bet))
            house += bet
    postings += [
        Posting(HOUSE, house),
        Posting(COMMISSION, commission),
        Posting(ROUNDING, rounding),
    ]
    return RoundResult(tuple(postings))


def setup_table(ledger: Ledger, table: str) -> dict[str, str]:
    players = {seat: f"{table}-{seat.lower()}" for seat in SEATS}
    for user in players.values():
        ledger.create_user(user)
        ledger.deposit(user, 10_000_000, "bench")
        ledger.buy_in(user, table, 5_000_000, "bench")
    return players


def play(ledger: Ledger, table: str, players: dict[str, str], rounds: int, rng: Rng) -> float:
    """Play `rounds` rounds; returns the CPU this thread spent simulating them (bets, seeds,
    results: the benchmark's own work, not the ledger's), so that it can be reported apart."""
    own = 0.0
    for _ in range(rounds):
        t0 = time.thread_time()
        bets = {seat: 10 + rng.randbelow(491) for seat in SEATS}
        seats, seed = [Seat(s, 0) for s in SEATS], new_seed()
        own += time.thread_time() - t0
        rid = ledger.open_round(
            table_id=table,
            game="bench",
            config={},
            seats=seats,
            players=players,
            seed=seed,
            holds=bets,
        )
        t0 = time.thread_time()
        result = result_for(rng, bets)
        own += time.thread_time() - t0
        ledger.settle_round(rid, result)
    return own


def server_pids(ledger: Ledger) -> list[int]:
    """PostgreSQL: the server processes (backends) of this benchmark's connections, found by
    their `application_name` (`run_backend` sets it); SQLite runs in this process."""
    if ledger.dialect != "postgresql":
        return []
    with ledger.engine.connect() as conn:
        name = conn.exec_driver_sql("SHOW application_name").scalar()
        rows = conn.exec_driver_sql(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s", (name,)
        ).all()
    return [int(r[0]) for r in rows]


def server_cpu(pids: list[int]) -> dict[int, float]:
    """CPU seconds (user + system) each of these server processes has used so far (from
    /proc: the database server runs on this machine); a process gone is left out."""
    tick = os.sysconf("SC_CLK_TCK")
    out: dict[int, float] = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[pid] = (int(fields[11]) + int(fields[12])) / tick
    return out


def buffer_pages(ledger: Ledger) -> float:
    """PostgreSQL: pages of the ledger's tables and indexes its statements have touched so far
    (`pg_statio_user_tables`, shared buffers hit or read), a count that does not depend on the
    machine's load; NaN on SQLite. (A backend reports its counts when idle, within a second.)"""
    if ledger.dialect != "postgresql":
        return float("nan")
    with ledger.engine.connect() as conn:
        return float(
            conn.exec_driver_sql(
                "SELECT coalesce(sum(coalesce(heap_blks_hit, 0) + coalesce(heap_blks_read, 0)"
                " + coalesce(idx_blks_hit, 0) + coalesce(idx_blks_read, 0)), 0)"
                " FROM pg_statio_user_tables WHERE schemaname = current_schema()"
            ).scalar_one()
        )


STATS_DELAY_S = 1.2
"""PostgreSQL's backends flush their table statistics at most once a second."""

Figures = dict[str, float]


def measure(ledger: Ledger, rounds: int, threads: int) -> Figures:
    """Rounds per second, statements and commits per round, this process's CPU per round, and
    the load average while it ran."""
    tables = [f"bench{threads}x{i}" for i in range(threads)]
    players = {t: setup_table(ledger, t) for t in tables}
    per = rounds // threads
    for t in tables:  # warm: the first round of a table reads what later rounds know
        play(ledger, t, players[t], 1, Rng(new_seed(), t))
    pids = server_pids(ledger)
    if ledger.dialect == "postgresql":
        time.sleep(STATS_DELAY_S)
    pages = buffer_pages(ledger)
    before = ledger.stats()
    server_before = server_cpu(pids)
    start, cpu = time.perf_counter(), time.process_time()
    with ThreadPoolExecutor(max_workers=threads) as pool:
        jobs = [pool.submit(play, ledger, t, players[t], per, Rng(new_seed(), t)) for t in tables]
        own = sum(job.result() for job in jobs)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    server_after = server_cpu(pids)
    after = ledger.stats()
    load = os.getloadavg()[0]
    if ledger.dialect == "postgresql":
        time.sleep(STATS_DELAY_S)
    pages = buffer_pages(ledger) - pages
    n = per * threads
    server = sum(server_after[p] - server_before[p] for p in server_after if p in server_before)
    return {
        "rounds/s": n / elapsed,
        "statements": (after["statements"] - before["statements"]) / n,
        "commits": (after["commits"] - before["commits"]) / n,
        "cpu_ms": cpu / n * 1000,
        "bench_ms": own / n * 1000,
        "ledger_ms": (cpu - own) / n * 1000,
        "server_ms": server / n * 1000 if pids else float("nan"),
        "pages": pages / n,
        "load": load,
    }


def durability(ledger: Ledger) -> str:
    with ledger.engine.connect() as conn:
        if ledger.dialect == "postgresql":
            return "synchronous_commit=" + str(
                conn.exec_driver_sql("SHOW synchronous_commit").scalar()
            )
        level = conn.exec_driver_sql("PRAGMA synchronous").scalar()
        return (
            f"WAL synchronous={ {0: 'OFF', 1: 'NORMAL', 2: 'FULL', 3: 'EXTRA'}.get(level, level) }"
        )


def run_backend(
    name: str,
    url: str,
    schema: str | None,
    rounds: int,
    sync: str | None = None,
    writers: int | None = None,
) -> tuple[dict[str, Figures], str]:
    settings = {
        "QIPAI_PG_SYNC": sync,
        "QIPAI_PG_WRITERS": None if writers is None else str(writers),
    }
    saved = {k: os.environ.get(k) for k in settings}
    for k, v in settings.items():
        if v is not None:
            os.environ[k] = v
    if url.startswith("postgresql"):  # names the benchmark's server processes (`server_pids`)
        url += ("&" if "?" in url else "?") + f"application_name=qipai_bench_{os.getpid()}"
    try:
        ledger = Ledger.open(url, schema=schema)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    try:
        figures = {"1 table": measure(ledger, rounds, 1), "4 tables": measure(ledger, rounds, 4)}
        audit = ledger.audit(replay=False)
        # (the benchmark runs as one role: the owner/app role split is the tests' and CI's)
        wrong = [v for v in audit.violations if not v.startswith("application role")]
        if wrong:
            raise SystemExit(f"{name}: audit failed after the benchmark: {wrong}")
        return figures, durability(ledger)
    finally:
        ledger.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=400, help="rounds per measurement")
    parser.add_argument("--pg", default=os.environ.get("QIPAI_BENCH_PG_URL", DEFAULT_PG))
    parser.add_argument(
        "--pg-sync",
        default="on,off",
        help="PostgreSQL synchronous_commit levels to measure, comma-separated (QIPAI_PG_SYNC)",
    )
    parser.add_argument(
        "--pg-writers",
        default="1,2",
        help="PostgreSQL writer lanes to measure, comma-separated (QIPAI_PG_WRITERS; 1 = one "
        "writer, group commit across all tables; 2 = the 4 tables two by two on two lanes, so "
        "that one lane's tables build their next operations while the other's commit)",
    )
    parser.add_argument("--no-pg", action="store_true", help="SQLite only")
    parser.add_argument("--no-sqlite", action="store_true", help="PostgreSQL only")
    args = parser.parse_args()

    results: dict[str, dict[str, Figures]] = {}
    modes: dict[str, str] = {}
    if not args.no_sqlite:
        with tempfile.TemporaryDirectory() as tmp:
            results["SQLite"], modes["SQLite"] = run_backend(
                "SQLite", str(Path(tmp) / "bench.sqlite3"), None, args.rounds
            )
    syncs = [] if args.no_pg else [s.strip() for s in args.pg_sync.split(",") if s.strip()]
    lanes = [int(w) for w in args.pg_writers.split(",") if w.strip()]
    for sync, writers in [(s, w) for s in syncs for w in lanes]:
        schema = f"qipai_bench_{uuid.uuid4().hex[:8]}"
        name = f"PG {sync}" + (f" w{writers}" if len(lanes) > 1 or writers != 1 else "")
        try:
            results[name], modes[name] = run_backend(
                "PostgreSQL", args.pg, schema, args.rounds, sync, writers
            )
        except Exception as exc:  # no server: say so, keep the SQLite figures
            print(f"PostgreSQL skipped: {type(exc).__name__}: {str(exc).splitlines()[0]}")
            break
        finally:
            try:
                engine = create_engine(args.pg)
                dbm.drop_schema(engine, schema)
                engine.dispose()
            except Exception:
                pass

    print(
        f"settled 4-seat rounds per second, MAC chain on ({args.rounds} rounds each; "
        f"{os.cpu_count()} CPUs)"
    )
    for backend, mode in modes.items():
        print(f"  {backend:8} {mode}")
    names = list(results)
    print(f"{'':10}" + "".join(f"{n:>22}" for n in names))
    for mode in ("1 table", "4 tables"):
        cells = [
            f"{results[n][mode]['rounds/s']:8.0f} r/s (load {results[n][mode]['load']:4.1f})"
            for n in names
        ]
        print(f"{mode:10}" + "".join(f"{c:>22}" for c in cells))
    print("statements / commits per round, CPU ms per round (this process, all threads)")
    for mode in ("1 table", "4 tables"):
        cells = [
            f"{results[n][mode]['statements']:5.1f} / {results[n][mode]['commits']:4.2f}, "
            f"{results[n][mode]['cpu_ms']:4.2f} ms"
            for n in names
        ]
        print(f"{mode:10}" + "".join(f"{c:>22}" for c in cells))
    print(
        "CPU ms per round: the ledger's (this process minus the benchmark's own round simulation)"
        " / the simulation's / the database server's (PostgreSQL's backends; SQLite works inside"
        " the ledger's share)"
    )
    for mode in ("1 table", "4 tables"):
        cells = []
        for n in names:
            f = results[n][mode]
            server = "-" if f["server_ms"] != f["server_ms"] else f"{f['server_ms']:.2f}"
            cells.append(f"{f['ledger_ms']:.2f} / {f['bench_ms']:.3f} / {server}")
        print(f"{mode:10}" + "".join(f"{c:>22}" for c in cells))
    pg = [n for n in names if results[n]["4 tables"]["pages"] == results[n]["4 tables"]["pages"]]
    if pg:
        print(
            "PostgreSQL: table and index pages touched per round (shared buffers; does not "
            "depend on the load)"
        )
        for mode in ("1 table", "4 tables"):
            cells = [f"{results[n][mode]['pages']:.0f}" for n in pg]
            print(f"{mode:10}" + "".join(f"{c:>22}" for c in cells) + "   (" + ", ".join(pg) + ")")


if __name__ == "__main__":
    main()
