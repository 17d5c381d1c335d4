"""Layouts fenced like the round journal: a table's layout is saved only under its lease.

The ledger fences every round write (journal, settlement) by the lease's epoch. A table's
layout (who sits where, the shoe position) is saved outside rounds too (a seat taken, a player
stood up); a former owner that was paused past its lease must not overwrite what the new owner
saved. `FencedLayouts` checks the lease epoch inside the same transaction as the save (the
ledger's `check_fence`, the lease row held `FOR KEY SHARE` until commit) and raises `LeaseLost`
otherwise. It is the room's table repo and the ledger adapter's `layouts` at once (the table
then saves its layout in the settlement's own transaction, already fenced).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from qipai.core.protocol import JSON
from qipai.ledger.errors import Fenced
from qipai.ledger.leases import check_fence
from qipai.server.store import RoomStore, room_tables
from qipai.tables.ledger_adapter import LedgerAdapter
from qipai.tables.ports import LeaseLost


class FencedLayouts:
    """The room's `TableRepo` over `store`, fenced by `adapter`'s leases."""

    def __init__(self, store: RoomStore) -> None:
        self.store = store
        self.adapter: LedgerAdapter | None = None
        self.on_fenced: Any = None
        """Called for every layout save refused (the lease was no longer this process's)."""

    def bind(self, adapter: LedgerAdapter) -> None:
        self.adapter = adapter

    def save_table(self, table_id: str, data: JSON) -> None:
        adapter = self.adapter
        fence = None if adapter is None else adapter._fence(table_id)
        try:
            with self.store.engine.begin() as conn:
                check_fence(conn, fence, table_id)
                self.store.save_table_in(conn, table_id, data)
        except Fenced as exc:
            if self.on_fenced is not None:
                self.on_fenced()
            raise LeaseLost(str(exc)) from exc

    def save_table_in(self, conn: Any, table_id: str, data: JSON) -> None:
        self.store.save_table_in(conn, table_id, data)

    def delete_table(self, table_id: str) -> None:
        self.store.delete_table(table_id)

    def load_tables(self) -> list[JSON]:
        return self.store.load_tables()

    def load_table(self, table_id: str) -> JSON | None:
        """One table's layout (a takeover reads only its own)."""
        with self.store.engine.connect() as conn:
            row = conn.execute(
                select(room_tables.c.data).where(room_tables.c.id == table_id)
            ).first()
        return None if row is None else dict(row[0])

    def load_tables_of(self, table_ids: Sequence[str]) -> dict[str, JSON]:
        """The layouts of many tables in one read (a takeover pass): table id -> layout; a
        table without one is missing."""
        if not table_ids:
            return {}
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(room_tables.c.id, room_tables.c.data).where(
                    room_tables.c.id.in_(sorted(set(table_ids)))
                )
            ).all()
        return {str(t): dict(d) for t, d in rows}


class HostAdapter(LedgerAdapter):
    """The ledger adapter of a table host: as `LedgerAdapter` (every round write, buy-in and
    cash-out fenced by the lease's epoch inside its own transaction), counting the writes the
    fence refused (`on_fenced`)."""

    on_fenced: Any = None

    def _refused(self) -> None:
        if self.on_fenced is not None:
            self.on_fenced()

    # buy-in and cash-out are fenced by the ledger adapter inside the transfer's transaction
    def buy_in(
        self, player: str, table_id: str, amount: int, key: str, layout: JSON | None = None
    ) -> None:
        try:
            super().buy_in(player, table_id, amount, key, layout)
        except LeaseLost:
            self._refused()
            raise

    def cash_out(self, player: str, table_id: str, key: str) -> int:
        try:
            return super().cash_out(player, table_id, key)
        except LeaseLost:
            self._refused()
            raise

    def bot_buy_in(self, bot: str, table_id: str, amount: int, key: str) -> None:
        try:
            super().bot_buy_in(bot, table_id, amount, key)
        except LeaseLost:
            self._refused()
            raise

    def bot_buy_ins(self, *args: Any, **kwargs: Any) -> None:
        try:
            super().bot_buy_ins(*args, **kwargs)
        except LeaseLost:
            self._refused()
            raise

    def bot_cash_out(self, bot: str, table_id: str, key: str) -> int:
        try:
            return super().bot_cash_out(bot, table_id, key)
        except LeaseLost:
            self._refused()
            raise

    def open_round(self, *args: Any, **kwargs: Any) -> None:
        try:
            super().open_round(*args, **kwargs)
        except LeaseLost:
            self._refused()
            raise

    def append(self, *args: Any, **kwargs: Any) -> None:
        try:
            super().append(*args, **kwargs)
        except LeaseLost:
            self._refused()
            raise

    def settle_round(self, *args: Any, **kwargs: Any) -> JSON | None:
        try:
            return super().settle_round(*args, **kwargs)
        except LeaseLost:
            self._refused()
            raise

    def reveal(self, commitment: str) -> None:
        try:
            super().reveal(commitment)
        except LeaseLost:
            self._refused()
            raise

    def void_round(self, *args: Any, **kwargs: Any) -> None:
        try:
            super().void_round(*args, **kwargs)
        except LeaseLost:
            self._refused()
            raise


__all__ = ["FencedLayouts", "HostAdapter"]
