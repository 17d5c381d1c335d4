"""The messages a table sends to one client, built only from the table's typed snapshot
(`snapshot.py`): `round.view(seat)`, the events addressed to that seat (or to everyone) and
public table facts (seats, stacks, status, commitments).

This is the single place that decides what a client may hear; the hidden-information tests
check every message it builds.
"""

from __future__ import annotations

from qipai.core.protocol import JSON, Event
from qipai.tables.snapshot import RoundReadout, TableSnapshot


def _event_name(event: Event) -> JSON:
    """The event's type and acting seat (Pok Deng names it `player`), nothing else."""
    seat = event.data.get("seat", event.data.get("player"))
    return {"type": event.type, "seat": seat if isinstance(seat, str) else None}


class Shared:
    """What the states of one snapshot have in common, built once for all its listeners: the
    round's view per viewer (every spectator and every seat out of the round sees the same
    public view), and the results history. One per snapshot: a view is of that moment."""

    __slots__ = ("results", "snap", "views")

    def __init__(self, snap: TableSnapshot) -> None:
        self.snap = snap
        self.views: dict[str | None, JSON] = {}
        self.results: list[JSON] = list(snap.results)

    def view(self, round_: RoundReadout, viewer: str | None) -> JSON:
        found = self.views.get(viewer)
        if found is None:
            found = self.views[viewer] = round_.view(viewer)
        return found


def state_for(
    snap: TableSnapshot,
    player: str,
    events: list[Event],
    finished: bool,
    shared: Shared | None = None,
) -> JSON:
    """The full private state of `player` at the table of `snap` (sent after every change and
    on connect). `shared`: the parts already built for another listener of the same snapshot
    (`Shared(snap)`), which the returned message holds by reference: messages are read-only."""
    if shared is None or shared.snap is not snap:
        shared = Shared(snap)
    seat = snap.seat_of.get(player)
    facts = snap.round
    round_ = facts.round if facts is not None else None
    in_round = round_ is not None and seat is not None and seat in round_.seat_ids()
    viewer = seat if in_round else None
    running = facts is not None and facts.running
    # a round shown that no longer runs and never finished was interrupted (suspended, closed,
    # not recoverable): its stakes were returned, so it ends on the socket as `voided`
    voided = round_ is not None and not running and not round_.finished
    deadline = facts.deadline if facts is not None and running else None
    awaiting = round_.awaiting() if running and round_ is not None else []
    legal = (
        [spec.to_json() for spec in round_.legal_actions(seat)]
        if running and round_ is not None and in_round and seat is not None
        else []
    )
    view = shared.view(round_, viewer) if round_ is not None else None
    # The hint reads the viewer's own view only, so it cannot tell more than the view does.
    hint = (
        snap.hint(view)
        if snap.hint is not None and view is not None and viewer is not None and legal
        else None
    )
    version = snap.versions.of(
        facts.round_id if facts is not None else None,
        round_.phase if round_ is not None else None,
        viewer,
        legal,
    )
    return {
        "type": "state",
        # the state an action is built from: sent back with it (`versions.py`)
        "version": version,
        "table": snap.table,
        "you": {
            "player": player,
            "seat": seat,
            "in_round": in_round,
            # which commitment my client seed meets (docs/fairness.md, "Which commitment a
            # seed meets"): told in the room, as in the sit and automatch answers
            "client_seed": snap.seed_notes.get(player),
        },
        "round": None
        if facts is None or round_ is None
        else {
            "round_id": facts.round_id,
            "number": facts.number,
            "phase": "voided" if voided else round_.phase,
            "finished": True if voided else round_.finished,
            "awaiting": awaiting,
            "deadline": deadline,
            "time_left": None if deadline is None else max(0.0, deadline - snap.now),
            "view": view,
            "hint": hint,
            "commitment": facts.commitment,
            # Tien Gow: the dealt tiles' root (published before play) and, once the game is
            # over, the openings of exactly the tiles this seat was shown (never a discard)
            "tiles": snap.tiles if running else None,
            "openings": facts.openings.get(viewer) if viewer is not None else None,
        },
        "legal": legal,
        # Events name what just happened (for the table log and animations) but carry no data:
        # every card, tile and amount a client sees comes from `round.view(seat)` alone.
        "events": [_event_name(e) for e in events if e.visible_to(viewer)],
        "result": snap.last_result if (finished or not running) else None,
        "results": shared.results,
        "fairness": snap.fairness,
        "next_round_in": None
        if snap.next_start_at is None or running
        else max(0.0, snap.next_start_at - snap.now),
        "server_time": snap.now,
    }


__all__ = ["Shared", "state_for"]
