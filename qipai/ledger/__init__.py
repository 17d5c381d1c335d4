"""Wallets, table stacks, holds, the double-entry journal and the round journal (SQLAlchemy Core;
SQLite by default, PostgreSQL by URL). Start at `qipai.ledger.api.Ledger`."""

from qipai.ledger.api import Ledger
from qipai.ledger.errors import (
    HoldClosed,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    LedgerError,
    RoundStateError,
    UnbalancedTransaction,
    UnknownAccount,
    UnknownHold,
    UnknownRound,
)
from qipai.ledger.holds import Hold
from qipai.ledger.posting import Entry, TxResult

__all__ = [
    "Entry",
    "Hold",
    "HoldClosed",
    "IdempotencyConflict",
    "InsufficientFunds",
    "InvalidAmount",
    "Ledger",
    "LedgerError",
    "RoundStateError",
    "TxResult",
    "UnbalancedTransaction",
    "UnknownAccount",
    "UnknownHold",
    "UnknownRound",
]
