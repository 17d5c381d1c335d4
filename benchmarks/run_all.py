"""Run every benchmark in benchmarks/ and write one current table to docs/benchmarks.md.

    uv run python benchmarks/run_all.py            # full sizes (the figures of a release)
    uv run python benchmarks/run_all.py --quick    # small sizes: minutes, for a loaded machine
    uv run python benchmarks/run_all.py --only paigow,pokdeng --out /tmp/b.md --no-readme

Each benchmark runs as its own process (`python benchmarks/<name>.py ARGS`, the command the
table shows beside its figures), and its printed figures are read back. The page starts with
the machine, its cores, the load average before and after and the date, because a figure
measured on a shared, loaded machine is a lower bound: read CPU-time figures and ratios
measured side by side in one run before wall-clock rates. A benchmark whose prerequisite is
missing (PostgreSQL, Redis, Chromium, dieharder) is listed as not run, with the reason.

The README's performance table is a few rows of this table, copied between the markers
`<!-- benchmarks:begin -->` and `<!-- benchmarks:end -->` (`README_ROWS`), so the two cannot
disagree (tests/docs/test_benchmarks_page.py checks it). Figures over time live in git.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "benchmarks.md"
README = ROOT / "README.md"
BEGIN, END = "<!-- benchmarks:begin -->", "<!-- benchmarks:end -->"
HEADER = "| figure | qipai | peer | goal | command |\n|---|---|---|---|---|"


class NotRecognised(Exception):
    """A benchmark's output did not have the line a figure is read from."""


@dataclass(frozen=True)
class Row:
    figure: str
    value: str
    peer: str = "—"
    goal: str = "—"
    command: str = ""

    def markdown(self) -> str:
        cells = (self.figure, self.value, self.peer, self.goal, f"`{self.command}`")
        return "| " + " | ".join(c.replace("|", "/") for c in cells) + " |"


Parser = Callable[[str, str], list[Row]]


@dataclass(frozen=True)
class Bench:
    name: str
    full: tuple[str, ...]
    quick: tuple[str, ...]
    parse: Parser
    needs: Callable[[], str | None] = field(default=lambda: None)
    script: str = ""  # default: bench_<name>.py

    @property
    def path(self) -> str:
        return f"benchmarks/{self.script or f'bench_{self.name}.py'}"

    def args(self, quick: bool) -> tuple[str, ...]:
        return self.quick if quick else self.full

    def command(self, quick: bool) -> str:
        return f"uv run python {self.path} {' '.join(self.args(quick))}".strip()


def grab(pattern: str, text: str) -> re.Match[str]:
    match = re.search(pattern, text, re.MULTILINE)
    if match is None:
        raise NotRecognised(pattern)
    return match


def num(text: str) -> float:
    return float(text.replace(",", ""))


def big(value: float) -> str:
    """1,234,567 -> '1.23 M'; 12,345 -> '12.3 k' (three significant figures)."""
    for unit, scale in (("M", 1e6), ("k", 1e3)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value:.3g}"


# ----- parsers: one per benchmark, reading the lines it prints -------------------------------


def parse_evaluator(out: str, cmd: str) -> list[Row]:
    def rate(label: str) -> float:
        return num(grab(rf"^{re.escape(label)}\s+[\d,]+\s+([\d,]+)", out).group(1))

    batched, single = (
        rate("qipai batched (numba, 1 core)"),
        rate("qipai single (Python call per hand)"),
    )
    phe, treys = rate("phevaluator (C extension)"), rate("treys (pure Python)")
    agree = all(f"{lib} agrees" in out and "False" not in out for lib in ("phevaluator", "treys"))
    return [
        Row(
            "7-card hand evaluation, batched (1 core), per CPU s",
            f"{big(batched)} hands",
            f"phevaluator {big(phe)} ({batched / phe:.0f}x); treys {big(treys)}",
            "≥ 20 M and ≥ 50x the fastest peer",
            cmd,
        ),
        Row(
            "7-card hand evaluation, one Python call per hand, per CPU s",
            f"{big(single)} hands",
            f"phevaluator {big(phe)}" + ("" if agree else " (DISAGREES)"),
            "—",
            cmd,
        ),
    ]


