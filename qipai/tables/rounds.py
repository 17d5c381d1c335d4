"""A round's life at a table: `start` (who is dealt in, the deal unit, the opening record and
its holds), `finish` (the result, the seats' nets, the settlement with what the next round
continues from, the unit's end, who stands up after it) and the two ledger writes they make:
the opening record (who plays with what, the deal unit's seed and commitment, what it continues
from, how it was dealt) and the settlement (with the table's layout in the same transaction
where the ledger keeps layouts, else the layout saved just before).

Both run under the table's lock; a failed write leaves the table exactly as it was (a database
that is unavailable is tried again by the tick, any other failure suspends the table)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from qipai.core.errors import GameError
from qipai.core.ids import new_round_id
from qipai.core.protocol import JSON, Event, RoundResult, Seat
from qipai.core.rng import Rng
from qipai.tables import actions as journal_first
from qipai.tables import layout as layout_mod
from qipai.tables import lobby, moves, seat_flows
from qipai.tables import units as units_mod
from qipai.tables.ports import RoundRecord
from qipai.tables.seating import SeatState

if TYPE_CHECKING:
    from qipai.tables.table import Table


def opening_record(
    table: Table, players: Sequence[SeatState], seats: Sequence[Seat], context: JSON, tiles: Any
) -> RoundRecord:
    """The record of the round about to open (the table's counter already counts it)."""
    units = table.units
    current = units.current()
    assert units.carry_seed is not None and current is not None
    return RoundRecord(
        round_id=new_round_id(),
        table_id=table.id,
        game=table.game.name,
        config=table.config.to_json(),
        seats=tuple(
            (s.seat, s.player or "", seat.stack) for s, seat in zip(players, seats, strict=True)
        ),
        seed_hex=units.carry_seed.hex(),
        commitment=current.commitment,
        context=context,
        number=table.number,
        meta=units_mod.round_meta(table.terms, table.game, units.client_seeds, tiles),
    )


def seat_nets(result: RoundResult, record: RoundRecord) -> dict[str, int]:
    """Each seat's net of the round (postings to other accounts, house or pool, left out)."""
    seat_ids = {s for s, _, _ in record.seats}
    nets: dict[str, int] = {}
    for posting in result.postings:
        if posting.account in seat_ids:
            nets[posting.account] = nets.get(posting.account, 0) + posting.amount
    return nets


def settle(
    table: Table,
    record: RoundRecord,
    result: RoundResult,
    reveal: bool,
    events: tuple[Event, ...],
) -> JSON | None:
    """Settle in the ledger; the layout (what the next round continues from) goes in the same
    transaction where the ledger keeps the layouts, else it is saved BEFORE settling — a crash
    leaves the round open (replayed and settled again, idempotently), never a settled round
    whose shoe position the table has forgotten. Returns the settlement's chain head."""
    if table.saver.in_ledger(table.ledger):
        data = table.layout()
        text = layout_mod.canonical(data)
        head = table.ledger.settle_round(
            record.round_id,
            result,
            pool_id=table.terms.pool_id,
            reveal_seed=reveal,
            layout=(table.id, data),
            events=events,
        )
        table.saver.saved(text)
        return head
    table.save()
    return table.ledger.settle_round(
        record.round_id, result, pool_id=table.terms.pool_id, reveal_seed=reveal, events=events
    )


def start(table: Table) -> list[Event] | None:
    """Deal the next round if the table can and return its first events (None: it waits for a
    seat change). Stands up short stacks first; a new deal unit begins when none runs, or when
    the running one cannot go on with these seats."""
    moved = moves.apply_at_boundary(table)  # an operator's move waits for no unit to run
    if moved is not None:
        table.save()
    seat_flows.stand_up_short_stacks(table)
    units = table.units
    if lobby.wait_detail(table) is not None:
        table.timers.next_start_at = None  # woken again by a seat change
        return None
    players = seat_flows.eligible(table)
    if not units.bound_seats() and (
        len(players) < table.game.min_players or not any(not s.bot for s in players)
    ):
        table.timers.next_start_at = None
        return None
    seats = [Seat(s.seat, table.money.stack(s.player or "")) for s in players]
    context = dict(units.carry_context)
    if "pool" in table.game.context_keys:
        context["pool"] = table.ledger.pool(table.terms.pool_id)
    # a seed that came before the next commitment was drawn skips its unit (`Table.seed_after`)
    skip = {p for p, c in table.seed_after.items() if c == units.next_commitment}
    client_seeds = units_mod.client_seeds(table.terms, table.client_seed_of, players, skip)
    new_unit = not units.running
    if new_unit:
        units.begin(client_seeds)
        table.seed_after.clear()  # each named the commitment just begun (or an older one)
    deal = table.game.round_type.start
    try:
        try:
            round_ = deal(table.config, seats, Rng(units.key()), context)
        except GameError:
            if new_unit:
                raise
            # the deal unit cannot go on with these seats (someone left): a fresh one
            table.end_unit()
            units.begin(client_seeds)
            context, new_unit = {}, True
            round_ = deal(table.config, seats, Rng(units.key()), context)
    except GameError as exc:
        table.timers.next_start_at = None  # wait for a seat change rather than retry
        for player in list(table.seating.connected):
            table.send(player, {"type": "error", "code": exc.code, "message": exc.message})
        return None
    table.number += 1
    tiles = units_mod.commit_tiles(table.game, units.key(), round_)
    record = opening_record(table, players, seats, context, tiles)
    holds = {p: stack for _, p, stack in record.seats}
    try:
        table.ledger.open_round(record, holds)
    except Exception as exc:
        table.number -= 1  # not opened: the table is as before (the unit stays begun)
        table.unit_unsaved = table.unit_unsaved or new_unit
        raise _retry_or(exc, "the round could not be opened") from exc
    table.money.held(holds)
    units.add_round(record.round_id)
    table.numbered = record.round_id
    table.round, table.record = round_, record
    table.tiles = tiles
    table.journal.new_round()
    table.timers.next_start_at = None
    table.timers.forget_phase()
    if new_unit or table.unit_unsaved:  # a new deal unit's commitment is kept at once
        table.save()
        table.unit_unsaved = False
    # Otherwise only the round counter and the unit's list of rounds changed: they are saved
    # when the round ends (one database write per round less); `recover` rebuilds both.
    started = Event("round_started", {"round_id": record.round_id, "number": table.number})
    return [started] if moved is None else [moved, started]


def _retry_or(exc: Exception, what: str) -> Exception:
    """`journal_first.retry_or_raise`, re-raising `exc` itself when it is not retried."""
    failure = journal_first.retry_or_raise(exc, what)
    if failure is exc:
        raise exc
    return failure


def finish(table: Table, events: list[Event]) -> None:
    """The running round is finished: settle it (what the next round continues from is saved
    with the settlement), show the result, end the deal unit if the game says so, stand up the
    seats that asked to leave. Raises if the settlement failed, with the table exactly as it
    was (the tick settles it again)."""
    round_, record = table.round, table.record
    assert round_ is not None and record is not None
    units, journal = table.units, table.journal
    result = round_.result()
    nets = seat_nets(result, record)
    nxt = round_.next_round()
    events = [*journal.finish_events, *events]
    kept = (
        units.carry_context,
        table.last_result,
        table.results,
        {k: dataclasses.replace(v) for k, v in table.seating.seats.items()},
        list(journal.pending),
    )
    # What the next round continues from is saved with the settlement (in its transaction
    # when the ledger keeps the layouts, else BEFORE settling): a crash leaves the round open
    # (so it is replayed and settled again, idempotently) and never a settled round whose
    # shoe position the table has forgotten (a repeated deal).
    units.carry_context = dict(nxt.context)
    unit_ends = not nxt.reuse_seed
    table.last_result = {"round_id": record.round_id, "number": record.number, "nets": nets}
    table.results = [*table.results, table.last_result][-30:]
    newly_away = seat_flows.note_silence(table, round_, record)
    reveal = table.game.reveal_seed and unit_ends
    events_left = journal.take_pending()
    ended_seed = units.carry_seed
    if unit_ends:
        units.carry_seed = None  # the layout saved with the settlement says so
    try:
        head = settle(table, record, result, reveal, events_left)
    except Exception as exc:  # not settled: the table is exactly as it was
        units.carry_seed = ended_seed
        units.carry_context, table.last_result, table.results = kept[:3]
        table.seating.seats.update(kept[3])
        journal.pending = kept[4]
        journal.finish_events = events
        raise _retry_or(exc, "the round could not be settled") from exc
    journal.finish_events = []
    if head is not None:  # the settlement's chain head, shown with the result (docs/ledger.md)
        table.last_result["chain_head"] = head
    table.money.settled(record, nets)
    seat_flows.announce_away(table, newly_away)
    if unit_ends:
        units.carry_seed = ended_seed
        table.end_unit()
    if table.tiles is not None:  # the game commits to its tiles: each seat's openings
        table.openings = units_mod.openings(table.tiles, round_)
        table.tiles = None
    table.last_round, table.last_record = round_, record
    table.round, table.record = None, None
    # set before the broadcast so the result message says when the next round starts, and
    # again after the stand-ups below (which may reschedule the table)
    next_start = table.clock.now() + table.timing.between_rounds
    table.timers.next_start_at = next_start
    table.broadcast(events, finished=True)
    table.timers.forget_phase()
    seat_flows.stand_up_leaving(table)
    table.timers.next_start_at = next_start
    table.save()


__all__ = ["finish", "opening_record", "seat_nets", "settle", "start"]
