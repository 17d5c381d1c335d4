"""The back office's list of tables per template version (`qipai.authority.table_versions`):
grouped per template and version, newest version first, a version behind the template's newest
marked, a table on another host read from its saved layout with the move it waits for, and a
table on no template left out."""

from __future__ import annotations

from types import SimpleNamespace

from qipai.authority.table_versions import by_version, layout_row


def _layout(
    version: int, pending: int | None, template: str | None = "paigow"
) -> dict[str, object]:
    terms = {"game": "paigow", "template_id": template, "template_version": version}
    return {
        "name": "far table",
        "game": "paigow",
        "terms": terms,
        "pending_terms": None if pending is None else {**terms, "template_version": pending},
        "seats": [
            {"seat": "S1", "player": "ann", "bot": None},
            {"seat": "S2", "player": "bot.1", "bot": "sensible"},
        ],
        "suspended": None,
    }


def test_tables_are_grouped_per_version_with_the_newest_marked() -> None:
    current = {"paigow": SimpleNamespace(version=3, name="Pai Gow", game="paigow", status="active")}
    local = {
        "table_id": "t-here",
        "name": "here",
        "game": "paigow",
        "template_id": "paigow",
        "template_version": 3,
        "pending_version": None,
        "status": "playing",
        "people": 1,
    }
    far = layout_row("t-far", _layout(2, 3), "host-b")
    assert far["pending_version"] == 3 and far["status"] == "elsewhere" and far["people"] == 1
    assert far["host"] == "host-b"
    older = layout_row("t-old", _layout(1, None), "host-b")
    nothing = layout_row("t-none", _layout(1, None, template=None), None)
    (entry,) = by_version([older, far, local, nothing], current)
    assert entry["newest_version"] == 3 and entry["name"] == "Pai Gow"
    assert [(v["version"], v["behind"]) for v in entry["versions"]] == [
        (3, False),
        (2, True),
        (1, True),
    ]
    assert [[t["table_id"] for t in v["tables"]] for v in entry["versions"]] == [
        ["t-here"],
        ["t-far"],
        ["t-old"],
    ]
