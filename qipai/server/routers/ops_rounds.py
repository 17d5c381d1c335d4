"""The back office's round lists (`qipai.authority.round_list`, docs/operators.md#rounds):
every round a page at a time with its stake and net, and a player's last rounds with their
terms, each as JSON or CSV."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import Response
from starlette.requests import Request

from qipai.authority import round_list
from qipai.server.inputs import Key
from qipai.server.routers.ops import Reader, _aware, _ledger, blocking

router = APIRouter(prefix="/api/ops", tags=["ops"])

Format = Annotated[str, Query(pattern="^(json|csv)$")]


def _csv(text: str, name: str) -> Response:
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get("/rounds")
async def list_rounds(
    request: Request,
    op: Reader,
    table_id: Key | None = None,
    player: Key | None = None,
    status: Annotated[str | None, Query(pattern="^(open|settled|voided)$")] = None,
    since: datetime | None = None,
    until: datetime | None = None,
    round_id: Key | None = None,
    after: Key | None = None,
    limit: Annotated[int, Query(ge=1, le=round_list.MAX_PAGE)] = 50,
    format: Format = "json",
) -> Any:
    """Rounds newest first, by id (or its first or last
    characters), table, player, status (`open`, `settled`, `voided`) or time (`since`/`until`,
    ISO 8601, opened), each with its `stake` (turnover) and `net` (the players' stacks' result;
    with `player`, that player's own). A page at a time: `next` is the `after` of the following
    page (null on the last). `format=csv` answers the page as a CSV file."""
    lo, hi = _aware(since, "since"), _aware(until, "until")

    def work() -> dict[str, Any]:
        with _ledger(request).engine.connect() as conn:
            return round_list.page(
                conn,
                table_id=table_id,
                player=player,
                status=status,
                round_id=round_id,
                since=lo,
                until=hi,
                after=after,
                limit=limit,
            )

    found = await blocking(work)
    if format == "csv":
        return _csv(round_list.to_csv(found["rounds"], round_list.PAGE_COLUMNS), "rounds.csv")
    return found


@router.get("/players/{player}/rounds")
async def player_rounds(
    player: Key,
    request: Request,
    op: Reader,
    last: Annotated[int, Query(ge=1, le=round_list.MAX_LAST)] = 10,
    format: Format = "json",
) -> Any:
    """A player's last `last` rounds, newest first, with the terms
    each was played under (template and version, config hash, engine version, settings and
    their pay table) and the player's own stake and net: a regulator's request. `format=csv`
    answers a CSV file (without the settings and pay table, which the JSON carries)."""

    def work() -> list[dict[str, Any]]:
        with _ledger(request).engine.connect() as conn:
            return round_list.player_rounds(conn, player, last)

    found = await blocking(work)
    if format == "csv":
        return _csv(
            round_list.to_csv(found, round_list.PLAYER_COLUMNS), f"{player}-last-{last}-rounds.csv"
        )
    return {"player": player, "last": last, "rounds": found}
