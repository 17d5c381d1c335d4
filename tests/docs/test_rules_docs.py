"""The rules pages (`docs/rules/`) hold together: every `docs/rules/<page>.md#<anchor>` cited in
the code, tests or docs exists; every link inside the pages resolves; every test, example and file
the pages cite exists; and the mapping of the old "RULES.md §N" citations (`CITATIONS.md`) leads
every citation to an anchor that exists, so its rewrite is mechanical."""

from __future__ import annotations

import importlib.util
import re
import sys
import unicodedata
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"
PAGES = sorted(RULES.glob("*.md"))
SCANNED = ("qipai", "tests", "docs", "examples", "benchmarks", "README.md")
SUFFIXES = (".py", ".md", ".js", ".html", ".json", ".txt", ".toml")
GAME_PAGES = ("common", "pokdeng", "paigow", "holdem-bonus", "niuniu", "tiengow")

# "docs/rules/pokdeng.md#hold", "docs/rules/pokdeng.md" (anywhere in the repository's text).
ABSOLUTE = re.compile(r"docs/rules/(?P<page>[A-Za-z0-9_.-]+\.md)(?:#(?P<anchor>[A-Za-z0-9_-]+))?")
# Markdown links inside a page: [text](target).
LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")
# Test references in the pages: tests/x/test_y.py::test_name (or a bare tests/… path).
TEST_REF = re.compile(
    r"(?P<path>(?:qipai/games/[a-z_]+/)?tests/[A-Za-z0-9_/]+\.py)(?:::(?P<name>[A-Za-z0-9_]+))?"
)
# Other repository files the pages name: examples/…, qipai/…, docs/… paths in backticks.
FILE_REF = re.compile(r"`(?P<path>(?:examples|qipai|docs|benchmarks)/[^`\s:]+?)`")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.strip().lower()
    kept = "".join(
        ch for ch in text if ch in " -_" or unicodedata.category(ch)[0] in ("L", "N", "M")
    )
    return kept.replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    """Every anchor of a page: explicit `<a id="…">` tags and the headings' slugs."""
    text = page.read_text(encoding="utf-8")
    found = set(re.findall(r"<a id=\"([^\"]+)\"></a>", text))
    seen: dict[str, int] = {}
    in_code = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        m = re.match(r"^(#{1,6})\s+(.*)$", line)
        if m and not in_code:
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return frozenset(found)


def _files() -> list[Path]:
    out: list[Path] = []
    for name in SCANNED:
        base = ROOT / name
        if base.is_file():
            out.append(base)
        elif base.is_dir():
            out += sorted(p for p in base.rglob("*") if p.is_file() and p.suffix in SUFFIXES)
    return out


def _citations_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rules_citations", RULES / "citations.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def test_every_game_has_its_page() -> None:
    assert {p.stem for p in PAGES} >= set(GAME_PAGES)


def test_every_cited_docs_rules_anchor_exists() -> None:
    bad = []
    for file in _files():
        try:
            text = file.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for m in ABSOLUTE.finditer(text):
            page = RULES / m["page"]
            line = text.count("\n", 0, m.start()) + 1
            where = f"{file.relative_to(ROOT)}:{line}: {m.group(0)}"
            if not page.is_file():
                bad.append(f"{where} (no such page)")
            elif m["anchor"] and m["anchor"] not in anchors(page):
                bad.append(f"{where} (no such anchor)")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_links_inside_the_pages_resolve(page: Path) -> None:
    bad = []
    for m in LINK.finditer(page.read_text(encoding="utf-8")):
        target = m["target"]
        if "://" in target:
            continue
        path, _, anchor = target.partition("#")
        goal = page if not path else (page.parent / path).resolve()
        if not goal.exists():
            bad.append(f"{target}: no such file")
        elif anchor and (goal.suffix != ".md" or anchor not in anchors(goal)):
            bad.append(f"{target}: no such anchor")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_tests_and_files_a_page_cites_exist(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    bad = []
    for m in TEST_REF.finditer(text):
        file = ROOT / m["path"]
        if not file.is_file():
            bad.append(f"{m.group(0)}: no such file")
        elif m["name"] and not re.search(
            rf"^\s*(?:async\s+)?def {m['name']}\(", file.read_text(encoding="utf-8"), re.M
        ):
            bad.append(f"{m.group(0)}: no such test")
    for m in FILE_REF.finditer(text):
        path = m["path"].split("#")[0].rstrip(".,;)")
        if "*" in path or "<" in path or (path.startswith("qipai/") and "." not in path):
            continue  # a pattern, a placeholder, or a module path written with dots elsewhere
        if not (ROOT / path).exists():
            bad.append(f"{m['path']}: no such file")
    assert not bad, "\n".join(bad)


def test_every_mapping_target_exists() -> None:
    mod = _citations_module()
    rules = mod.load_rules()
    assert len(rules) > 100
    sections = {r.section for r in rules if not r.path and not r.phrase}
    assert sections == {"1", "2", "3", "4", "5", "none"}, "each section needs its default row"
    bad = []
    for rule in rules:
        page, _, anchor = rule.target.removeprefix("docs/rules/").partition("#")
        if not (RULES / page).is_file() or (anchor and anchor not in anchors(RULES / page)):
            bad.append(rule.target)
    assert not bad, bad


def test_the_rewrite_leaves_no_rules_md_citation_and_only_existing_anchors() -> None:
    # In memory over the whole tree as it is now: what `citations.py --rewrite` would write.
    mod = _citations_module()
    rules = mod.load_rules()
    citations = mod.scan(ROOT)
    for rel in sorted({c.path for c in citations}):
        text = (ROOT / rel).read_text(encoding="utf-8")
        out = mod.rewrite_text(rel, text, rules)
        assert "RULES.md" not in out, rel
        for m in ABSOLUTE.finditer(out):
            assert m["anchor"] is None or m["anchor"] in anchors(RULES / m["page"]), (rel, m[0])


def test_the_code_cites_docs_rules_only() -> None:
    """Every layer of `qipai/` cites `docs/rules/` (rewritten with `citations.py`'s
    rules), none the old "RULES.md"."""
    mod = _citations_module()
    left = [f"{c.path}:{c.line}" for c in mod.scan(ROOT) if c.path.startswith("qipai/")]
    assert not left, left


def test_the_rewrite_replaces_only_the_citation_token() -> None:
    mod = _citations_module()
    rules = [
        mod.Rule("1", "", "Hold", "docs/rules/pokdeng.md#hold"),
        mod.Rule("1", "", "", "docs/rules/pokdeng.md"),
        mod.Rule("5", "", "discards", "docs/rules/tiengow.md#discards"),
        mod.Rule("5", "", "", "docs/rules/tiengow.md"),
        mod.Rule("none", "", "", "docs/rules/common.md"),
    ]
    text = (
        "x = 1  # RULES.md §1, Hold 预扣: stake + hold\n"
        "# Tien Gow (RULES.md\n"
        "# §5: discards are hidden forever)\n"
        '"""As RULES.md says (RULES.md §1)."""\n'
    )
    assert mod.rewrite_text("qipai/x.py", text, rules) == (
        "x = 1  # docs/rules/pokdeng.md#hold, Hold 预扣: stake + hold\n"
        "# Tien Gow (docs/rules/tiengow.md#discards\n"
        "# : discards are hidden forever)\n"
        '"""As docs/rules/common.md says (docs/rules/pokdeng.md)."""\n'
    )
