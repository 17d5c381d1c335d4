"""Recall: a player's last N rounds as the player may see them (bids, multiples, cards, wagers,
outcome, commission, starting and ending balance), newest first."""

from __future__ import annotations

import base64
import binascii
import json
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Connection, and_, or_, select, true

from qipai.core.protocol import COMMISSION
from qipai.ledger import holds as holds_mod
from qipai.ledger.errors import UnknownRound
from qipai.ledger.journal import log_of, results_of
from qipai.ledger.schema import round_ends, round_players, rounds, seed_reveals


def cursor_of(opened_at: datetime, round_id: str, seat: str) -> str:
    """An opaque position in a player's history (`recall(before=…)` continues after it)."""
    raw = json.dumps([opened_at.isoformat(), round_id, seat], separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def parse_cursor(cursor: str) -> tuple[datetime, str, str]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        at, round_id, seat = json.loads(raw)
        when = datetime.fromisoformat(at)
        if when.tzinfo is None or not isinstance(round_id, str) or not isinstance(seat, str):
            raise ValueError(cursor)
        return when, round_id, seat
    except (ValueError, TypeError, binascii.Error, UnicodeDecodeError):
        raise UnknownRound(f"invalid history cursor {cursor[:80]!r}") from None


def recall(
    conn: Connection, user_id: str, limit: int = 10, before: str | None = None
) -> list[dict[str, Any]]:
    """The player's last `limit` rounds (every seat they played), newest first; `before` (an
    item's `cursor`) continues with the rounds after that item (keyset paging: stable while new
    rounds are played).

    Each item has the seat's own actions (bids, multiples, swaps, bets), the events that seat was
    shown (its cards and every public reveal — never another seat's hidden cards), its wagers
    (holds), its postings and net outcome, the round's commission, the whole result details, and
    its table stack at the start and end of the round. The seed is included once revealed.
    """
    rows = (
        conn.execute(
            select(
                round_players.c.round_id,
                round_players.c.seat,
                round_players.c.user_id,
                round_players.c.account,
                round_players.c.start_balance,
                rounds.c.table_id,
                rounds.c.game,
                round_ends.c.status,
                rounds.c.opened_at,
                round_ends.c.closed_at,
                round_ends.c.result,
                rounds.c.seed_commitment,
                seed_reveals.c.seed,
            )
            .join(rounds, rounds.c.id == round_players.c.round_id)
            .outerjoin(round_ends, round_ends.c.round_id == rounds.c.id)
            .outerjoin(seed_reveals, seed_reveals.c.seed_commitment == rounds.c.seed_commitment)
            .where(round_players.c.user_id == user_id)
            .where(_after(before))
            .order_by(
                round_players.c.opened_at.desc(),
                round_players.c.round_id.desc(),
                round_players.c.seat,
            )
            .limit(limit)
        )
        .mappings()
        .all()
    )
    nets = results_of(conn, sorted({str(r["round_id"]) for r in rows if r["status"] is not None}))
    out: list[dict[str, Any]] = []
    for row in rows:
        ended = row["status"] is not None
        net = nets.get((str(row["round_id"]), str(row["account"])), 0) if ended else None
        seat = str(row["seat"])
        log = log_of(conn, str(row["round_id"]))
        actions = [e["payload"] for e in log if e["kind"] == "action" and e["seat"] == seat]
        events = [
            e["payload"]
            for e in log
            if e["kind"] == "event" and (e["to"] is None or seat in e["to"])
        ]
        result = row["result"] or {}
        postings = [p for p in result.get("postings", []) if p["account"] in {seat, row["user_id"]}]
        commission = sum(
            p["amount"] for p in result.get("postings", []) if p["account"] == COMMISSION
        )
        wagers = [
            h.to_json()
            for h in holds_mod.of_round(conn, str(row["round_id"]))
            if h.seat == seat or (h.seat is None and h.account == row["account"])
        ]
        out.append(
            {
                "round_id": row["round_id"],
                "table_id": row["table_id"],
                "game": row["game"],
                "status": row["status"] or "open",
                "opened_at": row["opened_at"].isoformat(),
                "closed_at": None if row["closed_at"] is None else row["closed_at"].isoformat(),
                "seat": seat,
                "start_balance": row["start_balance"],
                "end_balance": None if net is None else int(row["start_balance"]) + net,
                "net": net,
                "actions": actions,
                "events": events,
                "wagers": wagers,
                "postings": postings,
                "outcome": sum(p["amount"] for p in postings),
                "commission": commission,
                "details": result.get("details", {}),
                "seed_commitment": row["seed_commitment"],
                "seed": row["seed"],
                "cursor": cursor_of(row["opened_at"], str(row["round_id"]), seat),
            }
        )
    return out


def _after(before: str | None) -> ColumnElement[bool]:
    if before is None:
        return true()
    at, round_id, seat = parse_cursor(before)
    return or_(
        round_players.c.opened_at < at,
        and_(round_players.c.opened_at == at, round_players.c.round_id < round_id),
        and_(
            round_players.c.opened_at == at,
            round_players.c.round_id == round_id,
            round_players.c.seat > seat,
        ),
    )
