"""Crash recovery: an open round found in the journal is rebuilt exactly as it was dealt and
played (same server seed, same client seeds, same actions in the same order). The table then
goes on from it (`Table.recover`), or is suspended with the round voided when it cannot be
rebuilt."""

from __future__ import annotations

import dataclasses
from typing import Any

from qipai.core.protocol import RecordedAction, Round, Seat
from qipai.fairness import meta_client_seeds
from qipai.tables.games import Game
from qipai.tables.layout import LEGACY
from qipai.tables.ports import OpenRound, RoundRecord
from qipai.tables.units import DealUnits


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


__all__ = ["client_ids", "numbered", "rebuild"]