def parse_niuniu(out: str, cmd: str) -> list[Row]:
    classify = grab(r"classify all 2,598,960 hands, best of \d+: ([\d.]+) ms", out).group(1)
    advisor = grab(r"worst ([\d.]+) ms .*median ([\d.]+) ms", out)
    return [
        Row("Niu Niu: classify all 2,598,960 hands", f"{classify} ms", "—", "< 1 s", cmd),
        Row(
            "Niu Niu swap advisor, worst random hand (16 choices, exact)",
            f"{advisor.group(1)} ms (median {advisor.group(2)} ms)",
            "—",
            "< 200 ms",
            cmd,
        ),
    ]


def parse_analysis(out: str, cmd: str) -> list[Row]:
    def cpu(label: str) -> str:
        return grab(rf"^{re.escape(label)}\s+[\d.]+ s wall\s+([\d.]+) s CPU", out).group(1)

    sim = grab(r"^pokdeng classic\s+[\d,]+ rounds\s+([\d,]+) rounds per CPU second", out)
    return [
        Row(
            "Pok Deng exact return, every bet of both modes",
            f"{cpu('Pok Deng: every bet, both modes, 8-deck shoe')} s CPU",
            "—",
            "< 1 s",
            cmd,
        ),
        Row(
            "Niu Niu exact hand-type distribution",
            f"{cpu('Niu Niu: hand-type distribution of 5 random cards')} s CPU",
            "—",
            "< 1 s",
            cmd,
        ),
        Row(
            "Pai Gow exact player expectation, 4 rule settings",
            f"{cpu('Pai Gow: player v banker, 2 tie policies × 2 high_nine')} s CPU",
            "—",
            "—",
            cmd,
        ),
        Row(
            "`qipai simulate pokdeng` (classic), rounds per CPU s",
            sim.group(1),
            "—",
            "≥ 20,000",
            cmd,
        ),
    ]


def parse_paigow(out: str, cmd: str) -> list[Row]:
    pairs = grab(r"hand comparison, all 496 x 496 pairs\s+([\d,]+) pairs/s", out).group(1)
    games = grab(r"two-round games .*?\s([\d,]+) games/s", out).group(1)
    return [
        Row(
            "Pai Gow: hand comparisons / two-round games per s",
            f"{big(num(pairs))} / {games}",
            "—",
            "—",
            cmd,
        )
    ]


def parse_pokdeng(out: str, cmd: str) -> list[Row]:
    loop = grab(r"empty Python loop of 10\^6 takes (\d+) ms", out).group(1)
    engine = grab(r"round engine, classic\s*, all spots bet:\s+([\d,]+) rounds/s", out).group(1)
    return [
        Row(
            "Pok Deng round engine, every spot bet, rounds/s",
            engine,
            f"an empty loop of 10^6: {loop} ms CPU",
            "—",
            cmd,
        )
    ]


def parse_holdem(out: str, cmd: str) -> list[Row]:
    turn = grab(
        r"strategy: (\d+) turn decisions \(on demand, exact\)\s+wall\s+[\d.]+ s\s+cpu\s+([\d.]+) s",
        out,
    )
    rows = [
        Row(
            "Hold'em Bonus turn decision, exact on demand",
            f"{1000 * num(turn.group(2)) / int(turn.group(1)):.0f} ms CPU",
            "—",
            "—",
            cmd,
        )
    ]
    full = re.search(r"^full .*?wall\s+([\d.]+) s\s+cpu\s+([\d.]+) s", out, re.MULTILINE)
    if full:
        rows.append(
            Row(
                "Hold'em Bonus optimal strategy, exact over every deal",
                f"{full.group(2)} s CPU",
                "—",
                "< 10 min",
                cmd,
            )
        )
    return rows


def parse_tiengow(out: str, cmd: str) -> list[Row]:
    mean = grab(r"mean result\s+([+-][\d.]+) base units/game\s+95% CI (\[[^\]]+\])", out)
    games = grab(r"games played\s+([\d,]+)", out).group(1)
    think = grab(r"E bot thinking\s+[\d.]+ ms/decision wall, ([\d.]+) ms CPU", out).group(1)
    return [
        Row(
            f"Tien Gow strong bot vs 3 rule-of-thumb bots, {games} games",
            f"{mean.group(1)} units/game {mean.group(2)}",
            "rule-of-thumb in its seat: ≈ 0",
            "> 0",
            cmd,
        ),
        Row("Tien Gow strong bot, CPU per decision", f"{think} ms", "—", "—", cmd),
    ]


