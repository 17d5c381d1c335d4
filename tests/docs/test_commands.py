"""Every command shown in README.md and the guides runs.

The commands are read from the pages' ```bash blocks, so a command added to a page is tested
without an edit here. Each runs as a reader would type it, in a scratch directory, with its own
user data directory (`XDG_DATA_HOME`), so the default database is a fresh one. The ones that
name real hosts (`owner@db`, `redis://cache`) cannot run here: their options are checked against
the command's `--help`. Starting the room and collecting the whole suite are the slow ones.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from qipai.fairness import export_round
from qipai.ledger import Ledger
from tests.fairness.test_cli import _pokdeng_round
from tests.fairness.units import make_unit

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("README.md", "docs/operators.md", "docs/players.md", "docs/scaling.md", "docs/ledger.md")
PLACEHOLDER_HOSTS = ("@db/", "redis://cache")
# pages whose ```console blocks show a command (`$ …`) and what it prints, excerpted with "…"
CONSOLE_PAGES = ("docs/math.md",)
# examples that read the Hold'em enumeration (built once by CI before the slow suite) or play
# many games: the slow suite runs them
SLOW_EXAMPLES = ("holdem-bonus", "simulate")
# `uv run X` as a reader types it, from any directory: X from the project's environment.
SHELL_PRELUDE = 'uv() { if [ "$1" = run ]; then shift; "$@"; else command uv "$@"; fi; }\n'


def commands(page: str) -> list[str]:
    """The commands of a page's ```bash blocks: continuation lines joined, comments dropped."""
    text = (ROOT / page).read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#\s.*$", "", line).strip()
            if line and not line.startswith("#"):
                found.append(re.sub(r"\s+", " ", line))
    return found


def console_examples(page: str) -> list[tuple[str, str]]:
    """(command, what the page says it prints) of each `$ ` line of a page's ```console blocks."""
    text = (ROOT / page).read_text(encoding="utf-8")
    found: list[tuple[str, str]] = []
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        for part in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, shown = part.partition("\n")
            found.append((command.strip(), shown))
    return found


def settings_files(page: str) -> dict[str, str]:
    """Files a page's examples read, given inline just before them: "(`{…}`):" then the block
    whose command names the file (`--settings nn.json`)."""
    text = (ROOT / page).read_text(encoding="utf-8")
    pattern = r"`(\{[^`]*\})`\):\s*```console\s*\$ [^\n]*--settings (\S+)"
    return {name: body for body, name in re.findall(pattern, text)}


def printed_as_shown(shown: str, printed: str) -> list[str]:
    """The fragments of what the page shows (split at its "…" elisions, whitespace collapsed)
    that the command's output does not hold in that order; JSON output is compared in the
    page's one-line form."""
    with contextlib.suppress(ValueError):
        printed = json.dumps(json.loads(printed))
    have = re.sub(r"\s+", " ", printed)
    missing, at = [], 0
    for fragment in (re.sub(r"\s+", " ", f).strip() for f in shown.split("…")):
        if not fragment:
            continue
        found = have.find(fragment, at)
        if found < 0:
            missing.append(fragment)
        else:
            at = found + len(fragment)
    return missing


def kind(command: str) -> str:
    if any(host in command for host in PLACEHOLDER_HOSTS):
        return "shape"
    if " qipai serve" in command:
        return "serve"
    if command == "uv run pytest":
        return "suite"
    return "run"


