"""Bet holds: authorize moves money from a wallet or stack into its hold account; capture or void
closes the hold exactly once (a guarded `UPDATE … WHERE status = 'open'`).

Pok Deng's position bet of `a` is one hold of `2a` (RULES.md §1: "a position bet of a takes 2a
from the balance"); settlement of a round captures all of the round's open holds back into the
postings in the same database transaction (`journal.settle`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, bindparam, select
from sqlalchemy.orm import aliased

from qipai.ledger import accounts as acct
from qipai.ledger.errors import HoldClosed, IdempotencyConflict, UnknownHold
from qipai.ledger.posting import (
    FaultHook,
    TxResult,
    apply_deltas,
    body_hash,
    find_tx,
    no_fault,
    positive,
    post,
)
from qipai.ledger.schema import accounts, entries, holds, transactions, utcnow


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
        select(holds, src.c.name.label("account"), dst.c.name.label("hold_account"))
        .join(src, src.c.id == holds.c.source_account_id)
        .join(dst, dst.c.id == holds.c.hold_account_id)
    )


# Statements built once: building (and cache-keying) them per call cost more than running them.
_SELECT = _select()
_BY_ID = _SELECT.where(holds.c.id == bindparam("h_id"))
_BY_ID_LOCKED = _BY_ID.with_for_update(of=holds)
_BY_TX = _SELECT.where(holds.c.authorize_tx == bindparam("h_tx"))
_OF_ROUND = _SELECT.where(holds.c.round_id == bindparam("h_round"))
_OF_ROUND_STATUS = _OF_ROUND.where(holds.c.status == bindparam("h_status"))
# (by status?, locked?) → the round's holds in id order
_OF_ROUND_QUERIES = {
    (False, False): _OF_ROUND.order_by(holds.c.id),
    (False, True): _OF_ROUND.with_for_update(of=holds).order_by(holds.c.id),
    (True, False): _OF_ROUND_STATUS.order_by(holds.c.id),
    (True, True): _OF_ROUND_STATUS.with_for_update(of=holds).order_by(holds.c.id),
}
_INSERT_HOLD = holds.insert().returning(holds.c.id)
_INSERT_HOLDS = holds.insert().returning(holds.c.id, sort_by_parameter_order=True)
_INSERT_TXS = transactions.insert().returning(transactions.c.id, sort_by_parameter_order=True)
_INSERT_ENTRIES = entries.insert()


def _close_all_statement(captured: Any) -> Any:
    return (
        holds.update()
        .where(
            and_(
                holds.c.id.in_(bindparam("h_ids", expanding=True)),
                holds.c.status == "open",
            )
        )
        .values(
            status=bindparam("h_status", type_=holds.c.status.type),
            captured=captured,
            close_tx=bindparam("h_tx", type_=holds.c.close_tx.type),
            closed_at=bindparam("h_at", type_=holds.c.closed_at.type),
        )
    )


# capture = the whole hold goes into the settlement; anything else (void) captures nothing
_CLOSE_ALL_CAPTURED = _close_all_statement(holds.c.amount)
_CLOSE_ALL_RELEASED = _close_all_statement(0)


def _hold(row: Any) -> Hold:
    return Hold(
        id=int(row["id"]),
        account=str(row["account"]),
        hold_account=str(row["hold_account"]),
        amount=int(row["amount"]),
        status=str(row["status"]),
        round_id=row["round_id"],
        seat=row["seat"],
        purpose=str(row["purpose"]),
        authorize_tx=int(row["authorize_tx"]),
        close_tx=row["close_tx"],
        captured=row["captured"],
        created_at=row["created_at"],
        closed_at=row["closed_at"],
    )


def get(conn: Connection, hold_id: int, *, lock: bool = False) -> Hold:
    query = _BY_ID_LOCKED if lock else _BY_ID
    row = conn.execute(query, {"h_id": hold_id}).mappings().first()
    if row is None:
        raise UnknownHold(f"no hold {hold_id}")
    return _hold(row)


def by_tx(conn: Connection, tx_id: int) -> Hold:
    row = conn.execute(_BY_TX, {"h_tx": tx_id}).mappings().one()
    return _hold(row)


def of_round(
    conn: Connection, round_id: str, *, status: str | None = None, lock: bool = False
) -> list[Hold]:
    query = _OF_ROUND_QUERIES[(status is not None, lock)]
    params: dict[str, Any] = {"h_round": round_id}
    if status is not None:
        params["h_status"] = status
    return [_hold(r) for r in conn.execute(query, params).mappings()]


def _authorize_body(
    account: str, amount: int, round_id: str | None, seat: str | None, purpose: str
) -> dict[str, object]:
    """What an authorize request is, for its idempotency key's body hash (one shape for the
    single and the batched path, so a retried request matches either)."""
    return {
        "op": "authorize",
        "account": account,
        "amount": amount,
        "round_id": round_id,
        "seat": seat,
        "purpose": purpose,
    }


def authorize(
    conn: Connection,
    *,
    account: str,
    amount: int,
    key: str,
    round_id: str | None,
    seat: str | None,
    purpose: str,
    fault: FaultHook = no_fault,
    checked: bool = False,
    known: Mapping[str, tuple[int, int]] | None = None,
) -> Hold:
    """Move `amount` from `account` into its hold account. `checked=True`: the caller already
    found in this database transaction that `key` is unused; `known`: accounts it already read."""
    positive(amount)
    hold_name = acct.hold_account(account)
    body = _authorize_body(account, amount, round_id, seat, purpose)
    earlier = None if checked else find_tx(conn, key, body)
    if earlier is not None:
        return by_tx(conn, earlier.tx_id)
    ids: dict[str, int] = {}
    tx = post(
        conn,
        key=key,
        kind="hold",
        legs={account: -amount, hold_name: amount},
        body=body,
        memo=f"hold {purpose}",
        round_id=round_id,
        detail={"seat": seat, "purpose": purpose},
        fault=fault,
        checked=True,
        ids_out=ids,
        known=known,
    )
    hold_id = conn.execute(
        _INSERT_HOLD,
        {
            "source_account_id": ids[account],
            "hold_account_id": ids[hold_name],
            "amount": amount,
            "status": "open",
            "round_id": round_id,
            "seat": seat,
            "purpose": purpose,
            "authorize_tx": tx.tx_id,
            "created_at": tx.created_at,
        },
    ).scalar_one()
    return Hold(
        id=int(hold_id),
        account=account,
        hold_account=hold_name,
        amount=amount,
        status="open",
        round_id=round_id,
        seat=seat,
        purpose=purpose,
        authorize_tx=tx.tx_id,
        close_tx=None,
        captured=None,
        created_at=tx.created_at,
        closed_at=None,
    )


def authorize_many(
    conn: Connection,
    requests: list[tuple[str, int, str, str | None, str | None, str]],
    *,
    known: Mapping[str, tuple[int, int]],
    fault: FaultHook = no_fault,
) -> list[Hold]:
    """Several `authorize`s at once, each still its own ledger transaction (row, entries and
    hold), written in four statements for all of them instead of five each.

    `requests` are (account, amount, key, round_id, seat, purpose) over distinct accounts, whose
    keys the caller found unused in this database transaction; `known` holds every account and
    its hold account (`posting.account_rows`). The same checks as `authorize`: positive
    amounts, the guarded non-negative debit (InsufficientFunds), balanced legs."""
    sources = [r[0] for r in requests]
    if len(set(sources)) != len(sources):
        raise ValueError("authorize_many needs distinct accounts (use authorize for repeats)")
    now = utcnow()
    tx_rows = []
    deltas: dict[int, int] = {}
    names: dict[int, str] = {}
    for account, amount, key, round_id, seat, purpose in requests:
        positive(amount)
        hold_name = acct.hold_account(account)
        body = _authorize_body(account, amount, round_id, seat, purpose)
        tx_rows.append(
            {
                "key": key,
                "kind": "hold",
                "body_hash": body_hash(body),
                "round_id": round_id,
                "reverses": None,
                "memo": f"hold {purpose}",
                "detail": {"seat": seat, "purpose": purpose},
                "created_at": now,
            }
        )
        src, dst = known[account][0], known[hold_name][0]
        deltas[src] = deltas.get(src, 0) - amount
        deltas[dst] = deltas.get(dst, 0) + amount
        names[src], names[dst] = account, hold_name
    if not requests:
        return []
    tx_ids = [int(r[0]) for r in conn.execute(_INSERT_TXS, tx_rows)]
    fault("after_tx_insert")
    after = apply_deltas(conn, deltas, names)
    fault("after_first_update")
    entry_rows = []
    hold_rows = []
    for (account, amount, _, round_id, seat, purpose), tx_id in zip(requests, tx_ids, strict=True):
        src, dst = known[account][0], known[acct.hold_account(account)][0]
        # sorted by account id, as `post` writes them
        for aid, moved in sorted(((src, -amount), (dst, amount))):
            entry_rows.append(
                {
                    "tx_id": tx_id,
                    "account_id": aid,
                    "amount": moved,
                    "balance_after": after[aid],
                    "created_at": now,
                }
            )
        hold_rows.append(
            {
                "source_account_id": src,
                "hold_account_id": dst,
                "amount": amount,
                "status": "open",
                "round_id": round_id,
                "seat": seat,
                "purpose": purpose,
                "authorize_tx": tx_id,
                "created_at": now,
            }
        )
    conn.execute(_INSERT_ENTRIES, entry_rows)
    hold_ids = [int(r[0]) for r in conn.execute(_INSERT_HOLDS, hold_rows)]
    fault("before_commit")
    return [
        Hold(
            id=hold_id,
            account=account,
            hold_account=acct.hold_account(account),
            amount=amount,
            status="open",
            round_id=round_id,
            seat=seat,
            purpose=purpose,
            authorize_tx=tx_id,
            close_tx=None,
            captured=None,
            created_at=now,
            closed_at=None,
        )
        for (account, amount, _, round_id, seat, purpose), tx_id, hold_id in zip(
            requests, tx_ids, hold_ids, strict=True
        )
    ]


def close(conn: Connection, hold: Hold, *, status: str, captured: int, tx_id: int) -> None:
    """Mark an open hold captured or voided; HoldClosed if someone closed it first."""
    done = conn.execute(
        holds.update()
        .where(and_(holds.c.id == hold.id, holds.c.status == "open"))
        .values(status=status, captured=captured, close_tx=tx_id, closed_at=utcnow())
    )
    if done.rowcount != 1:
        raise HoldClosed(f"hold {hold.id} is already closed")


def close_all(conn: Connection, found: list[Hold], *, status: str, tx_id: int) -> None:
    """Close every hold of a round in one statement (capture = the whole hold goes into the
    settlement); HoldClosed if any of them was closed concurrently."""
    if not found:
        return
    done = conn.execute(
        _CLOSE_ALL_CAPTURED if status == "captured" else _CLOSE_ALL_RELEASED,
        {"h_ids": [h.id for h in found], "h_status": status, "h_tx": tx_id, "h_at": utcnow()},
    )
    if done.rowcount != len(found):
        raise HoldClosed("a hold of this round was closed concurrently")


def _earlier(conn: Connection, hold_id: int, key: str, body: dict[str, Any]) -> TxResult | None:
    """An idempotent repeat of this close; a different close of a closed hold is HoldClosed."""
    try:
        return find_tx(conn, key, body)
    except IdempotencyConflict:
        hold = get(conn, hold_id)
        if hold.status != "open":
            raise HoldClosed(f"hold {hold_id} is already {hold.status}") from None
        raise


def capture(
    conn: Connection,
    *,
    hold_id: int,
    amount: int,
    to_account: str,
    key: str,
    fault: FaultHook = no_fault,
) -> TxResult:
    """Take `amount` (0 ≤ amount ≤ held) of a hold to `to_account`; the rest returns to its source."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        positive(amount)
    body = {"op": "capture", "hold": hold_id, "amount": amount, "to": to_account}
    earlier = _earlier(conn, hold_id, key, body)
    if earlier is not None:
        return earlier
    hold = get(conn, hold_id, lock=True)
    if hold.status != "open":
        raise HoldClosed(f"hold {hold_id} is already {hold.status}")
    if amount > hold.amount:
        raise HoldClosed(f"cannot capture {amount} from hold {hold_id} of {hold.amount}")
    legs = {hold.hold_account: -hold.amount}
    legs[to_account] = legs.get(to_account, 0) + amount
    legs[hold.account] = legs.get(hold.account, 0) + hold.amount - amount
    tx = post(
        conn,
        key=key,
        kind="capture",
        legs=legs,
        body=body,
        memo=f"capture hold {hold_id}",
        round_id=hold.round_id,
        detail={"hold": hold_id},
        fault=fault,
        checked=True,
    )
    close(conn, hold, status="captured", captured=amount, tx_id=tx.tx_id)
    return tx


def void(conn: Connection, *, hold_id: int, key: str, fault: FaultHook = no_fault) -> TxResult:
    """Return all of a hold to its source."""
    body = {"op": "void", "hold": hold_id}
    earlier = _earlier(conn, hold_id, key, body)
    if earlier is not None:
        return earlier
    hold = get(conn, hold_id, lock=True)
    if hold.status != "open":
        raise HoldClosed(f"hold {hold_id} is already {hold.status}")
    tx = post(
        conn,
        key=key,
        kind="void",
        legs={hold.hold_account: -hold.amount, hold.account: hold.amount},
        body=body,
        memo=f"void hold {hold_id}",
        round_id=hold.round_id,
        detail={"hold": hold_id},
        fault=fault,
        checked=True,
    )
    close(conn, hold, status="voided", captured=0, tx_id=tx.tx_id)
    return tx
