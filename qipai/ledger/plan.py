"""What one ledger operation writes, as data: the rows it appends, the balances it moves and the
checks that must hold — built first (from this process's cache or from reads inside the
transaction), then written by `execute` together with the plans of other operations that commit
at the same moment (group commit), in a handful of statements for all of them.

Order of the statements of one database transaction (the same for one plan or many):

1. fences: the lease rows of every fenced table, `FOR KEY SHARE` (`leases.check_fence`);
2. ONE guarded UPDATE of every account balance the plans move (rows locked in id order on
   PostgreSQL), returning the balances: a debit that would take a non-negative account below
   zero is refused (InsufficientFunds) — also part way through the batch;
3. the records are sealed into their chains (`chain.Sealer`: positions and MACs), now that the
   players' start balances are known;
4. one multi-row INSERT per table: rounds, round_players, transactions, entries (with
   `balance_after`), holds, hold_closures, round_ends, round_log, seed_reveals;
5. the chain heads, compare-and-set (`UPDATE … WHERE seq = <head the plan was built on>`): a
   writer that built its plan on a head someone else has moved since is refused (`StaleHead`)
   and retried from fresh reads; this also serializes every writer of one table's chain.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from qipai.ledger.errors import LedgerError


class StaleHead(LedgerError):
    """A chain moved since the plan was built (retried from reads; never reaches callers)."""


class CacheMiss(Exception):
    """The fast path lacks what the plan needs: build it from reads instead."""


@dataclass
class NewHold:
    source: str
    hold_account: str
    amount: int
    round_id: str | None
    seat: str | None
    purpose: str
    id: int | None = None


@dataclass
class NewClose:
    hold_id: int
    authorize_key: str
    """How the chain names the hold (`chain.hold_ref`)."""
    status: str  # captured | voided
    captured: int


@dataclass
class NewEnd:
    round_id: str
    status: str  # settled | voided
    result: Any
    accounts: Any
    reason: str | None
    closed_at: datetime


@dataclass
class NewTx:
    key: str
    kind: str
    body_hash: str
    round_id: str | None
    memo: str
    detail: Any
    created_at: datetime
    legs: dict[str, int]
    """Account name → signed amount (netted, non-zero)."""
    chain: str
    reverses_id: int | None = None
    reverses_key: str | None = None
    detail_value: Any = None
    """`detail` as a value (it is stored as canonical text)."""
    holds: list[NewHold] = field(default_factory=list)
    """The holds it opens: one (an authorization), one per seat (a round's stakes) or none."""
    closes: list[NewClose] = field(default_factory=list)
    end: NewEnd | None = None
    # filled in by `execute`
    id: int | None = None
    seq: int | None = None
    mac: str | None = None
    balances: dict[str, int] = field(default_factory=dict)
    """Account name → balance after this transaction's entry."""


@dataclass
class NewRound:
    id: str
    table_id: str
    game: str
    config: Any
    seats: Any
    context: Any
    meta: Any
    commitment: str
    seed: str
    """Sealed (`sealing.seal_seed`)."""
    opened_at: datetime
    players: list[tuple[str, str, str]]
    """(seat, user, stack account); start balances are read when it is written."""
    chain: str
    starts: dict[str, int] = field(default_factory=dict)
    seq: int | None = None
    mac: str | None = None


@dataclass
class NewLog:
    round_id: str
    n: int
    kind: str
    seat: str | None
    payload: Any
    visible_to: Any
    client_id: str | None
    created_at: datetime
    chain: str
    seq: int | None = None
    mac: str | None = None


@dataclass
class NewReveal:
    commitment: str
    seed: str
    revealed_at: datetime
    chain: str
    seq: int | None = None
    mac: str | None = None


Item = NewRound | NewTx | NewLog | NewReveal


@dataclass
class Plan:
    """One operation's writes. `result()` is the operation's return value once executed;
    `after` runs after the commit (cache updates)."""

    items: list[Item] = field(default_factory=list)
    fence: tuple[str, int] | None = None
    fence_table: str | None = None
    heads: dict[str, tuple[int, str]] = field(default_factory=dict)
    """Chain → the head (seq, mac) this plan was built on (chains it writes)."""
    new_chains: set[str] = field(default_factory=set)
    """Chains that had no head row when read (their first record is in this plan)."""
    done: Any = None
    """The result of an operation that writes nothing (an idempotent repeat)."""
    result: Callable[[], Any] = lambda: None
    after: Callable[[], None] = lambda: None
    extra: Callable[[Any], None] | None = None
    """Runs in the same database transaction after the plan's rows (the caller's `also`)."""

    @property
    def writes(self) -> bool:
        return bool(self.items) or self.extra is not None

    def chains(self) -> set[str]:
        return {item.chain for item in self.items}


__all__ = [
    "CacheMiss",
    "Item",
    "NewClose",
    "NewEnd",
    "NewHold",
    "NewLog",
    "NewReveal",
    "NewRound",
    "NewTx",
    "Plan",
    "StaleHead",
]
