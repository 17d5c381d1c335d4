"""A round's two ledger writes as the table makes them: its opening record (who plays with what,
the deal unit's seed and commitment, what it continues from, how it was dealt) and its
settlement (with the table's layout in the same transaction where the ledger keeps layouts,
else the layout saved just before), and the seats' nets the result message shows."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from qipai.core.protocol import JSON, Event, RoundResult, Seat
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
        round_id=uuid.uuid4().hex,
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
        data, text = table._layout()
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
    table._save()
    return table.ledger.settle_round(
        record.round_id, result, pool_id=table.terms.pool_id, reveal_seed=reveal, events=events
    )


__all__ = ["opening_record", "seat_nets", "settle"]
