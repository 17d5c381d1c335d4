#!/usr/bin/env python3
"""Count the public functions of `qipai/` that take or return `Any` (or `dict[str, Any]`, or the
`JSON` alias, which is `dict[str, Any]`): the untyped surface that mypy --strict cannot check.

    uv run python tools/any_count.py            # the totals
    uv run python tools/any_count.py --list     # and every such function, file:line name
    uv run python tools/any_count.py --root DIR # another checkout's qipai/ (a before/after)

A function is public when neither it nor its enclosing class starts with "_" (dunder methods
count); one of its parameters (`*args`/`**kwargs` included) or its return annotation mentions
`Any` or `JSON`. The snippets of the standalone verifier (untyped on purpose) are left out.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "qipai"
UNTYPED = ("Any", "JSON")
SKIPPED = ("fairness/standalone/", "/tests/")  # the games' own tests are not its API


def _mentions_any(node: ast.expr | None) -> bool:
    if node is None:
        return False
    return any(
        (isinstance(sub, ast.Name) and sub.id in UNTYPED)
        or (isinstance(sub, ast.Attribute) and sub.attr in UNTYPED)
        or (
            isinstance(sub, ast.Constant)
            and isinstance(sub.value, str)
            and any(word in sub.value for word in UNTYPED)
        )
        for sub in ast.walk(node)
    )


def _public(name: str) -> bool:
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


def functions(path: Path) -> list[tuple[int, str, bool]]:
    """(line, qualified name, takes or returns Any) of each public function of a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out: list[tuple[int, str, bool]] = []

    def visit(node: ast.AST, prefix: str, public: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.", public and _public(child.name))
            elif (
                isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
                and public
                and _public(child.name)
            ):
                a = child.args
                params = [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
                untyped = _mentions_any(child.returns) or any(
                    p is not None and _mentions_any(p.annotation) for p in params
                )
                out.append((child.lineno, prefix + child.name, untyped))

    visit(tree, "", True)
    return out


def main(argv: list[str]) -> int:
    root = ROOT
    if "--root" in argv:
        root = Path(argv[argv.index("--root") + 1])
    total = untyped = 0
    listed: list[str] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent).as_posix()
        if any(part in rel for part in SKIPPED) or path.name == "verify_deal.py":
            continue
        for line, name, is_untyped in functions(path):
            total += 1
            if is_untyped:
                untyped += 1
                listed.append(f"{rel}:{line} {name}")
    if "--list" in argv:
        print("\n".join(listed))
    share = 100 * untyped / total if total else 0.0
    print(
        f"public functions taking or returning Any / dict[str, Any]: {untyped} of {total}"
        f" ({share:.1f} %)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
