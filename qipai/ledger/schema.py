"""The ledger's tables (SQLAlchemy Core), shared by SQLite and PostgreSQL.

This metadata is what the code queries; the Alembic migrations in `migrations/` create the same
tables (a test compares the migrated database with this metadata). Non-negative balances are a
CHECK constraint here and a guarded UPDATE in `posting.py`. Everything that carries meaning is
append-only (triggers installed by the migrations refuse UPDATE and DELETE, `APPEND_ONLY`) and
chained (`qipai.ledger.chain`); the only rows ever updated are caches audit recomputes
(`accounts.balance`, `chain_heads`) and the table leases.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    exists,
)
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.types import TypeDecorator

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING)

APPEND_ONLY = (
    "users",
    "transactions",
    "entries",
    "holds",
    "hold_closures",
    "rounds",
    "round_players",
    "round_ends",
    "round_log",
    "seed_reveals",
    "ledger_meta",
)
"""Tables whose rows are never updated or deleted (triggers, and on PostgreSQL the app role's
privileges)."""

CHAINED = ("transactions", "rounds", "round_log", "seed_reveals")

NEVER_DELETED = ("accounts",)
"""Tables whose rows may be updated (an account's balance is a cache) but never deleted (a
trigger, migration 0004): every other parent of a ledger row is append-only."""

WRITER_CHECKED_REFERENCES = (
    ("entries", "account_id", "accounts", "id"),
    ("entries", "tx_id", "transactions", "id"),
    ("hold_closures", "hold_id", "holds", "id"),
    ("hold_closures", "tx_id", "transactions", "id"),
    ("holds", "authorize_tx", "transactions", "id"),
    ("holds", "hold_account_id", "accounts", "id"),
    ("holds", "source_account_id", "accounts", "id"),
    ("round_ends", "round_id", "rounds", "id"),
    ("round_ends", "tx_id", "transactions", "id"),
    ("round_log", "round_id", "rounds", "id"),
    ("round_players", "round_id", "rounds", "id"),
    ("round_players", "user_id", "users", "id"),
)
"""(table, column, parent, parent column): references that PostgreSQL does not check with a
foreign key (migration 0004: those checks were ~0.6 ms of the server's CPU per round) — the
writer's one statement takes each from a row it writes or joins its parent and refuses itself
when one is missing (`execute_pg`), and `qipai audit` checks them all. SQLite keeps these foreign
keys (they cost it nothing measurable); the metadata below declares them for both."""
"""Tables whose rows carry (chain, chain_seq, mac)."""


class UtcDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC timestamp on both databases (SQLite stores it naive, read back as UTC)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamps must be timezone-aware")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        assert isinstance(value, datetime)
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


users = Table(
    "users",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
)

UPDATED_IN_PLACE = {"fillfactor": "10"}
"""PostgreSQL storage of the tables whose rows are updated in place (accounts, chain heads,
leases): room in each page for a row's next versions (migration 0006)."""

accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(200), nullable=False, unique=True),
    Column("kind", String(16), nullable=False),
    Column("owner", String(64), ForeignKey("users.id"), nullable=True),
    Column("table_id", String(64), nullable=True),
    Column("allow_negative", Boolean, nullable=False),
    Column("balance", BigInteger, nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    CheckConstraint("allow_negative OR balance >= 0", name="non_negative"),
    CheckConstraint(
        "kind IN ('wallet', 'stack', 'hold', 'house', 'commission', 'rounding', 'jackpot',"
        " 'external')",
        name="kind",
    ),
    Index("ix_accounts_owner", "owner"),
    postgresql_with=UPDATED_IN_PLACE,
)


def _chained() -> list[Column[Any]]:
    """Where a record sits in its chain and its MAC (`qipai.ledger.chain`)."""
    return [
        Column("chain", String(80), nullable=True),
        Column("chain_seq", BigInteger, nullable=True),
        Column("mac", String(64), nullable=True),
    ]


