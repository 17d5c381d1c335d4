"""Double-entry basics shared by the ledger's writers and readers: entries and transaction
results, money checks (positive integer amounts, balanced legs), idempotency (a transaction's key
is unique in the database; a repeat with the same body returns the first result, a different
body is an `IdempotencyConflict`), account look-up and creation, and reading transactions back.

Balances change only in `qipai.ledger.execute`: ONE guarded UPDATE per database transaction for
every account it moves (`UPDATE … WHERE allow_negative OR balance + delta >= 0 RETURNING …`: an
account the guard refuses is missing from the returned rows, and the CHECK constraint backs the
guard up), rows locked in account-id order on PostgreSQL so that writers never deadlock (SQLite
runs one writer at a time), and one entry per account with the balance after.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, select
from sqlalchemy.dialects import postgresql, sqlite

from qipai.ledger import accounts as acct
from qipai.ledger.errors import (
    IdempotencyConflict,
    InvalidAmount,
    UnknownAccount,
)
from qipai.ledger.schema import accounts, entries, transactions, users, utcnow

FaultHook = Callable[[str], None]


def no_fault(point: str) -> None:
    """The default fault hook: tests replace it to fail a transaction at a named point."""


@dataclass(frozen=True)
class Entry:
    """One line of the journal: this account moved by `amount` and then held `balance_after`."""

    account: str
    amount: int
    balance_after: int

    def to_json(self) -> dict[str, Any]:
        return {"account": self.account, "amount": self.amount, "balance_after": self.balance_after}


@dataclass(frozen=True)
class TxResult:
    """A committed transaction. `replayed` is True when an idempotent repeat returned it."""

    tx_id: int
    key: str
    kind: str
    entries: tuple[Entry, ...]
    created_at: datetime
    memo: str = ""
    round_id: str | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)
    replayed: bool = False
    chain: str | None = None
    chain_seq: int | None = None
    mac: str | None = None
    """Where the transaction sits in its tamper-evident chain (`qipai.ledger.chain`): a
    settlement's `head` is what the table shows players after the round."""

    @property
    def head(self) -> dict[str, Any] | None:
        """{chain, seq, mac} of this transaction's record (the chain head right after it)."""
        if self.chain is None:
            return None
        return {"chain": self.chain, "seq": self.chain_seq, "mac": self.mac}

    def amount(self, account: str) -> int:
        """The net movement of one account in this transaction (0 when untouched)."""
        return sum(e.amount for e in self.entries if e.account == account)

    def balance_after(self, account: str) -> int | None:
        for e in self.entries:
            if e.account == account:
                return e.balance_after
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "tx_id": self.tx_id,
            "key": self.key,
            "kind": self.kind,
            "memo": self.memo,
            "round_id": self.round_id,
            "created_at": self.created_at.isoformat(),
            "entries": [e.to_json() for e in self.entries],
            "detail": dict(self.detail),
            "head": self.head,
        }


