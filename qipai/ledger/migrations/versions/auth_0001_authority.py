"""Operator authority: operators, operator sessions, the append-only operator log, table
templates (append-only versions), the RTP cache, money requests and player controls.

A branch of its own (label `authority`, owned by qipai/authority/): it references none of the
ledger's tables, so `qipai.ledger.db.migrate` upgrades it beside the ledger's branch.

Revision ID: auth_0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "auth_0001"
down_revision: str | None = None
branch_labels: tuple[str, ...] | None = ("authority",)
depends_on: str | None = None

APPEND_ONLY = ("ops_log", "table_templates")


def upgrade() -> None:
    op.create_table(
        "ops_operators",
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("salt", sa.String(64), nullable=False),
        sa.Column("pw_hash", sa.String(128), nullable=False),
        sa.Column("must_change", sa.Boolean(), nullable=False),
        sa.Column("totp_secret", sa.String(64), nullable=True),
        sa.Column("totp_enabled", sa.Boolean(), nullable=False),
        sa.Column("totp_last_step", sa.BigInteger(), nullable=True),
        sa.Column("failed_logins", sa.Integer(), nullable=False),
        sa.Column("locked_until", sa.Float(), nullable=True),
        sa.Column("disabled", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.CheckConstraint("role IN ('operator', 'auditor')", name="ck_ops_operators_role"),
        sa.PrimaryKeyConstraint("name", name="pk_ops_operators"),
    )
    op.create_table(
        "ops_sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("operator", sa.String(32), nullable=False),
        sa.Column("stage", sa.String(8), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("last_seen", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.CheckConstraint("stage IN ('setup', 'full')", name="ck_ops_sessions_stage"),
        sa.ForeignKeyConstraint(
            ["operator"], ["ops_operators.name"], name="fk_ops_sessions_operator_ops_operators"
        ),
        sa.PrimaryKeyConstraint("token_hash", name="pk_ops_sessions"),
    )
    op.create_index("ix_ops_sessions_operator", "ops_sessions", ["operator"])
    op.create_table(
        "ops_log",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("actor", sa.String(40), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("action", sa.String(64), nullable=False),
        sa.Column("target", sa.String(200), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.CheckConstraint("outcome IN ('ok', 'refused')", name="ck_ops_log_outcome"),
        sa.PrimaryKeyConstraint("id", name="pk_ops_log"),
    )
    op.create_index("ix_ops_log_actor", "ops_log", ["actor", "id"])
    op.create_index("ix_ops_log_action", "ops_log", ["action", "id"])
    op.create_table(
        "table_templates",
        sa.Column("template_id", sa.String(40), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("config_hash", sa.String(64), nullable=False),
        sa.Column("engine_version", sa.String(32), nullable=False),
        sa.Column("min_buy_in", sa.BigInteger(), nullable=False),
        sa.Column("max_buy_in", sa.BigInteger(), nullable=False),
        sa.Column("bot_levels", sa.JSON(), nullable=False),
        sa.Column("private_allowed", sa.Boolean(), nullable=False),
        sa.Column("pool_id", sa.String(64), nullable=True),
        sa.Column("rtp_over_100", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("created_by", sa.String(40), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.CheckConstraint("status IN ('active', 'retired')", name="ck_table_templates_status"),
        sa.CheckConstraint("version >= 1", name="ck_table_templates_version"),
        sa.CheckConstraint(
            "min_buy_in > 0 AND max_buy_in >= min_buy_in", name="ck_table_templates_buy_in"
        ),
        sa.PrimaryKeyConstraint("template_id", "version", name="pk_table_templates"),
    )
    op.create_index("ix_table_templates_game", "table_templates", ["game"])
    op.create_table(
        "rtp_cache",
        sa.Column("config_hash", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("engine_version", sa.String(32), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("computed_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("config_hash", name="pk_rtp_cache"),
    )
    op.create_table(
        "money_requests",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("decided_at", sa.Float(), nullable=True),
        sa.Column("decided_by", sa.String(40), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("tx_id", sa.Integer(), nullable=True),
        sa.CheckConstraint(
            "kind IN ('deposit', 'withdrawal', 'demo')", name="ck_money_requests_kind"
        ),
        sa.CheckConstraint(
            "status IN ('pending', 'approved', 'rejected', 'cancelled')",
            name="ck_money_requests_status",
        ),
        sa.CheckConstraint("amount > 0", name="ck_money_requests_amount"),
        sa.PrimaryKeyConstraint("id", name="pk_money_requests"),
    )
    op.create_index("ix_money_requests_player", "money_requests", ["player", "created_at"])
    op.create_index("ix_money_requests_status", "money_requests", ["status", "id"])
    op.create_table(
        "player_controls",
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("locked", sa.Boolean(), nullable=False),
        sa.Column("lock_reason", sa.Text(), nullable=False),
        sa.Column("limits", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.Column("updated_by", sa.String(40), nullable=False),
        sa.PrimaryKeyConstraint("player", name="pk_player_controls"),
    )
    _append_only_triggers()


def _append_only_triggers() -> None:
    """Refuse UPDATE and DELETE on the operator log and the template versions."""
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":
        op.execute(
            "CREATE FUNCTION qipai_ops_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN RAISE EXCEPTION 'table % is append-only', TG_TABLE_NAME; END $$"
        )
        for table in APPEND_ONLY:
            op.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION qipai_ops_append_only()"
            )
            # TRUNCATE skips row triggers: refuse it too
            op.execute(
                f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
                "FOR EACH STATEMENT EXECUTE FUNCTION qipai_ops_append_only()"
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
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}")
        elif dialect == "sqlite":
            for verb in ("update", "delete"):
                op.execute(f"DROP TRIGGER IF EXISTS {table}_append_only_{verb}")
    if dialect == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS qipai_ops_append_only()")
    for table in (
        "player_controls",
        "money_requests",
        "rtp_cache",
        "table_templates",
        "ops_log",
        "ops_sessions",
        "ops_operators",
    ):
        op.drop_table(table)
