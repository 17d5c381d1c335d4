"""Roles of least privilege (the old `operator` becomes `supervisor`), four-eyes requests,
players' money limits, lock kinds and KYC, and the payment method and reference of money
requests (docs/operators.md §2 and "Money controls").

Revision ID: auth_0006
Revises: auth_0004
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "auth_0006"
down_revision: str | None = "auth_0004"
branch_labels: tuple[str, ...] | None = None
depends_on: str | None = None

NEW_ROLES = "role IN ('supervisor', 'cashier', 'floor', 'finance', 'auditor')"
OLD_ROLES = "role IN ('operator', 'auditor')"


def _roles(check: str, old: str, new: str) -> None:
    """Swap the role CHECK and rename role `old` to `new` (SQLite rebuilds the table: its
    sessions end first, so no row refers to the table being replaced)."""
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DELETE FROM ops_sessions")
        with op.batch_alter_table("ops_operators", recreate="always") as batch:
            batch.drop_constraint("ck_ops_operators_role", type_="check")
        op.execute(f"UPDATE ops_operators SET role = '{new}' WHERE role = '{old}'")
        with op.batch_alter_table("ops_operators", recreate="always") as batch:
            batch.create_check_constraint("ck_ops_operators_role", sa.text(check))
    else:
        op.drop_constraint("ck_ops_operators_role", "ops_operators", type_="check")
        op.execute(f"UPDATE ops_operators SET role = '{new}' WHERE role = '{old}'")
        op.create_check_constraint("ck_ops_operators_role", "ops_operators", sa.text(check))


def upgrade() -> None:
    _roles(NEW_ROLES, "operator", "supervisor")
    # ADD COLUMN is not an UPDATE: money_requests has no append-only trigger anyway
    op.add_column(
        "money_requests",
        sa.Column("method", sa.String(24), nullable=False, server_default=sa.text("''")),
    )
    op.add_column(
        "money_requests",
        sa.Column("reference", sa.String(64), nullable=False, server_default=sa.text("''")),
    )
    op.add_column(
        "player_controls",
        sa.Column("lock_kind", sa.String(16), nullable=False, server_default=sa.text("'lock'")),
    )
    op.add_column("player_controls", sa.Column("lock_until", sa.Float(), nullable=True))
    op.add_column(
        "player_controls",
        sa.Column("kyc", sa.String(10), nullable=False, server_default=sa.text("'none'")),
    )
    op.create_table(
        "player_limits",
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("player_value", sa.BigInteger(), nullable=True),
        sa.Column("operator_value", sa.BigInteger(), nullable=True),
        sa.Column("pending_value", sa.BigInteger(), nullable=True),
        sa.Column("pending_from", sa.Float(), nullable=True),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.Column("updated_by", sa.String(40), nullable=False),
        sa.CheckConstraint(
            "kind IN ('deposit', 'loss', 'wager', 'session', 'withdrawal')",
            name="ck_player_limits_kind",
        ),
        sa.PrimaryKeyConstraint("player", "kind", name="pk_player_limits"),
    )
    op.create_table(
        "ops_approvals",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("target", sa.String(200), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("requested_by", sa.String(40), nullable=False),
        sa.Column("requested_at", sa.Float(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("decided_by", sa.String(40), nullable=True),
        sa.Column("decided_at", sa.Float(), nullable=True),
        sa.Column("decision_reason", sa.Text(), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.CheckConstraint(
            "status IN ('pending', 'approved', 'rejected', 'failed')",
            name="ck_ops_approvals_status",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_ops_approvals"),
    )
    op.create_index("ix_ops_approvals_status", "ops_approvals", ["status", "id"])


def downgrade() -> None:
    op.drop_index("ix_ops_approvals_status", table_name="ops_approvals")
    op.drop_table("ops_approvals")
    op.drop_table("player_limits")
    for table, column in (
        ("player_controls", "kyc"),
        ("player_controls", "lock_until"),
        ("player_controls", "lock_kind"),
        ("money_requests", "reference"),
        ("money_requests", "method"),
    ):
        if op.get_bind().dialect.name == "sqlite":
            op.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        else:
            op.drop_column(table, column)
    # every role but supervisor and auditor has no place in the old model: they become auditors
    op.execute(
        "UPDATE ops_operators SET role = 'auditor' WHERE role IN ('cashier', 'floor', 'finance')"
    )
    _roles(OLD_ROLES, "supervisor", "operator")
