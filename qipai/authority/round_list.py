"""The back office's lists of rounds (docs/operators.md#rounds), read from the ledger's own rows:

* `page`: rounds newest first, filtered by table, player, status, round id and opening time,
  with each round's stake (turnover, 有效投注額, `reports.turnover_of`) and net (what the
  players' stacks won or lost in it), a page at a time: `after` is the last round of the page
  before (keyset paging on (opened_at, id), so a page never skips or repeats a round however many
  are opened meanwhile);
* `player_rounds`: a player's last N rounds with the terms they were played under — template
  and version, config hash, the settings and the pay table of those settings — and the player's
  own stake and net (a regulator's request: "a player's last N rounds with terms and version").

Both export as CSV (`to_csv`). Pure reads over a SQLAlchemy connection.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, func, or_, select

from qipai.authority.errors import BadRequest, NotFound
from qipai.authority.reports import round_parties, turnover_of
from qipai.ledger import accounts as acct
from qipai.ledger.schema import round_ends, round_players, rounds, users

MAX_PAGE = 500
"""The most rounds one page holds."""

MAX_LAST = 1_000
"""The most rounds of one player one request returns."""

STATUSES = ("open", "settled", "voided")

PAGE_COLUMNS = (
    "id",
    "table_id",
    "game",
    "template_id",
    "template_version",
    "status",
    "opened_at",
    "closed_at",
    "stake",
    "net",
)
"""The columns of a page of rounds (the CSV's header)."""

PLAYER_COLUMNS = (
    "id",
    "table_id",
    "game",
    "template_id",
    "template_version",
    "config_hash",
    "engine_version",
    "status",
    "opened_at",
    "closed_at",
    "seat",
    "stake",
    "net",
)
"""The columns of a player's rounds in CSV (the JSON adds `settings` and `pay_table`)."""


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _figures(
    game: str,
    config: Mapping[str, Any],
    result: Mapping[str, Any] | None,
    status: str,
    seat_users: Mapping[str, str],
    legs: Mapping[str, int],
    player: str | None,
) -> tuple[int, int]:
    """(stake, net) of a round: every player's, or `player`'s alone. The stake counts settled
    rounds only (a voided round returned every stake)."""
    stake = 0
    if status == "settled":
        for seat, amount in turnover_of(game, config, result):
            if player is None or seat_users.get(seat) == player:
                stake += amount
    net = 0
    for name, amount in legs.items():
        spec = acct.parse(name)
        if spec.kind in ("stack", "hold") and (player is None or spec.owner == player):
            net += amount
    return stake, net


def _cursor(conn: Connection, after: str) -> datetime:
    opened = conn.execute(select(rounds.c.opened_at).where(rounds.c.id == after)).scalar()
    if opened is None:
        raise BadRequest(f"no round {after!r} to page after", "after")
    return opened  # type: ignore[no-any-return]


def page(
    conn: Connection,
    *,
    table_id: str | None = None,
    player: str | None = None,
    status: str | None = None,
    round_id: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    after: str | None = None,
    limit: int = 50,
) -> dict[str, Any]:
    """A page of rounds newest first and `next`, the `after` of the following page (None: this
    is the last). `round_id` is a whole id, or its first or last characters."""
    from qipai.core.ids import is_whole_round_id

    if status is not None and status not in STATUSES:
        raise BadRequest(f"unknown status {status!r}: use one of {list(STATUSES)}", "status")
    if not 1 <= limit <= MAX_PAGE:
        raise BadRequest(f"limit is 1 to {MAX_PAGE}", "limit")
    if since is not None and until is not None and since >= until:
        raise BadRequest("since must be before until", "since")
    query = (
        select(
            rounds.c.id,
            rounds.c.table_id,
            rounds.c.game,
            rounds.c.meta,
            rounds.c.config,
            func.coalesce(round_ends.c.status, "open").label("status"),
            rounds.c.opened_at,
            round_ends.c.closed_at,
            round_ends.c.result,
        )
        .outerjoin(round_ends, round_ends.c.round_id == rounds.c.id)
        .order_by(rounds.c.opened_at.desc(), rounds.c.id)
        .limit(limit + 1)
    )
    if after is not None:
        at = _cursor(conn, after)
        query = query.where(
            or_(rounds.c.opened_at < at, and_(rounds.c.opened_at == at, rounds.c.id > after))
        )
    if table_id is not None:
        query = query.where(rounds.c.table_id == table_id)
    if status == "open":
        query = query.where(round_ends.c.status.is_(None))
    elif status is not None:
        query = query.where(round_ends.c.status == status)
    if round_id and is_whole_round_id(round_id):
        query = query.where(rounds.c.id == round_id)  # a whole id: the key's index
    elif round_id:
        escaped = _like_escaped(round_id)
        # its first characters, or its last: the console shows a round by its last 12 (a
        # round id begins with the time it opened, `qipai/core/ids.py`)
        query = query.where(
            or_(
                rounds.c.id.like(escaped + "%", escape="\\"),
                rounds.c.id.like("%" + escaped, escape="\\"),
            )
        )
    if since is not None:
        query = query.where(rounds.c.opened_at >= since)
    if until is not None:
        query = query.where(rounds.c.opened_at < until)
    if player is not None:
        query = query.where(
            rounds.c.id.in_(
                select(round_players.c.round_id).where(round_players.c.user_id == player)
            )
        )
    found = list(conn.execute(query).mappings())
    more = len(found) > limit
    found = found[:limit]
    seat_users, legs = round_parties(conn, [str(r["id"]) for r in found])
    out = []
    for r in found:
        rid = str(r["id"])
        meta = r["meta"] or {}
        stake, net = _figures(
            str(r["game"]),
            r["config"] or {},
            r["result"],
            str(r["status"]),
            seat_users.get(rid, {}),
            legs.get(rid, {}),
            player,
        )
        out.append(
            {
                "id": rid,
                "table_id": str(r["table_id"]),
                "game": str(r["game"]),
                "template_id": meta.get("template_id"),
                "template_version": meta.get("template_version"),
                "status": str(r["status"]),
                "opened_at": _iso(r["opened_at"]),
                "closed_at": _iso(r["closed_at"]),
                "stake": stake,
                "net": net,
            }
        )
    return {"rounds": out, "next": out[-1]["id"] if more and out else None}


def _like_escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def player_rounds(conn: Connection, player: str, last: int = 10) -> list[dict[str, Any]]:
    """The player's last `last` rounds, newest first, each with its terms and the player's own
    stake and net; NotFound for a player the books do not know."""
    if not 1 <= last <= MAX_LAST:
        raise BadRequest(f"last is 1 to {MAX_LAST}", "last")
    if conn.execute(select(users.c.id).where(users.c.id == player)).scalar() is None:
        raise NotFound(f"no player {player!r}", "player")
    query = (
        select(
            rounds.c.id,
            rounds.c.table_id,
            rounds.c.game,
            rounds.c.meta,
            rounds.c.config,
            round_players.c.seat,
            func.coalesce(round_ends.c.status, "open").label("status"),
            rounds.c.opened_at,
            round_ends.c.closed_at,
            round_ends.c.result,
        )
        .join(round_players, round_players.c.round_id == rounds.c.id)
        .outerjoin(round_ends, round_ends.c.round_id == rounds.c.id)
        .where(round_players.c.user_id == player)
        .order_by(round_players.c.opened_at.desc(), rounds.c.id)
        .limit(last)
    )
    found = list(conn.execute(query).mappings())
    seat_users, legs = round_parties(conn, [str(r["id"]) for r in found])
    tables: dict[tuple[str, str], Any] = {}
    out = []
    for r in found:
        rid, game, config = str(r["id"]), str(r["game"]), r["config"] or {}
        meta = r["meta"] or {}
        stake, net = _figures(
            game,
            config,
            r["result"],
            str(r["status"]),
            seat_users.get(rid, {}),
            legs.get(rid, {}),
            player,
        )
        key = (game, str(meta.get("config_hash")))
        if key not in tables:
            tables[key] = _pay_table(game, config)
        out.append(
            {
                "id": rid,
                "table_id": str(r["table_id"]),
                "game": game,
                "template_id": meta.get("template_id"),
                "template_version": meta.get("template_version"),
                "config_hash": meta.get("config_hash"),
                "engine_version": meta.get("engine_version"),
                "status": str(r["status"]),
                "opened_at": _iso(r["opened_at"]),
                "closed_at": _iso(r["closed_at"]),
                "seat": str(r["seat"]),
                "stake": stake,
                "net": net,
                "settings": config,
                "pay_table": tables[key],
            }
        )
    return out


def _pay_table(game: str, config: Mapping[str, Any]) -> Any:
    """The pay table of the settings a round was played under (None for a game this
    installation no longer has, or settings it no longer reads)."""
    from qipai.authority import games

    try:
        return games.pay_table(game, games.parse_config(game, config))
    except Exception:
        return None


def to_csv(rows: Iterable[Mapping[str, Any]], columns: Sequence[str]) -> str:
    """Rows as CSV: a header, then one line per row (empty for None)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow(["" if row.get(c) is None else row.get(c) for c in columns])
    return out.getvalue()


__all__ = [
    "MAX_LAST",
    "MAX_PAGE",
    "PAGE_COLUMNS",
    "PLAYER_COLUMNS",
    "page",
    "player_rounds",
    "to_csv",
]