def parse_ledger(out: str, cmd: str) -> list[Row]:
    header = grab(r"^\s+SQLite\s+PG .*$", out).group(0)
    names = re.split(r"\s{2,}", header.strip())  # "SQLite", "PG on", "PG off w2", …
    rows = []
    for tables in ("1 table", "4 tables"):
        rates = [
            int(r) for r in re.findall(r"(\d+) r/s", grab(rf"^{tables}\s+(.*r/s.*)$", out).group(1))
        ]
        named = dict(zip(names, rates, strict=False))
        pg = {k: v for k, v in named.items() if k.startswith("PG")}
        best = max(pg, key=lambda k: pg[k]) if pg else None
        rows.append(
            Row(
                f"ledger: settled 4-seat rounds/s, {tables} (MAC chains on)",
                f"SQLite {named.get('SQLite', '—')}",
                f"PostgreSQL {pg[best]} ({best[3:]})" if best else "—",
                "—",
                cmd,
            )
        )
    cpu = grab(r"^4 tables\s+[\d.]+ / [\d.]+, ([\d.]+) ms\s+[\d.]+ / [\d.]+, ([\d.]+) ms", out)
    rows.append(
        Row(
            "ledger: CPU per settled round, 4 tables",
            f"SQLite {cpu.group(1)} ms",
            f"PostgreSQL {cpu.group(2)} ms (this process; the server's own is printed apart)",
            "—",
            cmd,
        )
    )
    return rows


def parse_ledger_growth(out: str, cmd: str) -> list[Row]:
    rates = grab(r"rounds/s per segment.*\n\s+([\d ]+)$", out).group(1).split()
    return [
        Row(
            "ledger: 4-table rounds/s as the SQLite books grow, first → last segment",
            f"{rates[0]} → {rates[-1]}",
            "—",
            "no fall",
            cmd,
        )
    ]


def parse_server(out: str, cmd: str) -> list[Row]:
    """bench_server's result rows: code db deflate clients rounds/s p50 p99 server pg client msgs
    KB B/msg start first err load."""
    rows = []
    for m in re.finditer(
        r"^\s*(\S+)\s+(sqlite|postgresql)\s+(\S+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)"
        r"\s+([\d.]+)\s+([\d.]+)\s+[\d.]+\s+([\d.]+)\s+([\d.]+)\s+\d+\s+([\d.]+)\s+[\d.]+"
        r"\s+(\d+)\b",
        out,
        re.MULTILINE,
    ):
        _code, db, _deflate, clients, rate, p50, p99, server, pg, msgs, kb, start, errors = (
            m.groups()
        )
        database = "SQLite" if db == "sqlite" else f"PostgreSQL (+{pg} ms of its own)"
        rows.append(
            Row(
                f"card room: {clients} WebSocket clients playing Pok Deng, one process, {database}",
                f"{server} ms server CPU a round; {kb} KB in {msgs} messages a round",
                f"{rate} rounds/s, p50 {p50} ms, p99 {p99} ms; start {start} s; {errors} errors",
                "≤ 1.5 ms a round, ≤ 6 KB; p99 ≤ 50 ms; start ≤ 1.5 s",
                cmd,
            )
        )
    if not rows:
        raise NotRecognised("no client row")
    return rows


def parse_render(out: str, cmd: str) -> list[Row]:
    import json

    summary = json.loads(out.strip().splitlines()[-1])
    return [
        Row(
            "browser client: drawing a table state in Chromium, p95",
            f"{summary['p95_ms']} ms ({summary['draws']} draws)",
            f"script alone {summary['js_p95_ms']} ms",
            f"≤ {summary['goal_ms']} ms",
            cmd,
        )
    ]


def parse_abuse(out: str, cmd: str) -> list[Row]:
    goals = re.findall(r"^\s+\(([a-d])\).*: (met|NOT met) \(", out, re.MULTILINE)
    if not goals:
        raise NotRecognised("no goal lines")
    met = sum(1 for _, verdict in goals if verdict == "met")
    return [
        Row(
            "card room under abuse: probe p99 goals met (wrong sign-ins, flood, slow readers, idle sockets)",
            f"{met} of {len(goals)}",
            "—",
            "all",
            cmd,
        )
    ]


