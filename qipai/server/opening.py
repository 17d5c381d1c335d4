"""Opening a new table with its bots in two database transactions instead of about a dozen
(docs/scaling.md "Seating"):

1. the table's lease is claimed and its bots are made ledger users, in one transaction;
2. every bot is bought in from the house bot bankroll and the table's layout (the bots in their
   seats) is saved, in ONE transaction (`LedgerAdapter.bot_buy_ins`).

If the second fails (the bankroll is short, the lease was lost, the database refused) nothing of
the table is left: no layout, no bot stack, and its lease is released; the table never entered
the room. Before, each bot was a user, a stack read, a buy-in and a layout save of its own, one
commit each, and a failure part way left a half-filled table.

Which seats the bots take: the seats a person sitting down first would have left them (the
first free seat stays for the person who asked for the table, docs/rules/common.md: bots fill
the free seats but one, so that another person can still join; all of them when the game needs
more players than that). A ledger without `bot_buy_ins`, or one that does not keep the room's
layouts in its own database (the tests' in-memory ones), opens the table and adds its bots one
by one, as before.
"""

from __future__ import annotations

import secrets
import uuid
from typing import TYPE_CHECKING, Any

from qipai.core.errors import InvalidInput
from qipai.tables import layout
from qipai.tables import seating as rules
from qipai.tables.errors import HostDraining
from qipai.tables.seat_flows import bot_state
from qipai.tables.terms import TableTerms

if TYPE_CHECKING:
    from qipai.server.room import Room
    from qipai.tables.table import Table


def bots_for(table: Table) -> int:
    """How many bots a new table takes before its first person sits (module docstring)."""
    if not table.terms.bot_policy:
        return 0
    seats = len(table.seating.seats)
    leave_one = seats - 2  # the person's seat and one for another person
    if leave_one + 1 >= table.game.min_players:
        return max(0, leave_one)
    return seats - 1


def open_with_bots(room: Room, terms: TableTerms, name: str = "") -> Table:
    """A new table of the room on `terms` with its bots seated and bought in (module
    docstring); its first free seat is left for the person who asked for it."""
    if not room.accepting:
        raise HostDraining("this table host is being drained; open the table elsewhere")
    table_id = secrets.token_hex(6)
    table = room.build(table_id, terms, name)
    count = bots_for(table)
    ledger: Any = room.ledger
    if count == 0 or not hasattr(ledger, "bot_buy_ins") or not table.saver.in_ledger(ledger):
        return _one_by_one(room, terms, name, count)
    level = rules.bot_level(table.game, terms, None)
    states = [bot_state(table, seat, level) for seat in table.seating.free_seats()[1 : 1 + count]]
    players = [str(s.player) for s in states]
    claim = getattr(ledger, "claim", None)
    room.opening.add(table_id)  # its lease is renewed from the claim on (the writes may wait)
    try:
        if claim is not None and not claim(table_id, room.lease_ttl_s, users=players):
            raise InvalidInput("the new table could not be claimed; try again")
        want, _floor = rules.bot_stack(table.game, terms)
        try:
            for state in states:
                table.seating.place(state)
            data = layout.build(table)
            ledger.bot_buy_ins(
                table_id, dict.fromkeys(players, want), uuid.uuid4().hex, layout=data
            )
        except BaseException:
            room.release_lease(table_id)
            raise
        table.money.cache.update(dict.fromkeys(players, want))
        table.saver.saved(layout.canonical(data))
        room.register(table)
    finally:
        room.opening.discard(table_id)
    room.start_runner(table)
    return table


def _one_by_one(room: Room, terms: TableTerms, name: str, count: int) -> Table:
    table = room.create_table(terms, name)
    free = table.seating.free_seats()
    for seat in free[1 : 1 + count]:
        table.add_bot(seat=seat)
    return table


__all__ = ["bots_for", "open_with_bots"]
