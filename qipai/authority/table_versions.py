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


__all__ = ["by_version", "table_row"]
