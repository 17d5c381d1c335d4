"""Table leases (owner, epoch, expiry: fencing), the ledger's facts (key id), rounds.meta.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("owner", sa.String(200), nullable=True),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", name="pk_table_leases"),
    )
    op.create_table(
        "ledger_meta",
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_ledger_meta"),
    )
    with op.batch_alter_table("rounds") as batch:
        batch.add_column(sa.Column("meta", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rounds") as batch:
        batch.drop_column("meta")
    op.drop_table("ledger_meta")
    op.drop_table("table_leases")