transactions = Table(
    "transactions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(300), nullable=False, unique=True),
    Column("kind", String(32), nullable=False),
    Column("body_hash", String(64), nullable=False),
    Column("round_id", String(64), nullable=True),
    Column("reverses", Integer, ForeignKey("transactions.id"), nullable=True),
    Column("memo", Text, nullable=False),
    Column("detail", JSON, nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    *_chained(),
    Index("ix_transactions_kind", "kind"),
    Index("ix_transactions_round_id", "round_id"),
    Index("uq_transactions_chain", "chain", "chain_seq", unique=True),
)

entries = Table(
    "entries",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tx_id", Integer, ForeignKey("transactions.id"), nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("balance_after", BigInteger, nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    CheckConstraint("amount <> 0", name="nonzero"),
    Index("ix_entries_account", "account_id", "id"),
    Index("ix_entries_tx", "tx_id"),
)

holds = Table(
    "holds",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("source_account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("hold_account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("round_id", String(64), nullable=True),
    Column("seat", String(64), nullable=True),
    Column("purpose", String(64), nullable=False),
    Column("authorize_tx", Integer, ForeignKey("transactions.id"), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    CheckConstraint("amount > 0", name="positive"),
    Index("ix_holds_round", "round_id"),
    Index("ix_holds_authorize_tx", "authorize_tx"),
)
"""A hold as authorized (immutable); it is open until it has a closure. Its authorizing
transaction opened it alone, or (a round's stakes, migration 0005) with one hold per seat."""

hold_closures = Table(
    "hold_closures",
    metadata,
    Column("hold_id", Integer, ForeignKey("holds.id"), primary_key=True),
    Column("tx_id", Integer, ForeignKey("transactions.id"), nullable=False),
    Column("status", String(10), nullable=False),
    Column("captured", BigInteger, nullable=False),
    Column("closed_at", UtcDateTime(), nullable=False),
    CheckConstraint("status IN ('captured', 'voided')", name="status"),
    CheckConstraint("captured >= 0", name="captured"),
    Index("ix_hold_closures_tx", "tx_id"),
)
"""How a hold closed (at most once: the primary key), written by the closing transaction."""

rounds = Table(
    "rounds",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("table_id", String(64), nullable=False),
    Column("game", String(32), nullable=False),
    Column("config", JSON, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("context", JSON, nullable=True),
    Column("meta", JSON, nullable=True),
    Column("seed_commitment", String(64), nullable=False),
    Column("seed", String(200), nullable=False),
    Column("opened_at", UtcDateTime(), nullable=False),
    *_chained(),
    Index("ix_rounds_table", "table_id", "opened_at"),
    Index("ix_rounds_commitment", "seed_commitment"),
    Index("uq_rounds_chain", "chain", "chain_seq", unique=True),
)
"""A round's header as opened (immutable; `seed` sealed, `qipai.ledger.sealing`)."""

round_ends = Table(
    "round_ends",
    metadata,
    Column("round_id", String(64), ForeignKey("rounds.id"), primary_key=True),
    Column("status", String(10), nullable=False),
    Column("tx_id", Integer, ForeignKey("transactions.id"), nullable=False, unique=True),
    Column("result", JSON, nullable=True),
    Column("accounts", JSON, nullable=True),
    Column("reason", Text, nullable=True),
    Column("closed_at", UtcDateTime(), nullable=False),
    CheckConstraint("status IN ('settled', 'voided')", name="status"),
)
"""How a round ended (at most once: the primary key), written by its settlement or void."""

round_log = Table(
    "round_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("round_id", String(64), ForeignKey("rounds.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("kind", String(8), nullable=False),
    Column("seat", String(64), nullable=True),
    Column("payload", JSON, nullable=False),
    Column("visible_to", JSON, nullable=True),
    Column("client_id", String(100), nullable=True),
    Column("created_at", UtcDateTime(), nullable=False),
    *_chained(),
    CheckConstraint("kind IN ('action', 'event')", name="kind"),
    UniqueConstraint("round_id", "seq", name="uq_round_log_round_seq"),
    Index("uq_round_log_chain", "chain", "chain_seq", unique=True),
)

round_players = Table(
    "round_players",
    metadata,
    Column("round_id", String(64), ForeignKey("rounds.id"), primary_key=True),
    Column("seat", String(64), primary_key=True),
    Column("user_id", String(64), ForeignKey("users.id"), nullable=False),
    Column("account", String(200), nullable=False),
    Column("start_balance", BigInteger, nullable=False),
    Column("opened_at", UtcDateTime(), nullable=False),
    Index("ix_round_players_user", "user_id", "opened_at"),
)

seed_reveals = Table(
    "seed_reveals",
    metadata,
    Column("seed_commitment", String(64), primary_key=True),
    Column("seed", String(64), nullable=False),
    Column("revealed_at", UtcDateTime(), nullable=False),
    *_chained(),
    Index("uq_seed_reveals_chain", "chain", "chain_seq", unique=True),
)
"""A deal unit's seed made public when the unit ended (seeds of units in play are sealed)."""

chain_heads = Table(
    "chain_heads",
    metadata,
    Column("chain", String(80), primary_key=True),
    Column("seq", BigInteger, nullable=False),
    Column("mac", String(64), nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
    postgresql_with=UPDATED_IN_PLACE,
)
"""Each chain's last record (a writers' cache; audit recomputes it from the records)."""

table_leases = Table(
    "table_leases",
    metadata,
    Column("table_id", String(64), primary_key=True),
    Column("owner", String(200), nullable=True),
    Column("epoch", BigInteger, nullable=False),
    Column("expires_at", UtcDateTime(), nullable=False),
    Column("claimed_at", UtcDateTime(), nullable=False),
    postgresql_with=UPDATED_IN_PLACE,
)
"""Which host owns a table, under which epoch, until when (`Ledger.claim_table`): a table's writes
carry `fence=(table_id, epoch)` and are refused once another host claimed it."""

ledger_meta = Table(
    "ledger_meta",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)
"""Facts about this ledger database, written once (the id of the key its chains use)."""


# ----- what "open" means, derived from the append-only rows ------------------------------------
# Both are NOT EXISTS, never `NOT IN (SELECT …)`: PostgreSQL cannot turn NOT IN into an anti-join,
# and once the closures or round ends outgrow `work_mem` it compares every row with every other
# (measured on 600,000 rounds: NOT EXISTS 0.41 s; NOT IN had not finished after minutes), which
# would stall a card room's start-up (open rounds, withdrawal holds) and `qipai audit` on big books.
def hold_is_open() -> ColumnElement[bool]:
    """A hold (`holds`, the enclosing query's row) that no closure has captured or released."""
    return ~exists().where(hold_closures.c.hold_id == holds.c.id)


def round_is_open() -> ColumnElement[bool]:
    """A round (`rounds`, the enclosing query's row) neither settled nor voided."""
    return ~exists().where(round_ends.c.round_id == rounds.c.id)
