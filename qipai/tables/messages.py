"""The messages a table sends to one client, built only from `round.view(seat)`, the events
addressed to that seat (or to everyone) and public table facts (seats, stacks, commitments).

This is the single place that decides what a client may hear; the hidden-information tests
check every message it builds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from qipai.core.protocol import JSON, Event

if TYPE_CHECKING:
    from qipai.tables.table import Table


def _event_name(event: Event) -> JSON:
    """The event's type and acting seat (Pok Deng names it `player`), nothing else."""
    seat = event.data.get("seat", event.data.get("player"))
    return {"type": event.type, "seat": seat if isinstance(seat, str) else None}


def state_message(table: Table, player: str, events: list[Event], finished: bool) -> JSON:
    """The full private state of `player` at `table` (sent after every change and on connect)."""
    seat = table.seat_of(player)
    round_ = table.round or table.last_round
    record = table.record or table.last_record
    in_round = round_ is not None and seat is not None and seat in round_.seat_ids()
    viewer = seat if in_round else None
    now = table.clock.now()
    deadline = table.deadline_at if table.round is not None else None
    awaiting = round_.awaiting() if table.round is not None and round_ is not None else []
    legal = (
        [spec.to_json() for spec in round_.legal_actions(seat)]
        if table.round is not None and round_ is not None and in_round and seat is not None
        else []
    )
    current = table.reveals[-1] if table.reveals else None
    view = round_.view(viewer) if round_ is not None else None
    # The hint reads the viewer's own view only, so it cannot tell more than the view does.
    hint = (
        table.game.hint(view)
        if table.game.hint is not None and view is not None and viewer is not None and legal
        else None
    )
    return {
        "type": "state",
        "table": table.public_info(),
        "you": {"player": player, "seat": seat, "in_round": in_round},
        "round": None
        if round_ is None or record is None
        else {
            "round_id": record.round_id,
            "number": record.number,
            "phase": round_.phase,
            "finished": round_.finished,
            "awaiting": awaiting,
            "deadline": deadline,
            "time_left": None if deadline is None else max(0.0, deadline - now),
            "view": view,
            "hint": hint,
            "commitment": record.commitment,
        },
        "legal": legal,
        # Events name what just happened (for the table log and animations) but carry no data:
        # every card, tile and amount a client sees comes from `round.view(seat)` alone.
        "events": [_event_name(e) for e in events if e.visible_to(viewer)],
        "result": table.last_result if (finished or table.round is None) else None,
        "results": table.results[-12:],
        "fairness": {
            # False for Tien Gow: the seed would let anyone recompute every hidden discard, so
            # players get the commitment only (the operator verifies; docs/protocol.md)
            "seed_policy": "after_deal" if table.game.reveal_seed else "operator_only",
            "current": None
            if current is None
            else {"commitment": current.commitment, "seed": current.seed_hex},
            "revealed": [r.to_json() for r in table.reveals if r.seed_hex is not None][-5:],
        },
        "next_round_in": None
        if table.next_start_at is None or table.round is not None
        else max(0.0, table.next_start_at - now),
        "server_time": now,
    }
