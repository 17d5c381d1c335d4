"""The browser client's unit tests (vitest with happy-dom, tests/web/*.test.js) run on golden views
that the `golden_views` fixture writes from the real engine — so a view the engine changes is
drawn by the real renderers in the default suite.

Needs Node and the dev packages (`npm ci`, which `.ci/run` does); without them the test skips with
the reason, and under CI=true it fails instead.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from conftest import require_service

ROOT = Path(__file__).resolve().parents[2]


def test_client_unit_tests_pass_on_golden_views(golden_views: Path) -> None:
    games = sorted(p.stem for p in golden_views.glob("*.json"))
    assert games, "no golden views were written"
    npx = shutil.which("npx")
    require_service(
        npx is not None and (ROOT / "node_modules" / "vitest").is_dir(),
        "node with the dev packages (npm ci)",
    )
    assert npx is not None
    run = subprocess.run(
        [npx, "vitest", "run", "--reporter=dot"],
        cwd=ROOT,
        env={**os.environ, "GOLDEN_DIR": str(golden_views)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    assert "passed" in run.stdout


def test_client_types_are_generated_from_the_current_schemas() -> None:
    """qipai/web/types/*.d.ts (the client's JSDoc types) are what docs/schema/ generates now: a
    view or message the server changes must be regenerated (`npm run types`) for tsc to check the
    client against it."""
    node = shutil.which("node")
    require_service(
        node is not None and (ROOT / "node_modules" / "json-schema-to-typescript").is_dir(),
        "node with the dev packages (npm ci)",
    )
    assert node is not None
    run = subprocess.run(
        [node, "tests/web/tools/types.mjs", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
