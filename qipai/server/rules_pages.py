"""The rules pages players read in the room: each game's `rules/<lang>.md` inside its package
(`qipai/games/<package>/rules/zh.md`, `en.md`), so an installed wheel serves them, with the
table's own settings filled in.

A page may hold `{{path}}` (a setting of the table's config: `base`, `limits.player.min`,
`cut_behind.0`), optionally with a format: `|money` (thousands separated), `|pct` (a fraction as a
percentage), `|mult` (a list of multiples as ×1, ×2, …); and blocks kept only where a setting has
a value, `::: mode=classic` … `:::` (or `!=`). Filling is pure: `fill(text, config)`; a page that
names a setting the config lacks is an error (`UnknownSetting`), which the tests check for every
shipped page, so no page ever shows a raw placeholder.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

LANGS = ("zh", "en")
_FIELD = re.compile(r"\{\{\s*([A-Za-z0-9_.]+)\s*(?:\|\s*(money|pct|mult|list)\s*)?\}\}")
_BLOCK = re.compile(r"^::: *([A-Za-z0-9_.]+) *(!?=) *([^\n]*?) *\n(.*?)^::: *\n", re.M | re.S)


class UnknownSetting(KeyError):
    """A page names a setting the table's config does not have."""


def page(game: str, lang: str) -> str | None:
    """The raw page of `game` in `lang` (None: the game has no page in that language): the game
    folder's `rules/<lang>.md` as the registry finds it (`GameSpec.rules_page`)."""
    from qipai.games import registry

    if lang not in LANGS:
        return None
    found = registry.get(game).rules_page(lang)
    if found is None or found[1] != lang:
        return None
    return found[0].read_text(encoding="utf-8")


def _lookup(config: Any, path: str) -> Any:
    value = config
    for part in path.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list | tuple) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            raise UnknownSetting(path)
    return value


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _format(value: Any, how: str | None) -> str:
    if how == "money":
        return f"{int(value):,}"
    if how == "pct":
        try:
            pct = Decimal(str(value)) * 100
        except InvalidOperation:
            raise UnknownSetting(str(value)) from None
        text = format(pct.normalize(), "f")
        return f"{text}%"
    if how in ("mult", "list"):
        items = value if isinstance(value, list | tuple) else [value]
        return ", ".join(("×" if how == "mult" else "") + _number(x) for x in items)
    return _number(value)


def _holds(config: Any, path: str, op: str, want: str) -> bool:
    have = _lookup(config, path)
    text = ("true" if have else "false") if isinstance(have, bool) else _number(have)
    return (text == want) == (op == "=")


def fill(text: str, config: dict[str, Any]) -> str:
    """`text` with its blocks chosen and its settings filled from `config` (a table's config as
    its canonical JSON)."""
    text = _BLOCK.sub(lambda m: m.group(4) if _holds(config, *m.group(1, 2, 3)) else "", text)
    return _FIELD.sub(lambda m: _format(_lookup(config, m.group(1)), m.group(2)), text)
