"""Crash recovery: an open round found in the journal is rebuilt exactly as it was dealt and
played (same server seed, same client seeds, same actions in the same order). The table then
goes on from it (`resume`, called by `Table.recover`), or is suspended with the round voided
when it cannot be rebuilt. A round whose records fail their MACs (`OpenRound.broken`, checked
by the ledger as it reads them) is not rebuilt at all: the table is suspended with the round
left open, its holds in place, for an operator."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from qipai.core.protocol import Event, RecordedAction, Round, Seat
from qipai.fairness import meta_client_seeds
from qipai.tables import containment, play
from qipai.tables import units as units_mod
from qipai.tables.actions import JournalUnavailable
from qipai.tables.games import Game
from qipai.tables.layout import LEGACY
from qipai.tables.ports import OpenRound, RoundRecord
from qipai.tables.units import DealUnits

if TYPE_CHECKING:
    from qipai.tables.table import Table


def numbered(record: RoundRecord, number: int, numbered_id: str | None) -> RoundRecord:
    """The record with its round number: the journal does not keep the table's round counter,
    so a record numbered 0 is counted from the layout (`number` counts `numbered_id` last: the
    layout was saved once this round was counted, or before it started)."""
    if record.number != 0:
        return record
    counted = numbered_id in (LEGACY, record.round_id)
    return dataclasses.replace(record, number=number if counted else number + 1)


def rebuild(game: Game, units: DealUnits, open_round: OpenRound) -> Round[Any]:
    """Replay the open round from its journal; its deal unit is adopted as the running one.
    Raises whatever the replay raises (the caller suspends the table)."""
    record = open_round.record
    seats = [Seat(s, stack) for s, _, stack in record.seats]
    actions = [RecordedAction(e.seat, e.action) for e in open_round.entries]
    units.adopt(bytes.fromhex(record.seed_hex), meta_client_seeds(record.meta), record.round_id)
    config = game.config_type.from_json(record.config)
    return game.round_type.replay(config, seats, units.key(), actions, record.context)


def client_ids(open_round: OpenRound) -> list[tuple[str, str]]:
    """(client id, player) of the journaled entries, oldest first."""
    record = open_round.record
    return [
        (e.client_id, record.player_of(e.seat) if e.seat else "")
        for e in open_round.entries
        if e.client_id
    ]


def resume(table: Table, open_round: OpenRound) -> str:
    """Resume an open round from its journal, or suspend the table: "resumed", "settled" (the
    journal already held the last action), "voided" (it could not be rebuilt: the table is
    suspended, every stake returned) or "suspended" (rebuilt, but it could not go on)."""
    record = numbered(open_round.record, table.number, table.numbered)
    if open_round.broken is not None:
        # its records are not as the ledger wrote them: neither resumed nor settled nor voided
        # (each would act on altered records); the table waits for an operator, who sees why
        # (`qipai verify ROUND` names the record) and decides
        table.record, table.round = record, None
        containment.hold(
            table, f"round {record.round_id} fails its MACs: {open_round.broken}"[:300]
        )
        return "suspended"
    try:
        round_ = rebuild(table.game, table.units, open_round)
    except Exception as exc:  # cannot rebuild: the table is suspended, the round voided
        table.record, table.round = record, None
        why = f"round {record.round_id} could not be resumed: {type(exc).__name__}: {exc}"
        containment.suspend(table, why[:300])
        return "voided" if table.record is None else "suspended"
    table.round, table.record = round_, record
    table.tiles = units_mod.commit_tiles(table.game, table.units.key(), round_)  # from the key
    table.number = max(table.number, record.number)
    table.numbered = record.round_id
    table.journal.count = len(open_round.entries)
    for client_id, player in client_ids(open_round):
        table.journal.remember(client_id, player)
    table.timers.next_start_at = None
    table.timers.forget_phase()
    table.timers.deadline_at = None
    was_finished = round_.finished
    try:
        play.after_change(table, [Event("resumed", {"round_id": record.round_id})])
    except JournalUnavailable:  # the database is busy: the tick settles it later
        table.retry_later()
        return "resumed"
    except Exception as exc:  # e.g. its settlement fails: this table alone stops
        containment.fail(table, "recovery", exc)
        return "suspended"
    if table.round is not None:
        play.hold_for_return(table)
    return "settled" if was_finished else "resumed"


__all__ = ["client_ids", "numbered", "rebuild", "resume"]