def parse_envs(out: str, cmd: str) -> list[Row]:
    def rate(system: str, what: str) -> float | None:
        m = re.search(rf"^{re.escape(system)}\s+{re.escape(what)}\s+([\d,]+)\s*$", out, re.M)
        return num(m.group(1)) if m else None

    batch = re.findall(r"^qipai\s+(\S+) \(batch, (\d+) tables per call\)\s+([\d,]+)\s*$", out, re.M)
    if not batch:
        raise NotRecognised("no batch rows")
    rlcard = rate("RLCard", "limit-holdem")
    spiel = rate("OpenSpiel", "HU limit Hold'em (universal_poker)")
    peers = (
        "; ".join(
            f"{name} {big(value)}"
            for name, value in (("RLCard limit Hold'em", rlcard), ("OpenSpiel HU limit", spiel))
            if value is not None
        )
        or "peers not installed (uv sync --group bench)"
    )
    single = re.findall(
        r"^qipai\s+(\S+) \(PettingZoo (AEC|parallel), single table\)\s+([\d,]+)\s*$", out, re.M
    )
    rows = []
    for api in ("AEC", "parallel"):
        rates = sorted((num(v), game) for game, kind, v in single if kind == api)
        if rates:
            (low, slow), (high, fast) = rates[0], rates[-1]
            rows.append(
                Row(
                    f"environment steps per CPU s, one table (PettingZoo {api}), "
                    "slowest … fastest game",
                    f"{slow} {big(low)} … {fast} {big(high)}",
                    peers,
                    "≥ RLCard limit Hold'em for every game",
                    cmd,
                )
            )
    return rows + [
        Row(
            f"environment steps per CPU s, {game} batch ({tables} tables a call)",
            f"{big(num(steps))}",
            peers,
            "≥ 1 M (Pok Deng, Niu Niu); ≥ 100 k (Hold'em Bonus)",
            cmd,
        )
        for game, tables, steps in batch
    ]


def parse_room(out: str, cmd: str) -> list[Row]:
    rows = re.findall(
        r"^\s*new\s+(\d+)\s+(\d+)\s+\d+\s+\d+\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)",
        out,
        re.M,
    )
    if not rows:
        raise NotRecognised("no result rows")
    return [
        Row(
            f"room at human pacing: {people} people, {watch} spectators, action→state p99",
            f"{p99} ms ({per_core} people per core)",
            f"p50 {p50} ms; {cores} cores",
            "p99 ≤ 100 ms at ≥ 5,000 people per core",
            cmd,
        )
        for people, watch, p50, p99, cores, _ms, per_core in rows
    ]


def parse_seating(out: str, cmd: str) -> list[Row]:
    m = grab(r"CPU [\d.]+ s \(([\d.]+) ms a person\); per person: (.*)$", out)
    return [
        Row(
            "seating one person on PostgreSQL (automatch), CPU",
            f"{m.group(1)} ms",
            m.group(2),
            "—",
            cmd,
        )
    ]


def parse_table_workers(out: str, cmd: str) -> list[Row]:
    rows = re.findall(
        r"^\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+[\d.]+\s+[\d.]+ / [\d.]+$", out, re.MULTILINE
    )
    if not rows:
        raise NotRecognised("no worker row")
    text = "; ".join(f"{w} threads {r} rounds/s" for w, r, _ in rows)
    return [Row("table threads on PostgreSQL, one process, rounds/s", text, "—", "—", cmd)]


def parse_rng(out: str, cmd: str) -> list[Row]:
    passed = len(re.findall(r"\bPASSED\b", out))
    weak = len(re.findall(r"\bWEAK\b", out))
    failed = len(re.findall(r"\bFAILED\b", out))
    return [
        Row(
            "deal stream through dieharder: passed / weak / failed",
            f"{passed} / {weak} / {failed}",
            "—",
            "no FAILED",
            cmd,
        )
    ]


# ----- prerequisites --------------------------------------------------------------------------


def _port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def needs_pg() -> str | None:
    return None if _port_open(5432) else "PostgreSQL not reachable on 127.0.0.1:5432"


def needs_chromium() -> str | None:
    return None if Path("/usr/bin/chromium").exists() else "/usr/bin/chromium not installed"


