"""A game's analysis as one report, rendered as JSON or markdown (`qipai rtp`).

A report holds the bets' exact figures plus free-form sections (tables of hand probabilities,
strategy tables, comparisons) so that every game can say what it needs in one shape.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from qipai.analysis.distribution import BetFigures, fraction_json, percent


@dataclass(frozen=True)
class Table:
    """A titled table of rows for a report section (cells are text, numbers or Fractions)."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "note": self.note,
            "rows": [
                {c: _cell_json(v) for c, v in zip(self.columns, row, strict=True)}
                for row in self.rows
            ],
        }


@dataclass(frozen=True)
class Report:
    """The analysis of one game under one set of table settings."""

    game: str
    title: str
    settings: dict[str, Any]
    bets: tuple[BetFigures, ...]
    tables: tuple[Table, ...] = ()
    notes: tuple[str, ...] = ()
    facts: dict[str, Any] = field(default_factory=dict)

    def bet(self, name: str) -> BetFigures:
        for b in self.bets:
            if b.bet == name:
                return b
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "title": self.title,
            "settings": self.settings,
            "bets": [b.to_json() for b in self.bets],
            "tables": [t.to_json() for t in self.tables],
            "facts": {k: _cell_json(v) for k, v in self.facts.items()},
            "notes": list(self.notes),
        }

    def to_markdown(self) -> str:
        out = [f"## {self.title}", ""]
        if self.settings:
            out.append(
                "Settings: " + ", ".join(f"`{k}={v}`" for k, v in self.settings.items()) + "."
            )
            out.append("")
        if self.bets:
            out.append("| bet | return to player | house edge | sd per unit |")
            out.append("|---|---:|---:|---:|")
            for b in self.bets:
                tag = " (estimate)" if b.estimate else ""
                out.append(
                    f"| {b.bet}{tag} | {percent(b.rtp)} | {percent(b.house_edge)} | {b.sd:.4f} |"
                )
            out.append("")
            for b in self.bets:
                out.append(f"**{b.bet}**" + (f" — {b.note}" if b.note else ""))
                out.append("")
                out.append("| outcome | net per unit | probability | exact |")
                out.append("|---|---:|---:|---|")
                for o in b.outcomes:
                    out.append(
                        f"| {o.label} | {_num(o.net)} | {float(o.probability):.8f} | "
                        f"{o.probability.numerator}/{o.probability.denominator} |"
                    )
                out.append("")
        for t in self.tables:
            out.extend(_table_md(t))
        if self.facts:
            out.append("| figure | value |")
            out.append("|---|---|")
            for k, v in self.facts.items():
                out.append(f"| {k} | {_md_cell(v)} |")
            out.append("")
        for n in self.notes:
            out.append(f"* {n}")
        if self.notes:
            out.append("")
        return "\n".join(out)


def _table_md(t: Table) -> list[str]:
    out = [f"**{t.title}**" + (f" — {t.note}" if t.note else ""), ""]
    out.append("| " + " | ".join(t.columns) + " |")
    out.append("|" + "---|" * len(t.columns))
    for row in t.rows:
        out.append("| " + " | ".join(_md_cell(v) for v in row) + " |")
    out.append("")
    return out


def _num(value: Fraction) -> str:
    return str(value) if value.denominator == 1 else f"{float(value):+.4f}"


def _md_cell(v: Any) -> str:
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return str(v.numerator)
        return f"{float(v):.8g}"
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def _cell_json(v: Any) -> Any:
    if isinstance(v, Fraction):
        return fraction_json(v)
    return v


def render(reports: Sequence[Report], fmt: str) -> str:
    """All reports as one JSON document (`json`) or one markdown text (`markdown`)."""
    if fmt == "json":
        return json.dumps([r.to_json() for r in reports], ensure_ascii=False, indent=2)
    return "\n".join(r.to_markdown() for r in reports)
