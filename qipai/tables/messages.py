"""The messages a table sends to one client, built only from the table's typed snapshot
(`snapshot.py`): `round.view(seat)`, the events addressed to that seat (or to everyone) and
public table facts (seats, stacks, status, commitments).

This is the single place that decides what a client may hear; the hidden-information tests
check every message it builds.
"""

from __future__ import annotations

import itertools
from typing import Any

from qipai.core.protocol import JSON, Event
from qipai.tables.deltas import Op, diff
from qipai.tables.snapshot import RoundReadout, TableSnapshot

_SEQ = itertools.count(1)
"""State numbers (`seq`), one counter for the whole process: a number is never given twice, not
even by a table rebuilt after a recovery, so a delta's `base` names one state only."""


def _event_name(event: Event) -> JSON:
    """The event's type and acting seat (Pok Deng names it `player`), nothing else."""
    seat = event.data.get("seat", event.data.get("player"))
    return {"type": event.type, "seat": seat if isinstance(seat, str) else None}


class Shared:
    """What the states of one snapshot have in common, built once for all its listeners: the
    round's view per viewer (every spectator and every seat out of the round sees the same
    public view), and the results history. One per snapshot: a view is of that moment."""

    __slots__ = ("bodies", "deltas", "results", "snap", "views")

    def __init__(self, snap: TableSnapshot) -> None:
        self.snap = snap
        self.views: dict[str | None, JSON] = {}
        self.results: list[JSON] = list(snap.results)
        self.bodies: dict[str | None, JSON] = {}  # viewer -> the state without `you`
        self.deltas: dict[tuple[int, str | None], Delta] = {}  # (id(old body), viewer) -> delta

    def view(self, round_: RoundReadout, viewer: str | None) -> JSON:
        found = self.views.get(viewer)
        if found is None:
            found = self.views[viewer] = round_.view(viewer)
        return found


def you_of(snap: TableSnapshot, player: str) -> tuple[str | None, JSON]:
    """Whose eyes `player` sees the round with (their seat while they are in it, else None: a
    spectator's) and the state's `you` block."""
    seat = snap.seat_of.get(player)
    round_ = snap.round.round if snap.round is not None else None
    in_round = round_ is not None and seat is not None and seat in round_.seat_ids()
    you = {
        "player": player,
        "seat": seat,
        "in_round": in_round,
        # which commitment my client seed meets (docs/fairness.md, "Which commitment a seed
        # meets"): told in the room, as in the sit and automatch answers
        "client_seed": snap.seed_notes.get(player),
    }
    return (seat if in_round else None), you


def state_for(
    snap: TableSnapshot,
    player: str,
    events: list[Event],
    finished: bool,
    shared: Shared | None = None,
) -> JSON:
    """The full private state of `player` at the table of `snap` (sent after every change and
    on connect). `shared`: the parts already built for another listener of the same snapshot
    (`Shared(snap)`), which the returned message holds by reference: messages are read-only.
    Everything but `you` depends only on whose eyes the round is seen with (`you_of`), so it
    is built once per viewer and shared by every listener who sees through them."""
    if shared is None or shared.snap is not snap:
        shared = Shared(snap)
    viewer, you = you_of(snap, player)
    return {**body_for(snap, viewer, events, finished, shared), "you": you}


def body_for(
    snap: TableSnapshot,
    viewer: str | None,
    events: list[Event],
    finished: bool,
    shared: Shared,
) -> JSON:
    """The state seen through `viewer`'s eyes without `you` (built once per snapshot)."""
    found = shared.bodies.get(viewer)
    if found is None:
        found = shared.bodies[viewer] = _body(snap, viewer, events, finished, shared)
    return found


def _body(
    snap: TableSnapshot,
    viewer: str | None,
    events: list[Event],
    finished: bool,
    shared: Shared,
) -> JSON:
    seat = viewer
    facts = snap.round
    round_ = facts.round if facts is not None else None
    in_round = viewer is not None
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


class Delta:
    """The change from one state (`base`) to the next (`seq`) seen through one viewer's eyes: an
    RFC 6902 patch (`deltas.py`; docs/protocol.md, "Deltas"). One object for every listener
    who held the same state before, so its frame is encoded once for all of them (`text`, set
    by the socket layer that encodes it)."""

    __slots__ = ("base", "old", "ops", "seq", "table_id", "text")

    def __init__(self, table_id: str, base: int, seq: int, old: JSON, ops: list[Op]) -> None:
        self.table_id = table_id
        self.base = base
        self.seq = seq
        self.old = old  # the state it applies to (held: keys `Shared.deltas` by its identity)
        self.ops = ops
        self.text: str | None = None

    def message(self) -> JSON:
        return {
            "type": "delta",
            "table_id": self.table_id,
            "base": self.base,
            "seq": self.seq,
            "patch": self.ops,
        }


class StateMessage(dict[str, Any]):
    """A full `state` message with what its sockets need to send it cheaply: its `seq`, the
    `delta` from the same player's previous state (None: none to go from) and its encoded
    `text` (set by the socket layer; one encoding for all of the player's sockets). A socket
    whose last state of the table was `delta.base` sends the delta, any other the whole state."""

    __slots__ = ("delta", "seq", "text")

    def __init__(self, message: JSON, seq: int, delta: Delta | None) -> None:
        super().__init__(message)
        self.seq = seq
        self.delta = delta
        self.text: str | None = None


class Listeners:
    """What each listener of one table was last sent (its `seq`, the body it saw and its `you`),
    so that its next state also goes as a delta. One entry per listening player: `forget`
    drops a player who stopped listening."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self._last: dict[str, tuple[int, JSON, JSON]] = {}

    def stamp(
        self,
        snap: TableSnapshot,
        player: str,
        events: list[Event],
        finished: bool,
        shared: Shared,
        seq: int,
        delta: bool = True,
    ) -> StateMessage:
        """`player`'s state of `snap` numbered `seq`, with the delta from what they last got
        (`delta=False`: a state that starts afresh, as on subscribe)."""
        viewer, you = you_of(snap, player)
        body = body_for(snap, viewer, events, finished, shared)
        message = {**body, "you": you, "table_id": self.table_id, "seq": seq}
        last = self._last.get(player)
        self._last[player] = (seq, body, you)
        if not delta or last is None:
            return StateMessage(message, seq, None)
        base, old, old_you = last
        found = shared.deltas.get((id(old), viewer))
        if found is None or found.old is not old or found.base != base:
            found = Delta(self.table_id, base, seq, old, diff(old, body))
            shared.deltas[(id(old), viewer)] = found
        if old_you != you:  # sat down, stood up, joined the round: this player's own delta
            ops = [*found.ops, {"op": "replace", "path": "/you", "value": you}]
            found = Delta(self.table_id, base, seq, old, ops)
        return StateMessage(message, seq, found)

    def forget(self, player: str) -> None:
        self._last.pop(player, None)

    def __len__(self) -> int:
        return len(self._last)


def next_seq() -> int:
    return next(_SEQ)


__all__ = [
    "Delta",
    "Listeners",
    "Shared",
    "StateMessage",
    "body_for",
    "next_seq",
    "state_for",
    "you_of",
]