def needs_dieharder() -> str | None:
    return (
        None if shutil.which("dieharder") else "dieharder not installed (apt-get install dieharder)"
    )


BENCHES: tuple[Bench, ...] = (
    Bench(
        "evaluator",
        (),
        ("--hands", "500000", "--single", "20000", "--pokerkit", "1000", "--repeat", "2"),
        parse_evaluator,
    ),
    Bench("niuniu", (), ("--hands", "200", "--repeat", "2"), parse_niuniu),
    Bench("analysis", (), (), parse_analysis),
    Bench("paigow", (), (), parse_paigow),
    Bench("pokdeng", (), ("--rounds", "3000"), parse_pokdeng),
    Bench("holdem_analysis", (), ("--skip-full",), parse_holdem),
    Bench("tiengow", (), ("--games", "40", "--processes", "1"), parse_tiengow),
    Bench("ledger", (), ("--rounds", "100", "--pg-writers", "1"), parse_ledger, needs_pg),
    Bench("ledger_growth", (), ("--segment", "400", "--segments", "3"), parse_ledger_growth),
    Bench(
        "server", ("--clients", "10,100,1000"), ("--clients", "10", "--seconds", "5"), parse_server
    ),
    Bench("render", (), ("--rounds", "2"), parse_render, needs_chromium),
    Bench("abuse", (), ("--seconds", "3"), parse_abuse),
    Bench("envs", (), ("--seconds", "0.3", "--tables", "1024"), parse_envs),
    Bench("room", (), ("--people", "40", "--seconds", "15"), parse_room),
    Bench("seating", (), ("--people", "40"), parse_seating, needs_pg),
    Bench(
        "table_workers",
        (),
        ("--tables", "40", "--workers", "4", "--seconds", "5"),
        parse_table_workers,
        needs_pg,
    ),
)
RNG = Bench("rng", (), ("--quick",), parse_rng, needs_dieharder, "rng_battery.py")

# The README's performance table: these figures, in this order (at most a dozen).
README_ROWS = (
    "7-card hand evaluation, batched (1 core), per CPU s",
    "Niu Niu: classify all 2,598,960 hands",
    "Niu Niu swap advisor, worst random hand (16 choices, exact)",
    "Pok Deng exact return, every bet of both modes",
    "`qipai simulate pokdeng` (classic), rounds per CPU s",
    "Hold'em Bonus turn decision, exact on demand",
    "Tien Gow strong bot vs 3 rule-of-thumb bots",
    "ledger: settled 4-seat rounds/s, 4 tables (MAC chains on)",
    "card room: 10 WebSocket clients playing Pok Deng, one process (SQLite)",
    "browser client: drawing a table state in Chromium, p95",
)


@dataclass
class Outcome:
    bench: Bench
    rows: list[Row]
    note: str  # "" when measured; else why not
    seconds: float
    load: float


def run(bench: Bench, quick: bool) -> Outcome:
    cmd = bench.command(quick)
    reason = bench.needs()
    if reason:
        return Outcome(bench, [], f"not run: {reason}", 0.0, os.getloadavg()[0])
    argv = [sys.executable, str(ROOT / bench.path), *bench.args(quick)]
    start = time.monotonic()
    print(f"[run_all] {cmd}", file=sys.stderr, flush=True)
    proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False)
    seconds = time.monotonic() - start
    load = os.getloadavg()[0]
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["?"]
        return Outcome(
            bench, [], f"failed (exit {proc.returncode}): {tail[0][:160]}", seconds, load
        )
    try:
        rows = bench.parse(proc.stdout, cmd)
    except (NotRecognised, ValueError, KeyError, IndexError) as exc:
        return Outcome(bench, [], f"output not recognised ({exc})", seconds, load)
    return Outcome(bench, rows, "", seconds, load)


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return model


