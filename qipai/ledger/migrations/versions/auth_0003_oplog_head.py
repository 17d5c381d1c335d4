"""The operator log's head: its last row, its number of rows and a MAC over both under the
operator-log key (derived from the ledger's key, never in the database), written with every
row. Deleting rows, or rewriting the log with its hashes recomputed, no longer leaves a chain
that verifies (docs/security.md, "The operator log").

Revision ID: auth_0003
Revises: auth_0002
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "auth_0003"
down_revision: str | None = "auth_0002"
branch_labels: tuple[str, ...] | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "ops_log_head",
        sa.Column("name", sa.String(16), nullable=False),
        sa.Column("last_id", sa.Integer(), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("rows", sa.Integer(), nullable=False),
        sa.Column("mac", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_ops_log_head"),
    )


def downgrade() -> None:
    op.drop_table("ops_log_head")
