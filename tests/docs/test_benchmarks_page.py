"""docs/benchmarks.md is written by `benchmarks/run_all.py`, and the README's performance rows are
copies of its rows: the README cannot show a figure the current table does not hold."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import run_all

ROOT = Path(__file__).resolve().parents[2]


def readme_block(text: str) -> str:
    assert run_all.BEGIN in text and run_all.END in text, "README.md lost its benchmark markers"
    return text.split(run_all.BEGIN, 1)[1].split(run_all.END, 1)[0]


def test_the_page_has_the_machine_and_load_on_top_and_one_table() -> None:
    text = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    assert "| machine | cores | load average" in text.split(run_all.HEADER)[0]
    assert re.search(
        r"\| \d+ \| [\d.]+, [\d.]+, [\d.]+ → [\d.]+, [\d.]+, [\d.]+ \| \d{4}-\d\d-\d\d", text
    )
    assert text.count(run_all.HEADER) == 1
    assert len(run_all.rows_of_page(text)) >= 10


def test_readme_rows_are_rows_of_the_page() -> None:
    page = run_all.rows_of_page((ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8"))
    readme = run_all.rows_of_page(readme_block((ROOT / "README.md").read_text(encoding="utf-8")))
    assert readme, "the README shows no performance rows"
    assert len(readme) <= 12
    missing = [row.figure for row in readme if row not in page]
    assert not missing, f"README rows not in docs/benchmarks.md: {missing}"
    assert readme == run_all.readme_rows([run_all.Outcome(run_all.BENCHES[0], page, "", 0, 0)])
    caption = run_all.caption_of_page((ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8"))
    assert caption and caption in (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_benchmark_script_is_run() -> None:
    scripts = {p.name for p in (ROOT / "benchmarks").glob("*.py")} - {"__init__.py", "run_all.py"}
    run = {Path(b.path).name for b in (*run_all.BENCHES, run_all.RNG)}
    assert scripts == run, f"benchmarks run_all.py does not run: {sorted(scripts - run)}"


def test_run_all_writes_the_page_and_the_readme_block(tmp_path: Path) -> None:
    """The command itself, on the quickest benchmark, into a scratch page and README."""
    out, readme = tmp_path / "benchmarks.md", tmp_path / "README.md"
    readme.write_text(f"# x\n\n{run_all.BEGIN}\nold\n{run_all.END}\n\nafter\n", encoding="utf-8")
    subprocess.run(
        [
            sys.executable,
            "benchmarks/run_all.py",
            "--quick",
            "--only",
            "paigow",
            "--out",
            str(out),
            "--no-readme",
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    rows = run_all.rows_of_page(out.read_text(encoding="utf-8"))
    assert [r.figure for r in rows] == ["Pai Gow: hand comparisons / two-round games per s"]
    assert rows[0].command == "uv run python benchmarks/bench_paigow.py"
    run_all.write_readme(rows, readme)
    text = readme.read_text(encoding="utf-8")
    assert "old" not in text and text.endswith("after\n")
    assert run_all.rows_of_page(readme_block(text)) == rows


@pytest.mark.parametrize(
    ("name", "sample", "expected"),
    [
        (
            "paigow",
            "hand comparison, all 496 x 496 pairs                    7,735,025 pairs/s\n"
            "two-round games (bid, bets, deal, reveal, settle)             765 games/s\n",
            "7.74 M / 765",
        ),
        (
            "tiengow",
            "  games played          40 (4 tables x 10, fixed seeds)\n"
            "  mean result           +1.925 base units/game  95% CI [+1.380, +2.470]\n"
            "  E bot thinking        113.1 ms/decision wall, 17.1 ms CPU (247 decisions)\n",
            "+1.925 units/game [+1.380, +2.470]",
        ),
    ],
)
def test_parsers_read_the_printed_figures(name: str, sample: str, expected: str) -> None:
    bench = next(b for b in run_all.BENCHES if b.name == name)
    assert bench.parse(sample, "cmd")[0].value == expected


LEDGER_SAMPLE = """\
                          SQLite                 PG on                PG off
1 table        136 r/s (load 11.3)      27 r/s (load 11.6)      38 r/s (load 12.9)
4 tables       523 r/s (load 11.3)      24 r/s (load 12.2)      69 r/s (load 12.8)
1 table     14.0 / 2.00, 2.17 ms   2.0 / 2.00, 2.41 ms   2.0 / 2.00, 2.32 ms
4 tables     5.4 / 0.56, 0.93 ms   0.6 / 0.63, 1.64 ms   0.6 / 0.56, 1.33 ms
"""


def test_the_ledger_parser_names_the_best_postgresql_column() -> None:
    bench = next(b for b in run_all.BENCHES if b.name == "ledger")
    one, four, cpu = bench.parse(LEDGER_SAMPLE, "cmd")
    assert (one.value, one.peer) == ("SQLite 136", "PostgreSQL 38 (off)")
    assert (four.value, four.peer) == ("SQLite 523", "PostgreSQL 69 (off)")
    assert cpu.value == "SQLite 0.93 ms" and cpu.peer.startswith("PostgreSQL 1.64 ms")


def test_an_unrecognised_output_is_reported_not_guessed() -> None:
    bench = next(b for b in run_all.BENCHES if b.name == "paigow")
    with pytest.raises(run_all.NotRecognised):
        bench.parse("something else entirely\n", "cmd")
