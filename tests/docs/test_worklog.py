"""The documentation and the code describe the product as it is, not how it came to be.

A reader of README.md, the guides under docs/ or a comment in the code should learn what the
product does and why it does it that way. Work-log words — a numbered work session, the people
who worked on it, a tracker's issue number — say neither: they point at history that lives in
git, not in the product. README.md is a product page read in a few minutes, so it has a size
bound too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README_LIMIT = 15_000

# The text files a reader of the product meets: the pages, the guides, the code and its tests.
SCANNED_DIRS = ("qipai", "tests", "benchmarks", "docs", "examples")
SCANNED_FILES = ("README.md", "CHANGELOG.md", "ARCHITECTURE.md")
SUFFIXES = (".py", ".md", ".js", ".html", ".css", ".toml", ".txt")
# Third-party code kept as its authors wrote it (with its licence), and this file, which must
# spell the words it looks for.
SKIPPED = ("qipai/web/vendor/", "tests/docs/test_worklog.py")

WORKLOG = re.compile(
    r"""
      \bsessions?\ \d+                 # "session 9", "sessions 6 and 7"
    | \bengineers?\b                   # the people who wrote it
    | \bthe\ lead\b
    | \bissues?\ \#?\d+                # "issue 19", "issues 15 and 19", "issue #19"
    | (?:^|[\s(\[])\#[1-9]\d{0,3}\b(?![0-9A-Fa-f;,-])  # "#19" as an issue reference, not a colour
    """,
    re.IGNORECASE | re.VERBOSE | re.MULTILINE,
)


def scanned_files() -> Iterator[Path]:
    for name in SCANNED_FILES:
        path = ROOT / name
        if path.exists():
            yield path
    for folder in SCANNED_DIRS:
        for path in sorted((ROOT / folder).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if (
                path.is_file()
                and path.suffix in SUFFIXES
                and not rel.startswith(SKIPPED)
                and "node_modules" not in path.parts
                and "__pycache__" not in path.parts
            ):
                yield path


def worklog_hits(text: str) -> list[tuple[int, str]]:
    """(line number, the words found) for every work-log reference in `text`."""
    hits = []
    for match in WORKLOG.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        hits.append((line, match.group(0).strip()))
    return hits


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("# measured in session 9 on a quiet machine", True),
        ('docs/scaling.md, "Session 10"', True),
        ("the engineers stopped", True),
        ("measured by the lead", True),
        ("(issue 19)", True),
        ("issues 15 and 19", True),
        ("fixed in #42", True),
        ("see (#7)", True),
        ("background: #0006; color: #1f4f7a", False),
        ("docs/rules/tiengow.md#discards", False),
        ("the table's session token", False),
        ("a player's issue with the deal", False),
    ],
)
def test_the_pattern_finds_worklog_words_and_nothing_else(text: str, found: bool) -> None:
    assert bool(worklog_hits(text)) is found


def test_no_worklog_words_in_docs_or_code() -> None:
    offenders = []
    for path in scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for line, words in worklog_hits(text):
            offenders.append(f"{path.relative_to(ROOT).as_posix()}:{line}: {words!r}")
    assert not offenders, (
        "work-log words (say why, citing RULES.md or a design doc instead):\n"
        + "\n".join(offenders)
    )


def test_readme_is_a_short_product_page() -> None:
    size = len((ROOT / "README.md").read_text(encoding="utf-8"))
    assert size <= README_LIMIT, f"README.md has {size:,} characters (at most {README_LIMIT:,})"
