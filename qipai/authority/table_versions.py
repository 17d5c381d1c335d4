"""Which tables run on which version of their template (docs/operators.md "Tables on older
versions"): the back office's list, grouped per template and version, each version marked
current or behind the template's newest, each table with the move it waits for."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def table_row(table: Any) -> dict[str, Any]:
    """One table's line: its template version, the version it moves to at its next deal-unit
    boundary (None: no move asked), its status and how many people sit."""
    terms, pending = table.terms, table.pending_terms
    people = len(table.seating.humans())
    return {
        "table_id": table.id,
        "name": table.name,
        "game": terms.game,
        "template_id": terms.template_id,
        "template_version": terms.template_version,
        "pending_version": None if pending is None else pending.template_version,
        "status": table.status().state,
        "people": people,
    }


def layout_row(table_id: str, layout: Mapping[str, Any], host: str | None) -> dict[str, Any]:
    """The line of a table another host runs, from its last saved layout (the directory,
    `qipai.cluster.directory`): the same fields, `status` "elsewhere" (or "suspended") and its
    `host`; a move asked for there is forwarded to that host (`qipai.cluster.proxy`)."""
    terms = layout.get("terms") or {}
    pending = layout.get("pending_terms") or None
    seats = [s for s in layout.get("seats") or [] if isinstance(s, Mapping)]
    return {
        "table_id": table_id,
        "name": str(layout.get("name", "")),
        "game": terms.get("game", layout.get("game")),
        "template_id": terms.get("template_id"),
        "template_version": terms.get("template_version"),
        "pending_version": None if not pending else pending.get("template_version"),
        "status": "suspended" if layout.get("suspended") else "elsewhere",
        "people": sum(1 for s in seats if s.get("player") is not None and not s.get("bot")),
        "host": host,
    }


def by_version(
    rows: Iterable[Mapping[str, Any]], current: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """Tables grouped per template and version (the newest version first), with the template's
    newest version and name; tables on no template are left out (they have no version)."""
    groups: dict[str, dict[int, list[dict[str, Any]]]] = {}
    for row in rows:
        tid, version = row.get("template_id"), row.get("template_version")
        if tid is None or version is None:
            continue
        groups.setdefault(str(tid), {}).setdefault(int(version), []).append(dict(row))
    out = []
    for tid in sorted(groups):
        template = current.get(tid)
        newest = None if template is None else int(template.version)
        out.append(
            {
                "template_id": tid,
                "name": None if template is None else template.name,
                "game": None if template is None else template.game,
                "status": None if template is None else template.status,
                "newest_version": newest,
                "versions": [
                    {
                        "version": v,
                        "behind": newest is not None and v < newest,
                        "tables": sorted(groups[tid][v], key=lambda r: str(r["table_id"])),
                    }
                    for v in sorted(groups[tid], reverse=True)
                ],
            }
        )
    return out


__all__ = ["by_version", "layout_row", "table_row"]
