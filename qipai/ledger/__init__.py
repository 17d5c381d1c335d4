"""Wallets, table stacks, holds, the double-entry journal and the round journal (SQLAlchemy Core;
SQLite by default, PostgreSQL by URL). Start at `qipai.ledger.api.Ledger`."""

from qipai.ledger.api import Ledger
from qipai.ledger.errors import (
    Fenced,
    HoldClosed,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    KeyMismatch,
    KeyMissing,
    LedgerError,
    LedgerKeyError,
    MissingReason,
    RoundStateError,
    UnbalancedTransaction,
    UnknownAccount,
    UnknownHold,
    UnknownRound,
)
from qipai.ledger.holds import Hold
from qipai.ledger.keys import Keys
from qipai.ledger.leases import Fence, Lease
from qipai.ledger.posting import Entry, TxResult

__all__ = [
    "Entry",
    "Fence",
    "Fenced",
    "Hold",
    "HoldClosed",
    "IdempotencyConflict",
    "InsufficientFunds",
    "InvalidAmount",
    "KeyMismatch",
    "KeyMissing",
    "Keys",
    "Lease",
    "Ledger",
    "LedgerError",
    "LedgerKeyError",
    "MissingReason",
    "RoundStateError",
    "TxResult",
    "UnbalancedTransaction",
    "UnknownAccount",
    "UnknownHold",
    "UnknownRound",
]
