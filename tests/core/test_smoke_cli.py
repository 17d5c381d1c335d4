from __future__ import annotations

import json
import subprocess
import sys


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "qipai.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_help_lists_commands() -> None:
    out = run_cli("--help")
    assert out.returncode == 0
    assert "settle" in out.stdout and "serve" in out.stdout


def test_version() -> None:
    out = run_cli("--version")
    assert out.returncode == 0
    assert out.stdout.startswith("qipai ")


def test_settle_rejects_unknown_game_with_exit_2() -> None:
    out = run_cli("settle", "-", stdin=json.dumps({"game": "mahjong"}))
    assert out.returncode == 2
    assert "unknown game 'mahjong'" in out.stderr
    assert out.stderr.count("\n") == 1


def test_settle_rejects_bad_json_with_exit_2() -> None:
    out = run_cli("settle", "-", stdin="{not json")
    assert out.returncode == 2
    assert "invalid JSON" in out.stderr
