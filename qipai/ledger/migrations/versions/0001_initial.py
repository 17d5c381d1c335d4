"""Initial ledger schema: users, accounts, transactions, entries, holds, round journal.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None

APPEND_ONLY = ("transactions", "entries", "round_log")


def _ts(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        _ts("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_users"),
    )
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("owner", sa.String(64), nullable=True),
        sa.Column("table_id", sa.String(64), nullable=True),
        sa.Column("allow_negative", sa.Boolean(), nullable=False),
        sa.Column("balance", sa.BigInteger(), nullable=False),
        _ts("created_at"),
        sa.CheckConstraint("allow_negative OR balance >= 0", name="ck_accounts_non_negative"),
        sa.CheckConstraint(
            "kind IN ('wallet', 'stack', 'hold', 'house', 'commission', 'rounding', 'jackpot',"
            " 'external')",
            name="ck_accounts_kind",
        ),
        sa.ForeignKeyConstraint(["owner"], ["users.id"], name="fk_accounts_owner_users"),
        sa.PrimaryKeyConstraint("id", name="pk_accounts"),
        sa.UniqueConstraint("name", name="uq_accounts_name"),
    )
    op.create_index("ix_accounts_owner", "accounts", ["owner"])
    op.create_table(
        "transactions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("key", sa.String(300), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("body_hash", sa.String(64), nullable=False),
        sa.Column("round_id", sa.String(64), nullable=True),
        sa.Column("reverses", sa.Integer(), nullable=True),
        sa.Column("memo", sa.Text(), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        _ts("created_at"),
        sa.ForeignKeyConstraint(
            ["reverses"], ["transactions.id"], name="fk_transactions_reverses_transactions"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_transactions"),
        sa.UniqueConstraint("key", name="uq_transactions_key"),
    )
    op.create_index("ix_transactions_kind", "transactions", ["kind"])
    op.create_index("ix_transactions_round_id", "transactions", ["round_id"])
    op.create_table(
        "entries",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tx_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("balance_after", sa.BigInteger(), nullable=False),
        _ts("created_at"),
        sa.CheckConstraint("amount <> 0", name="ck_entries_nonzero"),
        sa.ForeignKeyConstraint(
            ["tx_id"], ["transactions.id"], name="fk_entries_tx_id_transactions"
        ),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_entries_account_id_accounts"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_entries"),
    )
    op.create_index("ix_entries_account", "entries", ["account_id", "id"])
    op.create_index("ix_entries_tx", "entries", ["tx_id"])
    op.create_table(
        "holds",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("source_account_id", sa.Integer(), nullable=False),
        sa.Column("hold_account_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("round_id", sa.String(64), nullable=True),
        sa.Column("seat", sa.String(64), nullable=True),
        sa.Column("purpose", sa.String(64), nullable=False),
        sa.Column("authorize_tx", sa.Integer(), nullable=False),
        sa.Column("close_tx", sa.Integer(), nullable=True),
        sa.Column("captured", sa.BigInteger(), nullable=True),
        _ts("created_at"),
        _ts("closed_at", nullable=True),
        sa.CheckConstraint("amount > 0", name="ck_holds_positive"),
        sa.CheckConstraint("status IN ('open', 'captured', 'voided')", name="ck_holds_status"),
        sa.ForeignKeyConstraint(
            ["source_account_id"], ["accounts.id"], name="fk_holds_source_account_id_accounts"
        ),
        sa.ForeignKeyConstraint(
            ["hold_account_id"], ["accounts.id"], name="fk_holds_hold_account_id_accounts"
        ),
        sa.ForeignKeyConstraint(
            ["authorize_tx"], ["transactions.id"], name="fk_holds_authorize_tx_transactions"
        ),
        sa.ForeignKeyConstraint(
            ["close_tx"], ["transactions.id"], name="fk_holds_close_tx_transactions"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_holds"),
        sa.UniqueConstraint("authorize_tx", name="uq_holds_authorize_tx"),
    )
    op.create_index("ix_holds_round", "holds", ["round_id", "status"])
    op.create_table(
        "rounds",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("context", sa.JSON(), nullable=True),
        sa.Column("seed_commitment", sa.String(64), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("seed_revealed", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("accounts", sa.JSON(), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("settlement_tx", sa.Integer(), nullable=True),
        _ts("opened_at"),
        _ts("closed_at", nullable=True),
        sa.CheckConstraint("status IN ('open', 'settled', 'voided')", name="ck_rounds_status"),
        sa.ForeignKeyConstraint(
            ["settlement_tx"], ["transactions.id"], name="fk_rounds_settlement_tx_transactions"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_rounds"),
    )
    op.create_index("ix_rounds_table", "rounds", ["table_id", "opened_at"])
    op.create_index("ix_rounds_commitment", "rounds", ["seed_commitment"])
    op.create_table(
        "round_log",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("round_id", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("seat", sa.String(64), nullable=True),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("visible_to", sa.JSON(), nullable=True),
        sa.Column("client_id", sa.String(100), nullable=True),
        _ts("created_at"),
        sa.CheckConstraint("kind IN ('action', 'event')", name="ck_round_log_kind"),
        sa.ForeignKeyConstraint(["round_id"], ["rounds.id"], name="fk_round_log_round_id_rounds"),
        sa.PrimaryKeyConstraint("id", name="pk_round_log"),
        sa.UniqueConstraint("round_id", "seq", name="uq_round_log_round_seq"),
    )
    op.create_table(
        "round_players",
        sa.Column("round_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.String(64), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("account", sa.String(200), nullable=False),
        sa.Column("start_balance", sa.BigInteger(), nullable=False),
        sa.Column("end_balance", sa.BigInteger(), nullable=True),
        sa.Column("net", sa.BigInteger(), nullable=True),
        _ts("opened_at"),
        sa.ForeignKeyConstraint(
            ["round_id"], ["rounds.id"], name="fk_round_players_round_id_rounds"
        ),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_round_players_user_id_users"),
        sa.PrimaryKeyConstraint("round_id", "seat", name="pk_round_players"),
    )
    op.create_index("ix_round_players_user", "round_players", ["user_id", "opened_at"])
    _append_only_triggers()


def _append_only_triggers() -> None:
    """Refuse UPDATE and DELETE on the journal tables: corrections are reversing entries."""
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":
        op.execute(
            "CREATE FUNCTION qipai_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN RAISE EXCEPTION 'table % is append-only', TG_TABLE_NAME; END $$"
        )
        for table in APPEND_ONLY:
            op.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION qipai_append_only()"
            )
    elif dialect == "sqlite":
        for table in APPEND_ONLY:
            for verb in ("UPDATE", "DELETE"):
                op.execute(
                    f"CREATE TRIGGER {table}_append_only_{verb.lower()} BEFORE {verb} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, 'table {table} is append-only'); END"
                )


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    for table in APPEND_ONLY:
        if dialect == "postgresql":
            op.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
        elif dialect == "sqlite":
            for verb in ("update", "delete"):
                op.execute(f"DROP TRIGGER IF EXISTS {table}_append_only_{verb}")
    if dialect == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS qipai_append_only()")
    for table in ("round_players", "round_log", "rounds", "holds", "entries", "transactions"):
        op.drop_table(table)
    op.drop_index("ix_accounts_owner", "accounts")
    op.drop_table("accounts")
    op.drop_table("users")
