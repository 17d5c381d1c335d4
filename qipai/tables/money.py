"""A table's money: its players' table stacks (cached), buy-ins, cash-outs and the house's bots.

Every message shows every stack, and the ledger changes a table's stacks only through this
table, so the stacks are cached and adjusted in place when a round opens (its holds) or settles
(its nets) instead of being read again. Bots play house money: they buy in from the house
bot bankroll and cash out back to it (nothing is minted for them).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping

from qipai.core.protocol import JSON
from qipai.tables.ports import InsufficientFunds, LedgerPort, RoundRecord


class TableMoney:
    def __init__(self, ledger: LedgerPort, table_id: str) -> None:
        self.ledger = ledger
        self.table_id = table_id
        self.cache: dict[str, int] = {}

    def stack(self, player: str) -> int:
        cached = self.cache.get(player)
        if cached is None:
            cached = self.cache[player] = self.ledger.stack(player, self.table_id)
        return cached

    def moved(self) -> None:
        """Something moved money outside the adjustments below: read stacks again."""
        self.cache.clear()

    def held(self, holds: Mapping[str, int]) -> None:
        """`open_round` moved each player's hold off their stack."""
        for player, amount in holds.items():
            if player in self.cache:
                self.cache[player] -= amount

    def settled(self, record: RoundRecord, nets: Mapping[str, int]) -> None:
        """`settle_round` released each player's hold and posted their net to their stack."""
        for seat, player, held in record.seats:
            if player in self.cache:
                self.cache[player] += held + nets.get(seat, 0)

    def buy_in(self, player: str, amount: int, key: str, layout: JSON | None = None) -> None:
        """Wallet -> table stack; InsufficientFunds if the wallet holds less. `layout`: saved
        in the same transaction (only for a ledger that keeps the layouts, `LayoutSaver`)."""
        try:
            if layout is None:
                self.ledger.buy_in(player, self.table_id, amount, key)
            else:
                self.ledger.buy_in(player, self.table_id, amount, key, layout=layout)  # type: ignore[call-arg]
        finally:
            self.cache.pop(player, None)  # only this stack moved

    def cash_out(self, player: str, bot: bool) -> int:
        """The whole table stack back to the wallet (a bot's to the house bot bankroll)."""
        key = f"cashout.{uuid.uuid4().hex}"
        try:
            if bot:
                return self.ledger.bot_cash_out(player, self.table_id, key)
            return self.ledger.cash_out(player, self.table_id, key)
        finally:
            self.cache.pop(player, None)  # only this stack moved

    def fund_bot(self, player: str, want: int, floor: int) -> None:
        """Top a bot's stack up to `want` from the house bot bankroll when below `floor`."""
        stack = self.stack(player)
        if stack >= floor or want <= stack:
            return
        # only this bot's stack moves, to exactly `want`: the others stay cached (on PostgreSQL
        # every stack read again was a database round trip on the table's thread)
        try:
            self.ledger.bot_buy_in(
                player, self.table_id, want - stack, f"botfund.{self.table_id}.{uuid.uuid4().hex}"
            )
        except BaseException:
            self.cache.pop(player, None)
            raise
        self.cache[player] = want


__all__ = ["InsufficientFunds", "TableMoney"]