def page(
    outcomes: Sequence[Outcome],
    quick: bool,
    load_before: tuple[float, ...],
    load_after: tuple[float, ...],
    when: dt.datetime,
) -> str:
    lines = [
        "# Benchmarks",
        "",
        "One current table, written by `uv run python benchmarks/run_all.py"
        + (" --quick" if quick else "")
        + "` (do not edit by hand; figures of earlier versions are in git).",
        "",
        "| machine | cores | load average (1, 5, 15 min) before → after | date (UTC) | sizes |",
        "|---|---|---|---|---|",
        f"| {machine()}, Python {platform.python_version()} | {os.cpu_count()} | "
        f"{', '.join(f'{x:.1f}' for x in load_before)} → {', '.join(f'{x:.1f}' for x in load_after)} | "
        f"{when:%Y-%m-%d %H:%M} | {'`--quick`' if quick else 'full'} |",
        "",
        "A load average above the number of cores means other work shared the machine: wall-clock",
        "rates are then lower bounds; CPU-time figures and side-by-side ratios are the steadier ones.",
        "",
        HEADER,
    ]
    lines += [row.markdown() for o in outcomes for row in o.rows]
    skipped = [o for o in outcomes if o.note]
    if skipped:
        lines += ["", "Not measured in this run:", ""]
        lines += [f"* `{o.bench.command(quick)}` — {o.note}" for o in skipped]
    lines += [
        "",
        "Seconds per benchmark (load average after it): "
        + ", ".join(
            f"{o.bench.name} {o.seconds:.0f} s ({o.load:.1f})"
            for o in outcomes
            if not o.note.startswith("not run")
        )
        + ".",
    ]
    return "\n".join(lines) + "\n"


def readme_rows(outcomes: Sequence[Outcome]) -> list[Row]:
    chosen = []
    every = [row for o in outcomes for row in o.rows]
    for prefix in README_ROWS:
        chosen += [row for row in every if row.figure.startswith(prefix)][:1]
    return chosen


def rows_of_page(text: str) -> list[Row]:
    """The figure rows of a page `page()` wrote (the README's rows are copied from them)."""
    rows = []
    for line in text.split(HEADER, 1)[-1].splitlines():  # the figures' table, not the machine's
        if line.startswith("| ") and line.endswith(" |") and line.count(" | ") == 4:
            figure, value, peer, goal, command = line[2:-2].split(" | ")
            if figure != "figure" and command.startswith("`"):
                rows.append(Row(figure, value, peer, goal, command.strip("`")))
    return rows


def caption_of_page(text: str) -> str:
    """One line for the README: the machine, its cores, the load and the date of the run."""
    lines = text.splitlines()
    at = next((i for i, line in enumerate(lines) if line.startswith("| machine |")), None)
    if at is None or at + 2 >= len(lines):
        return ""
    machine, cores, load, date, sizes = (c.strip() for c in lines[at + 2].strip("| ").split(" | "))
    return f"Run of {date} UTC on {machine}, {cores} cores, load average {load}; sizes: {sizes}."


def write_readme(rows: Sequence[Row], readme: Path = README, caption: str = "") -> None:
    text = readme.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{readme} has no {BEGIN} … {END} block")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    block = "\n".join(
        [BEGIN, *([caption, ""] if caption else []), HEADER, *(r.markdown() for r in rows), END]
    )
    readme.write_text(head + block + tail, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (minutes)")
    parser.add_argument("--only", help="comma-separated benchmark names (default: all)")
    parser.add_argument("--out", type=Path, default=PAGE, help="the page to write")
    parser.add_argument("--no-readme", action="store_true", help="leave README.md as it is")
    parser.add_argument(
        "--readme-only",
        action="store_true",
        help="copy the README's rows from the page, run nothing",
    )
    args = parser.parse_args(argv)
    if args.readme_only:
        text = args.out.read_text(encoding="utf-8")
        outcome = Outcome(BENCHES[0], rows_of_page(text), "", 0.0, 0.0)
        write_readme(readme_rows([outcome]), caption=caption_of_page(text))
        return
    benches = (*BENCHES, RNG)
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {b.name for b in benches}
        if unknown:
            parser.error(f"unknown benchmark(s): {', '.join(sorted(unknown))}")
        benches = tuple(b for b in benches if b.name in wanted)
    when = dt.datetime.now(dt.UTC)
    before = os.getloadavg()
    outcomes = [run(b, args.quick) for b in benches]
    args.out.write_text(page(outcomes, args.quick, before, os.getloadavg(), when), encoding="utf-8")
    print(f"[run_all] wrote {args.out}", file=sys.stderr)
    if not args.no_readme:
        write_readme(readme_rows(outcomes), caption=caption_of_page(args.out.read_text("utf-8")))
        print(f"[run_all] wrote the performance rows of {README}", file=sys.stderr)


if __name__ == "__main__":
    main()
