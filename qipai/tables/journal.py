"""A table's journal of the running round: every action, default on silence and bot move is
written durably BEFORE it is applied (`actions.py` makes it canonical and checks it), with the
events of the changes before it; the client ids already taken, so a repeat is acknowledged as a
duplicate and never applied again (docs/protocol.md)."""

from __future__ import annotations

import logging
from collections import OrderedDict

from qipai.core.protocol import JSON, Event
from qipai.tables.actions import JournalUnavailable
from qipai.tables.ports import JournalEntry, LeaseLost, LedgerPort

log = logging.getLogger("qipai.tables")


class Journal:
    """The running round's journal position, the events not yet journaled, and the client ids
    seen (the last `CLIENT_IDS_KEPT`)."""

    CLIENT_IDS_KEPT = 5000

    def __init__(self, ledger: LedgerPort, table_id: str) -> None:
        self.ledger = ledger
        self.table_id = table_id
        self.count = 0  # entries journaled for the running round
        self.pending: list[Event] = []  # events journaled with the next write
        self.finish_events: list[Event] = []  # heard once a finished round is settled
        # (player, client id) of the last actions: an id is one player's (per-player de-dup)
        self.client_ids: OrderedDict[tuple[str, str], None] = OrderedDict()

    def new_round(self) -> None:
        """A round opened: its journal starts empty."""
        self.count = 0
        self.pending = []

    def heard(self, events: list[Event]) -> None:
        """Events of a change just applied: they go with the next entry (or the settlement)."""
        self.pending += events

    def take_pending(self) -> tuple[Event, ...]:
        events, self.pending = tuple(self.pending), []
        return events

    def append(self, round_id: str, seat: str | None, action: JSON, client_id: str | None) -> None:
        """Journal one action durably BEFORE it is applied (with the events of the changes
        before it); JournalUnavailable if the write failed (nothing was journaled)."""
        entry = JournalEntry(
            seq=self.count + 1,
            seat=seat,
            action=action,
            client_id=client_id,
            events=tuple(self.pending),
        )
        try:
            self.ledger.append(round_id, entry)
        except LeaseLost:
            raise
        except Exception as exc:
            log.warning("table %s: journal write failed: %s", self.table_id, exc)
            raise JournalUnavailable(
                "the action could not be journaled and was not taken; try again"
            ) from exc
        self.count += 1
        self.pending = []

    # ----- client ids -------------------------------------------------------------------------
    def seen(self, client_id: str, player: str) -> bool:
        return (player, client_id) in self.client_ids

    def remember(self, client_id: str, player: str) -> None:
        self.client_ids[(player, client_id)] = None
        while len(self.client_ids) > self.CLIENT_IDS_KEPT:
            self.client_ids.popitem(last=False)

    def remember_all(self, items: list[tuple[str, str]]) -> None:
        """Client ids journaled before a restart (oldest first)."""
        for client_id, player in items:
            if (player, client_id) not in self.client_ids:
                self.remember(client_id, player)


__all__ = ["Journal"]
