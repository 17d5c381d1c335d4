"""Table templates carry table options beside the game's settings (away grace, client seeds).

Revision ID: auth_0002
Revises: auth_0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "auth_0002"
down_revision: str | None = "auth_0001"
branch_labels: tuple[str, ...] | None = None
depends_on: str | None = None


def upgrade() -> None:
    # ADD COLUMN is not an UPDATE: the append-only triggers stay as they are
    op.add_column(
        "table_templates",
        sa.Column("options", sa.JSON(), nullable=False, server_default=sa.text("'{}'")),
    )


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        op.execute("ALTER TABLE table_templates DROP COLUMN options")
    else:
        op.drop_column("table_templates", "options")
