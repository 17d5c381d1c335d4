"""No list of game names outside the game folders and the registry (docs/adding-a-game.md).

A file of `qipai/` or `tests/` (outside `qipai/games/<game>/` and a game's own test folder) that
names four or more registered games — as string constants in Python, as quoted strings, object
keys or imported modules in JavaScript — holds a list of games that a new game's folder would
have to be added to, or else be silently left out of. Naming two or three games is choosing
examples (a scenario played with Pok Deng and Tien Gow), not a list.

`KNOWN` are the files that still hold such a list, each with what replaces it; the test fails
when a new one appears and when a known one no longer offends (so the list only shrinks).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from qipai.games import registry

ROOT = Path(__file__).resolve().parents[2]
LIST = 4

KNOWN = {
    # per-game simulators still in the shared module (each belongs in its game's folder)
    "qipai/analysis/simulate.py": "GameSpec.simulate in each folder",
    # the browser client's per-game tables (renderers, art, recall, in-page verifier)
    "qipai/web/games/index.js": "renderer served from the game folder",
    "qipai/web/games/recall.js": "renderer's Summary from the game folder",
    "qipai/web/views/lobby.js": "lobby art from the game folder",
    "qipai/web/fairness/verify.js": "per-game verifier from the game folder",
    # tests that enumerate the games by name instead of parametrizing from the registry
    "tests/analysis/test_simulate.py": "parametrize from registry",
    "tests/analysis/test_spec_rtp.py": "parametrize from registry",
    "tests/authority/tableplay.py": "per-game players in the folders' tests",
    "tests/authority/test_ops_returns_sim.py": "parametrize from registry",
    "tests/authority/test_templates.py": "parametrize from registry",
    "tests/browser/test_play.py": "parametrize from registry",
    "tests/browser/test_room.py": "parametrize from registry",
    "tests/browser/test_verify.py": "parametrize from registry",
    "tests/core/test_spec.py": "each game's facts (buy-in, refusals) in the folders' tests",
    "tests/docs/test_rules_docs.py": "rules pages in the folders",
    "tests/envs/test_envs.py": "per-game expectations in the folders' tests",
    "tests/fairness/engine_deal.py": "per-game engine deals in the folders' tests",
    "tests/fairness/test_cli.py": "parametrize from registry",
    "tests/fairness/test_deal.py": "parametrize from registry",
    "tests/fairness/test_units_at_table.py": "parametrize from registry",
    "tests/fairness/units.py": "per-game units in the folders' tests",
    "tests/tables/test_hidden_info.py": "parametrize from registry",
    "tests/web/golden.py": "per-game golden states in the folders",
    "tests/web/history.test.js": "per-game cases in the folders",
    "tests/web/room.test.js": "per-game cases in the folders",
    "tests/web/showdown.test.js": "per-game cases in the folders",
    "tests/web/table.test.js": "per-game cases in the folders",
}

JS_NAME = re.compile(r"""["'`]([a-z_-]+)["'`]|\b([a-z_]+)\s*:|/([a-z_-]+)\.js["']""")


def _game_folders() -> set[str]:
    return {spec.package_name.rpartition(".")[2] for spec in registry.available().values()}


def _names_in(path: Path, names: set[str]) -> set[str]:
    text = path.read_text(encoding="utf-8")
    found: set[str] = set()
    if path.suffix == ".py":
        for node in ast.walk(ast.parse(text, str(path))):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value in names
            ):
                found.add(node.value)
    else:
        for match in JS_NAME.finditer(text):
            value = next(g for g in match.groups() if g)
            if value in names:
                found.add(value)
    return found


def offenders() -> dict[str, list[str]]:
    specs = registry.available().values()
    names = {spec.name for spec in specs} | {spec.name.replace("-", "_") for spec in specs}
    folders = _game_folders()
    out: dict[str, list[str]] = {}
    for base in ("qipai", "tests"):
        for path in sorted((ROOT / base).rglob("*")):
            if path.suffix not in (".py", ".js") or "vendor" in path.parts:
                continue
            rel = path.relative_to(ROOT)
            parts = rel.parts
            if parts[:2] == ("qipai", "games") and len(parts) > 3 and parts[2] in folders:
                continue  # the game's own folder
            if parts[0] == "tests" and len(parts) > 2 and parts[1] in folders:
                continue  # the game's own tests
            found = _names_in(path, names)
            canonical = {n.replace("_", "-") for n in found} | {n for n in found if "_" not in n}
            if len({n.replace("_", "-") for n in canonical}) >= LIST:
                out[rel.as_posix()] = sorted(found)
    return out


def test_no_new_list_of_game_names() -> None:
    new = {path: names for path, names in offenders().items() if path not in KNOWN}
    assert not new, f"lists of games outside the game folders and the registry: {new}"


def test_the_known_lists_only_shrink() -> None:
    gone = sorted(set(KNOWN) - set(offenders()))
    assert not gone, f"no longer a list of games: remove from KNOWN: {gone}"


def test_the_check_sees_a_list(tmp_path: Path) -> None:
    names = set(registry.names())
    listed = sorted(names)[:LIST]
    py = tmp_path / "x.py"
    py.write_text(f"GAMES = {tuple(listed)!r}\n", encoding="utf-8")
    js = tmp_path / "x.js"
    js.write_text("".join(f'import {{ a }} from "./{n}.js";\n' for n in listed), encoding="utf-8")
    assert _names_in(py, names) == set(listed)
    assert _names_in(js, names) == set(listed)
