"""Typed ledger errors: every refusal names its cause and leaves the database unchanged."""

from __future__ import annotations


class LedgerError(Exception):
    """Base of every ledger refusal; the database is left exactly as it was."""

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else type(self).__name__


class InsufficientFunds(LedgerError):
    """A debit would take a non-negative account (wallet, stack, hold, pool) below zero."""


class UnknownAccount(LedgerError):
    """The account does not exist (and its name is not one the ledger creates on demand)."""


class UnbalancedTransaction(LedgerError):
    """A transaction's postings do not sum to zero, or it has no postings."""


class IdempotencyConflict(LedgerError):
    """The idempotency key was already used for a different request body."""


class HoldClosed(LedgerError):
    """The hold was already captured or voided (a hold closes exactly once)."""


class UnknownHold(LedgerError):
    """No hold has this id."""


class RoundStateError(LedgerError):
    """The round is not in a state that allows this (e.g. appending to a settled round)."""


class UnknownRound(LedgerError):
    """No round has this id."""


class InvalidAmount(LedgerError):
    """An amount is not a positive integer number of minor units."""


class Fenced(LedgerError):
    """The writer's table lease epoch is stale: another host claimed the table since (fencing)."""


class LedgerKeyError(LedgerError):
    """The ledger's key (MAC and seed key, kept outside the database) is unusable."""


class KeyMissing(LedgerKeyError):
    """No key where one must be (the database was written with a key that cannot be found)."""


class KeyMismatch(LedgerKeyError):
    """The key given is not the key the database was written with."""


class MissingReason(LedgerError):
    """An operator correction (adjustment, reversal) without the reason it must carry."""
