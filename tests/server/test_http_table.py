"""docs/protocol.md's HTTP table is the OpenAPI document's: generated from the routes
(`qipai.server.http_table`), so a route, a body field, a bound or a "who may call it" that
changes without the doc fails here (regenerate: `python -m qipai.server.http_table --write`)."""

from __future__ import annotations

from qipai.server import http_table


def test_the_http_table_in_protocol_md_is_generated_from_the_openapi_document() -> None:
    spec = http_table.openapi()
    doc = http_table.DOC.read_text(encoding="utf-8")
    assert http_table.in_doc(doc) == http_table.table(spec)


def test_the_table_says_what_the_routes_say() -> None:
    spec = http_table.openapi()
    rows = "\n".join(http_table.rows(spec))
    # tables take a template, automatch a template or a game, history at most 50 rounds
    assert '`{"template": ID, "name"?, "private"?}`' in rows
    assert '{"template": ID \\| "game": G, "buy_in"}' in rows
    assert "`GET /api/history?limit=1..50`" in rows
    # every row says who may call it
    for row in http_table.rows(spec)[2:]:
        assert row.split(" | ")[1].strip(), row
    # a route the doc does not have is a difference
    spec["paths"]["/api/new"] = {"get": {"description": "**Anyone.** New."}}
    assert http_table.table(spec) != http_table.in_doc(http_table.DOC.read_text(encoding="utf-8"))
