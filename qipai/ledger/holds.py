"""Bet holds: an authorization moves money from a wallet or stack into its hold account (a `holds`
row, never changed); a capture, a void or the round's settlement closes the hold exactly once (a
`hold_closures` row: its primary key is the hold, so a second closure is refused by the
database). A hold's status is read from its closure; the writes live in `qipai.ledger.book`.

Pok Deng's position bet of `a` is one hold of `2a` (docs/rules/pokdeng.md#hold: "a position bet of a takes 2a
from the balance"); settlement of a round captures all of the round's open holds back into the
postings in the same database transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, select
from sqlalchemy.orm import aliased

from qipai.ledger.errors import UnknownHold
from qipai.ledger.schema import accounts, hold_closures, holds


@dataclass(frozen=True)
class Hold:
    """A reservation of money from `account` (held in `hold_account`) until captured or voided."""

    id: int
    account: str
    hold_account: str
    amount: int
    status: str
    round_id: str | None
    seat: str | None
    purpose: str
    authorize_tx: int
    close_tx: int | None
    captured: int | None
    created_at: datetime
    closed_at: datetime | None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "account": self.account,
            "amount": self.amount,
            "status": self.status,
            "round_id": self.round_id,
            "seat": self.seat,
            "purpose": self.purpose,
            "captured": self.captured,
        }


def _select() -> Any:
    src = aliased(accounts)
    dst = aliased(accounts)
    return (
        select(
            holds,
            src.c.name.label("account"),
            dst.c.name.label("hold_account"),
            hold_closures.c.status.label("closed_as"),
            hold_closures.c.tx_id.label("close_tx"),
            hold_closures.c.captured.label("captured"),
            hold_closures.c.closed_at.label("closed_at"),
        )
        .join(src, src.c.id == holds.c.source_account_id)
        .join(dst, dst.c.id == holds.c.hold_account_id)
        .outerjoin(hold_closures, hold_closures.c.hold_id == holds.c.id)
    )


_SELECT = _select()
_BY_ID = _SELECT.where(holds.c.id == bindparam("h_id"))
_BY_TX = _SELECT.where(holds.c.authorize_tx == bindparam("h_tx"))
_OF_ROUND = _SELECT.where(holds.c.round_id == bindparam("h_round")).order_by(holds.c.id)


def _hold(row: Any) -> Hold:
    return Hold(
        id=int(row["id"]),
        account=str(row["account"]),
        hold_account=str(row["hold_account"]),
        amount=int(row["amount"]),
        status="open" if row["closed_as"] is None else str(row["closed_as"]),
        round_id=row["round_id"],
        seat=row["seat"],
        purpose=str(row["purpose"]),
        authorize_tx=int(row["authorize_tx"]),
        close_tx=row["close_tx"],
        captured=row["captured"],
        created_at=row["created_at"],
        closed_at=row["closed_at"],
    )


def get(conn: Connection, hold_id: int) -> Hold:
    row = conn.execute(_BY_ID, {"h_id": hold_id}).mappings().first()
    if row is None:
        raise UnknownHold(f"no hold {hold_id}")
    return _hold(row)


def by_tx(conn: Connection, tx_id: int) -> Hold:
    row = conn.execute(_BY_TX, {"h_tx": tx_id}).mappings().one()
    return _hold(row)


def of_round(conn: Connection, round_id: str, *, status: str | None = None) -> list[Hold]:
    found = [_hold(r) for r in conn.execute(_OF_ROUND, {"h_round": round_id}).mappings()]
    return found if status is None else [h for h in found if h.status == status]
