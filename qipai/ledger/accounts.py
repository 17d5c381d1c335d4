"""Account names and kinds: one naming scheme for wallets, table stacks, holds and house accounts.

Names are the ledger's public handles: `wallet:<user>`, `stack:<user>:<table>`,
`hold:<source account>`, `house`, `commission`, `rounding`, `jackpot:<pool>` and `external` (the
outside world: deposits come from it, withdrawals go to it), and two house accounts that fund what
the house puts at risk: `house-bots` (the bot bankroll: bots buy in from it and cash out to it, so
the house's result from bot play is its balance plus what bots hold at tables) and `house-jackpot`
(seeds and tops up the jackpot pools). A round's house, commission and rounding postings land on
the table's own `house:<table>`, `commission:<table>` and `rounding:<table>` (no account shared by
every table: each settles without waiting for another's row lock); `Ledger.balance("house")` and
the audit sum the table accounts with the plain one. Only the house accounts and `external` may
go negative; every player account and every jackpot pool is kept non-negative by the database.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from qipai.ledger.errors import UnknownAccount

EXTERNAL = "external"
HOUSE = "house"
COMMISSION = "commission"
ROUNDING = "rounding"
BOTS = "house-bots"
JACKPOT_FUND = "house-jackpot"
JACKPOT_PREFIX = "jackpot:"

_ID = re.compile(r"^[A-Za-z0-9_.@\-]{1,64}$")

# Kinds whose balance may go below zero: the operator's result and the outside world.
NEGATIVE_OK = frozenset({"house", "external"})


@dataclass(frozen=True)
class AccountSpec:
    """What the ledger knows from an account's name alone."""

    name: str
    kind: str
    owner: str | None = None
    table_id: str | None = None

    @property
    def allow_negative(self) -> bool:
        return self.kind in NEGATIVE_OK


def valid_id(value: object) -> bool:
    """1–64 of letters, digits, `_ . @ -`: user, table, pool and round ids."""
    return isinstance(value, str) and _ID.match(value) is not None


def check_id(value: str, what: str) -> str:
    """User, table and pool ids: 1–64 of letters, digits, `_ . @ -` (no `:`, the name separator)."""
    if not isinstance(value, str) or not _ID.match(value):
        raise UnknownAccount(f"invalid {what} id {value!r}: use 1-64 letters, digits, _ . @ -")
    return value


@functools.lru_cache(maxsize=65_536)
def wallet(user_id: str) -> str:
    return f"wallet:{check_id(user_id, 'user')}"


@functools.lru_cache(maxsize=65_536)
def stack(user_id: str, table_id: str) -> str:
    return f"stack:{check_id(user_id, 'user')}:{check_id(table_id, 'table')}"


SPLIT = (HOUSE, COMMISSION, ROUNDING)
"""House-side accounts kept per table (`house:<table>` …) and summed in reports."""


@functools.lru_cache(maxsize=65_536)
def per_table(kind: str, table_id: str) -> str:
    """The table's own house, commission or rounding account."""
    if kind not in SPLIT:
        raise UnknownAccount(f"{kind!r} is not kept per table")
    return f"{kind}:{check_id(table_id, 'table')}"


@functools.lru_cache(maxsize=65_536)
def jackpot(pool: str) -> str:
    return f"{JACKPOT_PREFIX}{check_id(pool, 'pool')}"


@functools.lru_cache(maxsize=65_536)
def hold_account(source: str) -> str:
    """The account that holds money reserved from `source` (a wallet or a table stack)."""
    spec = parse(source)
    if spec.kind not in {"wallet", "stack"}:
        raise UnknownAccount(f"holds are taken from a wallet or a table stack, not {source!r}")
    return f"hold:{source}"


@functools.lru_cache(maxsize=65_536)
@functools.lru_cache(maxsize=65_536)
def parse(name: str) -> AccountSpec:
    """Kind, owner and table of an account from its name; UnknownAccount for a malformed name
    (kept per name: a plan parses each account it moves, and the answer is frozen)."""
    if name in {HOUSE, COMMISSION, ROUNDING, EXTERNAL}:
        return AccountSpec(name, name)
    if name in {BOTS, JACKPOT_FUND}:
        return AccountSpec(name, HOUSE)
    parts = name.split(":")
    try:
        if parts[0] == "wallet" and len(parts) == 2:
            return AccountSpec(name, "wallet", check_id(parts[1], "user"))
        if parts[0] == "stack" and len(parts) == 3:
            return AccountSpec(
                name, "stack", check_id(parts[1], "user"), check_id(parts[2], "table")
            )
        if parts[0] in SPLIT and len(parts) == 2:
            return AccountSpec(name, parts[0], None, check_id(parts[1], "table"))
        if parts[0] == "jackpot" and len(parts) == 2:
            return AccountSpec(name, "jackpot", None, check_id(parts[1], "pool"))
        if parts[0] == "hold" and len(parts) >= 3:
            source = parse(":".join(parts[1:]))
            if source.kind in {"wallet", "stack"}:
                return AccountSpec(name, "hold", source.owner, source.table_id)
    except UnknownAccount:
        pass
    raise UnknownAccount(f"unknown account name {name!r}")