def positive(amount: int, what: str = "amount") -> int:
    """Money is a positive integer count of minor units here (never a float or a bool)."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise InvalidAmount(f"{what} must be a positive integer of minor units, got {amount!r}")
    return amount


def net_legs(legs: Iterable[tuple[str, int]]) -> dict[str, int]:
    """Sum legs per account and drop the accounts that net to zero."""
    out: dict[str, int] = {}
    for name, amount in legs:
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise InvalidAmount(f"amount for {name!r} must be an integer, got {amount!r}")
        out[name] = out.get(name, 0) + amount
    return {k: v for k, v in out.items() if v != 0}


_BODY = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=str).encode
"""`json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)`, its encoder built
once (`json.dumps` with options builds one per call)."""


def body_hash(body: Mapping[str, Any]) -> str:
    """A stable digest of a request body, to tell an idempotent repeat from a conflicting reuse."""
    text = _BODY(body)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _insert_ignore(conn: Connection, table: Any, values: Mapping[str, Any], key: str) -> None:
    if conn.dialect.name == "postgresql":
        conn.execute(
            postgresql.insert(table).values(**values).on_conflict_do_nothing(index_elements=[key])
        )
    else:
        conn.execute(
            sqlite.insert(table).values(**values).on_conflict_do_nothing(index_elements=[key])
        )


def ensure_user(conn: Connection, user_id: str, name: str | None = None) -> None:
    acct.check_id(user_id, "user")
    _insert_ignore(
        conn, users, {"id": user_id, "name": name or user_id, "created_at": utcnow()}, "id"
    )


_BY_NAMES = select(accounts.c.name, accounts.c.id, accounts.c.balance).where(
    accounts.c.name.in_(bindparam("names", expanding=True))
)
_TX_BY_KEY = select(transactions.c.id, transactions.c.body_hash).where(
    transactions.c.key == bindparam("key")
)
_KEYS_USED = select(transactions.c.key).where(
    transactions.c.key.in_(bindparam("keys", expanding=True))
)


def account_rows(conn: Connection, names: Iterable[str]) -> dict[str, tuple[int, int]]:
    """name → (id, balance) for these accounts, creating the missing ones (balance 0) when their
    names are well formed. Accounts owned by a user need the user: `stack:nobody:t1` is refused."""
    wanted = sorted(set(names))
    specs = {name: acct.parse(name) for name in wanted}
    found = {str(n): (int(i), int(b)) for n, i, b in conn.execute(_BY_NAMES, {"names": wanted})}
    missing = [name for name in wanted if name not in found]
    if not missing:
        return found
    owners = sorted({o for name in missing if (o := specs[name].owner) is not None})
    if owners:
        known = set(conn.execute(select(users.c.id).where(users.c.id.in_(owners))).scalars())
        for name in missing:
            owner = specs[name].owner
            if owner is not None and owner not in known:
                raise UnknownAccount(f"no user {owner!r} for account {name!r}")
    now = utcnow()
    for name in missing:
        spec = specs[name]
        _insert_ignore(
            conn,
            accounts,
            {
                "name": name,
                "kind": spec.kind,
                "owner": spec.owner,
                "table_id": spec.table_id,
                "allow_negative": spec.allow_negative,
                "balance": 0,
                "created_at": now,
            },
            "name",
        )
    found.update(
        {str(n): (int(i), int(b)) for n, i, b in conn.execute(_BY_NAMES, {"names": missing})}
    )
    return found


def ensure_account(conn: Connection, name: str) -> tuple[int, acct.AccountSpec]:
    """The id of an account, creating it (balance 0) when its name is well formed."""
    return account_rows(conn, [name])[name][0], acct.parse(name)


def account_id(conn: Connection, name: str) -> int | None:
    row = conn.execute(select(accounts.c.id).where(accounts.c.name == name)).first()
    return None if row is None else int(row[0])


def balance_of(conn: Connection, name: str) -> int:
    """An account's balance; 0 for a well-formed account that has never been used."""
    row = conn.execute(select(accounts.c.balance).where(accounts.c.name == name)).first()
    if row is None:
        acct.parse(name)
        return 0
    return int(row[0])


def load_tx(conn: Connection, tx_id: int, *, replayed: bool = False) -> TxResult:
    """A committed transaction; LookupError if there is none with this id."""
    tx = conn.execute(select(transactions).where(transactions.c.id == tx_id)).mappings().first()
    if tx is None:
        raise LookupError(f"no transaction {tx_id}")
    rows = conn.execute(
        select(accounts.c.name, entries.c.amount, entries.c.balance_after)
        .join(accounts, accounts.c.id == entries.c.account_id)
        .where(entries.c.tx_id == tx_id)
        .order_by(entries.c.id)
    ).all()
    return TxResult(
        tx_id=int(tx["id"]),
        key=str(tx["key"]),
        kind=str(tx["kind"]),
        entries=tuple(Entry(str(r[0]), int(r[1]), int(r[2])) for r in rows),
        created_at=tx["created_at"],
        memo=str(tx["memo"]),
        round_id=tx["round_id"],
        detail=dict(tx["detail"] or {}),
        replayed=replayed,
        chain=tx["chain"],
        chain_seq=tx["chain_seq"],
        mac=tx["mac"],
    )


def any_key_used(conn: Connection, keys: Iterable[str]) -> bool:
    """Whether any of these idempotency keys already has a transaction (one SELECT for many)."""
    return conn.execute(_KEYS_USED, {"keys": sorted(set(keys))}).first() is not None


def find_tx(conn: Connection, key: str, body: Mapping[str, Any]) -> TxResult | None:
    """The earlier transaction with this key, if any; IdempotencyConflict if its body differs."""
    row = conn.execute(_TX_BY_KEY, {"key": key}).first()
    if row is None:
        return None
    if row[1] != body_hash(body):
        raise IdempotencyConflict(f"idempotency key {key!r} was already used for another request")
    return load_tx(conn, int(row[0]), replayed=True)