def sandbox(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    env["PATH"] = f"{ROOT / '.venv' / 'bin'}{os.pathsep}{env['PATH']}"
    env["PYTHONPATH"] = str(ROOT)
    for name in ("docs", "examples", "benchmarks", "qipai"):  # paths as the README gives them
        link = tmp_path / name
        if not link.exists():
            link.symlink_to(ROOT / name)
    return env


def run(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", SHELL_PRELUDE + command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_the_pages_show_commands_and_each_has_a_way_to_run() -> None:
    shown = {page: commands(page) for page in PAGES}
    assert shown["README.md"] and shown["docs/operators.md"]
    for page, cmds in shown.items():
        for cmd in cmds:
            assert cmd.startswith(("uv run ", "python3 ", "cp ", "QIPAI_")), f"{page}: {cmd}"


@pytest.mark.parametrize("command", [c for c in commands("README.md") if kind(c) == "run"])
def test_readme_command_runs(command: str, tmp_path: Path) -> None:
    done = run(command, tmp_path, sandbox(tmp_path))
    assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    assert done.stdout.strip(), command


def _console_params() -> list[object]:
    params: list[object] = []
    for page in CONSOLE_PAGES:
        for command, shown in console_examples(page):
            marks = [pytest.mark.slow] if any(w in command for w in SLOW_EXAMPLES) else []
            params.append(pytest.param(page, command, shown, marks=marks, id=command))
    return params


def test_the_guides_show_worked_examples() -> None:
    assert len(console_examples("docs/math.md")) >= 4
    assert settings_files("docs/math.md") == {
        "nn.json": '{"commission": "0.05", "multipliers": {"bull_bull": 4}, "stack_units": 3}'
    }
    assert printed_as_shown("a …\n c", "a b\n  c d") == []
    assert printed_as_shown("a\nc", "a b c") == ["a c"]
    assert printed_as_shown('{"x": 1, …, "z": 3}', '{\n "x": 1,\n "y": 2, "z": 3}') == []


@pytest.mark.parametrize(("page", "command", "shown"), _console_params())
def test_a_guide_example_prints_what_the_guide_shows(
    page: str, command: str, shown: str, tmp_path: Path
) -> None:
    for name, body in settings_files(page).items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    done = run(command, tmp_path, sandbox(tmp_path))
    assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    missing = printed_as_shown(shown, done.stdout)
    assert not missing, f"{page}: `{command}` no longer prints {missing[0]!r}"


@pytest.mark.slow  # fifteen processes, each loading the package: minutes on a busy machine
def test_the_operators_guide_runs_in_order(tmp_path: Path) -> None:
    """The guide's commands in the order it gives them, on one room: a round played into its
    books for `qipai verify ROUND_ID`, and an exported round for the offline checks."""
    env = sandbox(tmp_path)
    with Ledger.open(str(tmp_path / "room.db")) as ledger:
        round_id, _ = _pokdeng_round(ledger)
    export = export_round(make_unit("pokdeng", 3).record, operator=True)
    (tmp_path / "ROUND.json").write_text(json.dumps(export), encoding="utf-8")
    ran = 0
    for command in commands("docs/operators.md"):
        if kind(command) != "run":
            continue
        done = run(command.replace("ROUND_ID", round_id), tmp_path, env)
        assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        ran += 1
    assert ran >= 12
    assert (tmp_path / "heads.txt").read_text().strip()
    assert (tmp_path / "backup.db").exists()


@pytest.mark.parametrize("command", [c for p in PAGES for c in commands(p) if kind(c) == "shape"])
def test_commands_for_real_hosts_use_options_that_exist(command: str) -> None:
    words = shlex.split(command)
    words = [w for w in words if not re.match(r"^[A-Z_]+=", w)]
    sub = words[words.index("qipai") + 1]
    help_text = subprocess.run(
        [sys.executable, "-m", "qipai.cli", sub, "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "200"},
    ).stdout
    for option in (w for w in words if w.startswith("--")):
        assert option in help_text, f"{command}: qipai {sub} has no {option}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
@pytest.mark.parametrize("command", [c for p in PAGES for c in commands(p) if kind(c) == "serve"])
def test_the_room_starts_as_shown(command: str, tmp_path: Path) -> None:
    port = free_port()
    shown = re.sub(r"--port \d+", "", command)
    proc = subprocess.Popen(
        ["bash", "-c", SHELL_PRELUDE + f"exec {shown} --port {port}"],
        cwd=tmp_path,
        env=sandbox(tmp_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 300
        while True:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=5) as r:
                    assert r.status == 200 and json.load(r)
                    break
            except OSError:
                assert time.monotonic() < deadline, "the room did not answer"
                time.sleep(1)
    finally:
        proc.terminate()
        proc.wait(timeout=60)


@pytest.mark.slow
def test_the_test_suite_collects() -> None:
    assert "uv run pytest" in commands("README.md")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:]
