"""`LedgerPort` over the real ledger (`qipai.ledger.api.Ledger`): SQLite or PostgreSQL."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from sqlalchemy import Connection

from qipai.core.protocol import JSON, Event, RecordedAction, RoundResult, Seat
from qipai.ledger import InsufficientFunds as LedgerFunds
from qipai.ledger import Ledger, UnknownRound
from qipai.ledger.accounts import HOUSE
from qipai.ledger.accounts import stack as stack_account
from qipai.ledger.errors import RoundStateError
from qipai.tables.ports import (
    InsufficientFunds,
    JournalEntry,
    OpenRound,
    RoundRecord,
    TableRepo,
)


class LayoutStore(TableRepo, Protocol):
    """A `TableRepo` in the ledger's database that can also write a layout inside a ledger
    transaction (the server's `RoomStore`)."""

    def save_table_in(self, conn: Connection, table_id: str, data: JSON) -> None: ...


class LedgerAdapter:
    """Maps the table runtime's narrow needs onto the ledger's facade, one call each.

    With `layouts` (the table repo in the same database), a table's layout is saved in the
    settlement's own transaction (one commit per round less, and never one without the other)."""

    def __init__(self, ledger: Ledger, layouts: LayoutStore | None = None) -> None:
        self.ledger = ledger
        self.layouts = layouts
        self._users: set[str] = set()

    def ensure_user(self, player: str, name: str | None = None) -> None:
        if player not in self._users:
            self.ledger.create_user(player, name)
            self._users.add(player)

    def wallet(self, player: str) -> int:
        return self.ledger.wallet(player)

    def deposit(self, player: str, amount: int, key: str) -> None:
        self.ensure_user(player)
        self.ledger.deposit(player, amount, key)

    def stack(self, player: str, table_id: str) -> int:
        return self.ledger.stack(player, table_id)

    def buy_in(self, player: str, table_id: str, amount: int, key: str) -> None:
        self.ensure_user(player)
        try:
            self.ledger.buy_in(player, table_id, amount, key)
        except LedgerFunds as exc:
            raise InsufficientFunds(str(exc)) from None

    def cash_out(self, player: str, table_id: str, key: str) -> int:
        before = self.ledger.stack(player, table_id)
        self.ledger.cash_out(player, table_id, key)
        return before - self.ledger.stack(player, table_id)

    def pool(self, pool_id: str) -> int:
        return self.ledger.pool(pool_id)

    def open_round(self, record: RoundRecord, holds: Mapping[str, int]) -> None:
        seat_of = {player: seat for seat, player, _ in record.seats}
        self.ledger.open_round(
            table_id=record.table_id,
            game=record.game,
            config=record.config,
            seats=[Seat(seat, stack) for seat, _, stack in record.seats],
            players={seat: player for seat, player, _ in record.seats},
            seed=bytes.fromhex(record.seed_hex),
            context=record.context,
            round_id=record.round_id,
            holds={seat_of[p]: amount for p, amount in holds.items() if amount > 0},
        )

    def append(self, round_id: str, *entries: JournalEntry) -> None:
        self.ledger.append_groups(
            round_id,
            [([*e.events, RecordedAction(e.seat, e.action)], e.client_id) for e in entries],
        )

    def settle_round(
        self,
        round_id: str,
        result: RoundResult,
        *,
        pool_id: str,
        reveal_seed: bool,
        layout: tuple[str, JSON] | None = None,
        events: Sequence[Event] = (),
    ) -> None:
        if events:
            # TODO(B): journal these in the settlement's own transaction once `settle_round`
            # takes them; the journal refuses appends to a settled round.
            with contextlib.suppress(RoundStateError):  # settled already: its log is complete
                self.ledger.append_groups(round_id, [(list(events), None)])
        also = None
        if layout is not None:
            if self.layouts is None:
                raise ValueError("this ledger adapter keeps no table layouts")
            layouts, (table_id, data) = self.layouts, layout

            def also(conn: Connection) -> None:
                layouts.save_table_in(conn, table_id, data)

        self.ledger.settle_round(
            round_id, result, jackpot_pool=pool_id, reveal_seed=reveal_seed, also=also
        )

    def pay_interrupted(
        self, round_id: str, table_id: str, player: str, amount: int, reason: str
    ) -> None:
        self.ledger.transfer(
            {HOUSE: -amount, stack_account(player, table_id): amount},
            key=f"interrupted:{round_id}:{player}",
            kind="interrupted_game",
            memo=f"interrupted game: {reason}"[:200],
            round_id=round_id,
        )

    def reveal(self, commitment: str) -> None:
        self.ledger.reveal_seed(commitment)

    def void_round(self, round_id: str, reason: str) -> None:
        self.ledger.void_round(round_id, reason)

    def open_rounds(self) -> list[OpenRound]:
        return [self._open_round(info) for info in self.ledger.open_rounds()]

    @staticmethod
    def _open_round(info: Mapping[str, Any]) -> OpenRound:
        players = {p["seat"]: p["user_id"] for p in info["players"]}
        record = RoundRecord(
            round_id=str(info["round_id"]),
            table_id=str(info["table_id"]),
            game=str(info["game"]),
            config=dict(info["config"]),
            seats=tuple(
                (str(s["id"]), str(players.get(s["id"], "")), int(s.get("stack", 0)))
                for s in info["seats"]
            ),
            seed_hex=str(info["seed"]),
            commitment=str(info["seed_commitment"]),
            context=dict(info["context"] or {}),
        )
        entries: list[JournalEntry] = []
        for item in info["log"]:
            if item["kind"] == "action":
                entries.append(
                    JournalEntry(
                        seq=len(entries) + 1,
                        seat=item["seat"],
                        action=dict(item["payload"]),
                        client_id=item["client_id"],
                    )
                )
        return OpenRound(record, tuple(entries))

    def round_info(self, round_id: str) -> JSON | None:
        try:
            return self.ledger.round(round_id)
        except UnknownRound:
            return None
