"""docs/verify_deal.py — the standalone verifier (standard library only) — recomputes the deal
of random deal units of every game exactly as the engines dealt them."""

from __future__ import annotations

import ast
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from qipai.fairness import export_round
from qipai.fairness.deal import compute_deal
from qipai.fairness.tiles import tiles_commitment
from qipai.games import registry
from tests.fairness.test_deal import _engine_order
from tests.fairness.units import GAMES, make_unit

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "verify_deal.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("verify_deal", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


verify_deal = _load()


def test_it_imports_only_the_standard_library() -> None:
    tree = ast.parse(SCRIPT.read_text(encoding="utf-8"))
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "no relative imports"
            imported.add((node.module or "").split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__":
            pytest.fail("no dynamic imports")
    assert imported, "the parse found the imports"
    assert imported <= set(sys.stdlib_module_names), imported - set(sys.stdlib_module_names)
    assert "qipai" not in imported and "importlib" not in imported


def _exports(game: str, n: int) -> list[dict[str, Any]]:
    """What players (and, for Tien Gow, the operator) export for deal unit n."""
    unit = make_unit(game, n)
    if game != "tiengow":
        return [json.loads(json.dumps(export_round(unit.record)))]
    record = dict(unit.record)
    root = tiles_commitment(unit.key, unit.round.deck).root  # type: ignore[attr-defined]
    record["meta"] = {**record["meta"], "tiles_root": root}
    out = [export_round(record, operator=True)]
    out += [export_round(record, seat) for seat in ("E", "S", "W", "N")]
    return [json.loads(json.dumps(e)) for e in out]


def _check_units(game: str, units: range) -> None:
    for n in units:
        unit = make_unit(game, n)
        for export in _exports(game, n):
            deal, checks, _ = verify_deal.verify(export)
            failed = [c for c in checks if not c[1]]
            assert not failed, (game, n, failed)
            if export["seed"] is not None:
                assert deal == compute_deal(game, unit.key, export["inputs"])
                order = deal.get("shoe") or deal.get("deck") or deal.get("tiles")
                assert order == _engine_order(unit)
                assert any("as dealt" in c[0] or "as chosen" in c[0] for c in checks) or (
                    game == "holdem-bonus" and not deal["boxes"]
                )
            else:
                assert game == "tiengow" and any("opens as" in c[0] for c in checks)


@pytest.mark.parametrize("game", GAMES)
def test_the_standalone_verifier_agrees_with_the_engine(game: str) -> None:
    _check_units(game, range(40))


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_the_standalone_verifier_on_200_units_of_every_game(game: str) -> None:
    _check_units(game, range(1000, 1200))


def test_it_runs_as_a_script_and_fails_a_wrong_deal(tmp_path: Path) -> None:
    for game in GAMES:
        export = _exports(game, 3)[0]
        path = tmp_path / f"{game}.json"
        path.write_text(json.dumps(export), encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "-I", str(SCRIPT), str(path)], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.rstrip().endswith("OK")
        done = subprocess.run(
            [sys.executable, "-I", str(SCRIPT), str(path), "--json"], capture_output=True, text=True
        )
        assert json.loads(done.stdout)["ok"] is True
        # a seed given on the command line is used (a shoe's seed revealed later)
        other = "ab" * 32
        done = subprocess.run(
            [sys.executable, "-I", str(SCRIPT), str(path), "--seed", other],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 1 and "FAIL seed matches commitment" in done.stdout
    tampered = _exports("pokdeng", 4)[0]
    tampered["dealt"]["hands"]["B"] = ["As", "Ah"]
    path.write_text(json.dumps(tampered), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-I", str(SCRIPT), str(path)], capture_output=True, text=True
    )
    assert done.returncode == 1 and "FAIL hands B as dealt" in done.stdout
    path.write_text("[]", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-I", str(SCRIPT), str(path)], capture_output=True, text=True
    )
    assert done.returncode == 2 and "error:" in done.stderr


def test_the_script_is_written_from_the_game_folders() -> None:
    from qipai.fairness import verify_script

    # `qipai docs --check` in CI: the file is exactly its parts, one snippet per game folder
    assert not verify_script.stale(SCRIPT), "run `uv run qipai docs --write`"
    text = SCRIPT.read_text(encoding="utf-8")
    for spec in registry.available().values():
        assert verify_script.snippet(spec) in text
        assert spec.name in verify_deal.GAMES
