"""What a table tells the world: its status and what it waits for, the lobby's facts
(`public_info`: no cards, no running seeds) and the typed read-only snapshot every client
message is built from (`snapshot.py`, read by `messages.py`). Reads the table, changes nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from qipai.core.protocol import JSON
from qipai.fairness import DEAL_SPEC
from qipai.tables.seating import SeatState
from qipai.tables.snapshot import RoundFacts, TableSnapshot
from qipai.tables.status import CLOSED, PLAYING, TableStatus, suspended, waiting

if TYPE_CHECKING:
    from qipai.tables.table import Table


def playable(table: Table, s: SeatState) -> bool:
    """A seat that may be dealt the next round (bots are topped up at the deal)."""
    if s.player is None or s.leaving or s.away:
        return False
    return bool(s.bot) or table.money.stack(s.player) >= table.terms.min_buy_in


def wait_detail(table: Table) -> JSON | None:
    """What the table waits for as data for clients to translate: `{"code": "players", "n",
    "of"}`, `{"code": "players_away", "n", "of", "away"}` or `{"code": "need_human"}` (None: it
    can deal, or it is dealing)."""
    if table.round is not None or table.units.bound_seats():
        return None
    seats = table.seating.seats.values()
    players = [s for s in seats if playable(table, s)]
    need = table.game.min_players
    if len(players) < need:
        away = sum(1 for s in seats if s.player and s.away)
        if away:
            return {"code": "players_away", "n": len(players), "of": need, "away": away}
        return {"code": "players", "n": len(players), "of": need}
    if not any(not s.bot for s in players):
        return {"code": "need_human"}
    return None


def wait_reason(table: Table) -> str | None:
    """`wait_detail` in English."""
    detail = wait_detail(table)
    if detail is None:
        return None
    if detail["code"] == "need_human":
        return "a player at the table"  # bots never play among themselves
    tail = f" ({detail['away']} away)" if detail.get("away") else ""
    return f"{detail['n']} of {detail['of']} players{tail}"


def status(table: Table) -> TableStatus:
    if table.closed:
        return CLOSED
    if table.suspension is not None:
        return suspended(table.suspension)
    reason = wait_reason(table)
    return PLAYING if reason is None else waiting(reason, wait_detail(table))


def held_stack(table: Table, player: str) -> int:
    """A player's table stack including what the running round holds for them."""
    stack = table.money.stack(player)
    if table.record is not None:
        stack += sum(st for _, p, st in table.record.seats if p == player)
    return stack


def public_info(table: Table) -> JSON:
    """The lobby's view of the table: no cards, no seeds of running deal units."""
    now_status = status(table)
    away_grace = table.terms.away_grace_s
    game, terms = table.game, table.terms
    return {
        "id": table.id,
        "game": game.name,
        "title": dict(game.title),
        "name": table.name,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "bot": s.bot,
                "occupied": s.player is not None,
                "stack": held_stack(table, s.player) if s.player else None,
                "away": s.away,
                "away_until": None if s.away_since is None else s.away_since + away_grace,
            }
            for s in table.seating
        ],
        "free": len(table.seating.free_seats()),
        "humans": len(table.seating.humans()),
        "playing": table.round is not None,
        "status": now_status.state,
        "status_reason": now_status.reason,
        "status_detail": now_status.detail,  # the reason as data (codes, counts)
        "number": table.number,
        "bot_levels": [b for b in game.bot_levels if terms.allows_bot(b)],
        "min_buy_in": terms.min_buy_in,
        "max_buy_in": terms.max_buy_in,
        "private": terms.private,
        "owner": table.owner,
        "terms": terms.public_json(),
    }


def fairness(table: Table) -> JSON:
    """The seed policy, the current and next commitments and the revealed units."""
    units = table.units
    current = units.current()
    return {
        # False for Tien Gow: the seed would let anyone recompute every hidden discard,
        # so players get the commitment only (the operator verifies; docs/protocol.md)
        "seed_policy": "after_deal" if table.game.reveal_seed else "operator_only",
        "deal_spec": DEAL_SPEC,
        "current": None
        if current is None
        else {"commitment": current.commitment, "seed": current.seed_hex},
        "next_commitment": units.next_commitment,
        # the current (or last) unit's client seeds: with its seed, the key actually used —
        # still shown once the unit ended, when its seed is revealed
        "client_seeds": dict(current.client_seeds) if current is not None else {},
        "client_seeds_enabled": table.terms.client_seeds,
        "revealed": [r.to_json() for r in units.reveals if r.seed_hex is not None][-5:],
    }


def seed_note(table: Table, player: str) -> JSON | None:
    """Which commitment `player`'s client seed meets, as the sit and automatch answers and the
    room tell it: `{"client_seed", "in_unit", "commitment", "after_commitment"}` — `in_unit`
    when the running unit was keyed with it; else `commitment` is the unit it enters (None
    while that unit's seed is not drawn yet: it enters the unit after `after_commitment`'s,
    from that unit's first round). None without a seed."""
    seed = table.client_seed_of.get(player)
    seat = table.seating.seat_of(player)
    if seed is None or seat is None or not table.terms.client_seeds:
        return None
    units = table.units
    current = units.current()
    in_unit = units.running and units.client_seeds.get(seat) == seed
    after = table.seed_after.get(player)
    waits = after is not None and after == units.next_commitment
    return {
        "client_seed": seed,
        "in_unit": in_unit,
        "commitment": None
        if waits
        else (current.commitment if in_unit and current else units.next_commitment),
        "after_commitment": after if waits else None,
    }


def snapshot(table: Table) -> TableSnapshot:
    """The typed, read-only facts every message of this moment is built from."""
    round_ = table.round or table.last_round
    record = table.record or table.last_record
    running = table.round is not None
    facts = None
    if round_ is not None and record is not None:
        facts = RoundFacts(
            round=round_,
            running=running,
            round_id=record.round_id,
            number=record.number,
            commitment=record.commitment,
            deadline=table.timers.deadline_at if running else None,
            openings={} if running else dict(table.openings),
        )
    return TableSnapshot(
        table=public_info(table),
        seat_of={s.player: s.seat for s in table.seating if s.player},
        round=facts,
        hint=table.game.hint,
        fairness=fairness(table),
        tiles=None if table.tiles is None else table.tiles.public_json(),
        last_result=table.last_result,
        results=tuple(table.results[-12:]),
        next_start_at=None if running else table.timers.next_start_at,
        now=table.clock.now(),
        versions=table.versions,
        seed_notes={
            str(s.player): note
            for s in table.seating
            if s.player and not s.bot and (note := seed_note(table, str(s.player))) is not None
        },
    )


__all__ = [
    "fairness",
    "held_stack",
    "playable",
    "public_info",
    "seed_note",
    "snapshot",
    "status",
    "wait_detail",
    "wait_reason",
]
