"""qipai/web/fairness/verify.js (the browser's verifier, WebCrypto) under node's test runner:
the test vectors of docs/fairness.md and round exports of random deal units of every game."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from qipai.fairness import export_round, tiles_commitment
from qipai.fairness.deal import compute_deal
from tests.conftest import require_service
from tests.fairness.units import GAMES, make_unit

ROOT = Path(__file__).resolve().parents[2]
NODE_TEST = ROOT / "tests" / "fairness" / "verify_js.test.mjs"


def _write_exports(directory: Path, units: range) -> int:
    count = 0
    for game in GAMES:
        for n in units:
            unit = make_unit(game, n)
            record = dict(unit.record)
            if game == "tiengow":
                root = tiles_commitment(unit.key, unit.round.deck).root  # type: ignore[attr-defined]
                record["meta"] = {**record["meta"], "tiles_root": root}
                exports = [export_round(record, operator=True)]
                exports += [export_round(record, seat) for seat in ("E", "S", "W", "N")]
            else:
                exports = [export_round(record)]
            for i, export in enumerate(exports):
                deal = compute_deal(game, unit.key, export["inputs"]) if export["seed"] else None
                path = directory / f"{game}-{n}-{i}.json"
                path.write_text(json.dumps({"export": export, "deal": deal}), encoding="utf-8")
                count += 1
    return count


def _run_node(directory: Path) -> str:
    node = shutil.which("node")
    require_service(node is not None, "node (Node 20+)")
    assert node is not None
    env = {**os.environ, "QIPAI_EXPORTS_DIR": str(directory)}
    done = subprocess.run(
        [node, "--test", str(NODE_TEST)], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    return done.stdout


def test_verify_js_on_the_vectors_and_random_units(tmp_path: Path) -> None:
    assert _write_exports(tmp_path, range(20)) >= 100
    out = _run_node(tmp_path)
    assert "# fail 0" in out and "# skipped 0" in out


@pytest.mark.slow
def test_verify_js_on_200_units_of_every_game(tmp_path: Path) -> None:
    _write_exports(tmp_path, range(2000, 2200))
    assert "# fail 0" in _run_node(tmp_path)
