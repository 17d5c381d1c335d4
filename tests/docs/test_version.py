"""One version, set in pyproject.toml: `qipai --version` prints it, the back office shows it
(`GET /api/ops/me`), and CHANGELOG.md's newest section describes it."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from fastapi.testclient import TestClient

import qipai
from qipai.server.app import create_app
from tests.authority.helpers import enrol

ROOT = Path(__file__).resolve().parents[2]


def project_version() -> str:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return str(tomllib.load(f)["project"]["version"])


def test_the_package_reports_the_version_of_pyproject() -> None:
    assert qipai.__version__ == project_version()


def test_qipai_version_prints_it() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "qipai.cli", "--version"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == f"qipai {project_version()}"


def test_the_changelog_describes_this_version_first() -> None:
    headings = re.findall(
        r"^## (\S+) — \d{4}-\d{2}-\d{2}$", (ROOT / "CHANGELOG.md").read_text(), re.M
    )
    assert headings, "CHANGELOG.md has no '## VERSION — DATE' sections"
    assert headings[0] == project_version()
    assert len(headings) == len(set(headings))


def test_the_back_office_shows_it(tmp_path: Path) -> None:
    app = create_app(str(tmp_path / "room.db"))
    with TestClient(app) as client:
        staff = enrol(client, app.state.authority, "olga")
        me = client.get("/api/ops/me", headers=staff.headers).json()
    assert me["version"] == project_version()
