"""The player's guide: one page per language (`qipai/server/guide/<lang>.md`, inside the package
so an installed wheel serves it), read in the room (`GET /api/guide`, the page `#/guide`) and
written into the repository as docs/players.md (`qipai docs --write`; CI runs `--check`).

The pages name no game: `{{games}}` becomes the registry's games, each linked to its rules page
— the room's own page (`#/rules/<game>`) in the room, the game folder's `rules/<lang>.md` in the
repository — so a game added in its folder is in the guide without an edit here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from qipai.core.spec import GameSpec

LANGS = ("zh", "en")
PAGES = Path(__file__).resolve().parent / "guide"
ROOT = Path(__file__).resolve().parents[2]
DOCS_PAGE = ROOT / "docs" / "players.md"
_HEAD = {"zh": "中文", "en": "English"}


def source(lang: str) -> str:
    """The guide's page in `lang` as written (placeholders unfilled)."""
    if lang not in LANGS:
        raise ValueError(f"no guide in {lang!r}: one of {', '.join(LANGS)}")
    return (PAGES / f"{lang}.md").read_text(encoding="utf-8")


def _games(lang: str, link: Callable[[GameSpec], str]) -> str:
    from qipai.games import registry

    lines = []
    for spec in registry.available().values():
        title = spec.title.get(lang) or spec.title.get("en") or spec.name
        other = spec.title.get("en" if lang == "zh" else "zh")
        shown = f"{title}（{other}）" if lang == "zh" and other else title
        if lang == "en" and other:
            shown = f"{title} {other}"
        lines.append(f"* [{shown}]({link(spec)})")
    return "\n".join(lines)


def for_room(lang: str) -> str:
    """The page the room serves: games linked to the room's rules pages."""
    return source(lang).replace("{{games}}", _games(lang, lambda spec: f"#/rules/{spec.name}"))


def _docs_link(lang: str) -> Callable[[GameSpec], str]:
    def link(spec: GameSpec) -> str:
        found = spec.rules_page(lang)
        if found is None:
            return f"../{spec.folder.relative_to(ROOT).as_posix()}"
        return "../" + found[0].resolve().relative_to(ROOT).as_posix()

    return link


def render_docs() -> str:
    """The whole of docs/players.md: both languages, one after the other."""
    parts = ["# 玩家指南 · The player's guide", "", "[中文](#中文) · [English](#english)", ""]
    parts.append(
        "<!-- written by `uv run qipai docs --write` from qipai/server/guide/; edit those -->"
    )
    for lang in LANGS:
        body = source(lang).replace("{{games}}", _games(lang, _docs_link(lang)))
        lines = body.strip().splitlines()[1:]
        while lines and not lines[0].strip():
            lines.pop(0)
        # each page's own title becomes the language's section; its sections one level down
        parts += ["", f"## {_HEAD[lang]}", ""]
        parts += [("#" + line) if line.startswith("## ") else line for line in lines]
    return "\n".join(parts).rstrip() + "\n"


def stale(path: Path = DOCS_PAGE) -> bool:
    """Whether docs/players.md differs from what the pages make."""
    return not path.is_file() or path.read_text(encoding="utf-8") != render_docs()


def write(path: Path = DOCS_PAGE) -> bool:
    """Write docs/players.md from the pages; True when it changed."""
    text = render_docs()
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True
