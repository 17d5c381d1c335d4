"""The table runtime's layers keep to their jobs (ARCHITECTURE.md, "The table runtime"):
messages are built from the typed snapshot alone, and no table module branches on a game's name
(game-specific steps come from the `GameSpec`)."""

from __future__ import annotations

import ast
from pathlib import Path

import qipai.tables
from qipai.games import registry

TABLES = Path(qipai.tables.__file__).parent


def _tree(name: str) -> ast.Module:
    return ast.parse((TABLES / name).read_text(), name)


def test_messages_and_the_snapshot_never_see_the_table() -> None:
    for name in ("messages.py", "snapshot.py"):
        for node in ast.walk(_tree(name)):
            if isinstance(node, ast.ImportFrom):
                assert node.module != "qipai.tables.table", f"{name} imports the Table"
            if isinstance(node, ast.Name):
                assert node.id != "Table", f"{name} reads a Table"


def test_no_table_module_branches_on_a_game_name() -> None:
    names = set(registry.available())
    assert {"pokdeng", "tiengow", "holdem-bonus"} <= names
    found = []
    for path in sorted(TABLES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), path.name)):
            if not isinstance(node, ast.Compare):
                continue
            for side in (node.left, *node.comparators):
                if isinstance(side, ast.Constant) and side.value in names:
                    found.append(f"{path.name}:{node.lineno} {ast.unparse(node)}")
    assert not found, found
