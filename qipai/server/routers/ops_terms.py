"""The back office's tables per template version (docs/operators.md "Tables on older versions"):
the list, and an operator's choice for a table on an older version — move it to the template's
newest version at its next deal-unit boundary (`qipai.tables.moves`), or leave it where it is
(withdrawing a move asked for). Each choice is in the operator log with its reason."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request

from qipai.authority import table_versions
from qipai.authority.errors import Conflict, NotFound
from qipai.authority.terms import build_terms
from qipai.server.inputs import Key
from qipai.server.routers.ops import AuthorityDep, Reader, Writer, _room, blocking

router = APIRouter(prefix="/api/ops", tags=["ops"])


class TermsMoveIn(BaseModel):
    """An operator's choice for a table on an older version of its template."""

    model_config = ConfigDict(extra="forbid", strict=True)
    choice: Literal["at_boundary", "leave"]
    reason: str = Field(min_length=1, max_length=500)


@router.get("/terms/tables")
async def tables_by_version(
    request: Request, op: Reader, authority: AuthorityDep
) -> dict[str, Any]:
    """The room's tables grouped per template and version: each
    version `behind` the template's newest or not, each table with `pending_version`, the
    version it moves to at its next deal-unit boundary (None: no move asked). With several
    table hosts, the other hosts' tables come from the directory (their last saved layout,
    `status` "elsewhere" and `host`)."""
    room = _room(request)

    def read() -> list[dict[str, Any]]:
        rows = [table_versions.table_row(t) for t in list(room.tables.values()) if not t.closed]
        if getattr(request.app.state.services, "cluster", None) is not None:
            from qipai.cluster import directory

            ledger = request.app.state.ledger
            rows += [
                table_versions.layout_row(d.table_id, d.layout, d.host)
                for d in directory.elsewhere(ledger.engine, set(room.tables))
            ]
        return table_versions.by_version(rows, authority.templates.current())

    return {"templates": await blocking(read)}


@router.post("/tables/{table_id}/terms")
async def move_table_terms(
    table_id: Key, body: TermsMoveIn, request: Request, op: Writer, authority: AuthorityDep
) -> dict[str, Any]:
    """`at_boundary`: the table moves to its template's newest version with
    the first deal of its next deal unit (a Pok Deng shoe and a Pai Gow game are played out on
    the old terms; a table between units moves with its next deal): that round and every later
    one are dealt, paid and shown on the new terms and the players are told (`terms_changed`).
    `leave`: it stays on its version (a move asked for is withdrawn). 409 `conflict` for a table
    already on the newest version or a template retired or suspended; 404 for an unknown
    table."""
    room = _room(request)
    table = room.tables.get(table_id)
    if table is None:
        raise NotFound(f"no table {table_id!r} on this host", "table_id")
    template_id = table.terms.template_id
    if template_id is None:
        raise Conflict("this table was opened on no template: it has no newer version")
    newest = await blocking(authority.templates.get, template_id)
    if body.choice == "at_boundary":
        if not newest.active:
            raise Conflict(f"template {template_id!r} is {newest.status}: no table moves to it")
        if int(newest.version) <= int(table.terms.template_version or 0):
            raise Conflict(f"the table is on version {table.terms.template_version}, the newest")
        terms = build_terms(newest, private=table.terms.private)

        def ask(t: Any) -> dict[str, Any]:
            from qipai.tables import moves

            with t.lock:
                moves.ask(t, terms)
                return table_versions.table_row(t)

        row: dict[str, Any] = await room.call(table_id, ask)
    else:

        def leave(t: Any) -> dict[str, Any]:
            from qipai.tables import moves

            with t.lock:
                moves.leave(t)
                return table_versions.table_row(t)

        row = await room.call(table_id, leave)
    await blocking(
        authority.log.append,
        op.actor,
        "table.terms_move" if body.choice == "at_boundary" else "table.terms_leave",
        table_id,
        body.reason,
        {
            "template_id": template_id,
            "from_version": row["template_version"],
            "to_version": row["pending_version"],
            "newest_version": int(newest.version),
        },
    )
    return row
