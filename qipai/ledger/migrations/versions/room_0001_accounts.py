"""The card room's account tables (branch `room`): users, sessions, table layouts.

Before this branch existed the server made these tables with `create_all`; a database that
already has them (an older install) keeps them as they are, and is simply marked as at this
revision.

Revision ID: room_0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "room_0001"
down_revision: str | None = None
branch_labels: tuple[str, ...] | None = ("room",)
depends_on: str | None = None


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if "room_users" not in existing:
        op.create_table(
            "room_users",
            sa.Column("username", sa.String(32), nullable=False),
            sa.Column("salt", sa.String(64), nullable=False),
            sa.Column("pw_hash", sa.String(128), nullable=False),
            sa.Column("created_at", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("username"),
        )
    if "room_sessions" not in existing:
        op.create_table(
            "room_sessions",
            sa.Column("token_hash", sa.String(64), nullable=False),
            sa.Column("username", sa.String(32), nullable=False),
            sa.Column("expires_at", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("token_hash"),
        )
        op.create_index("ix_room_sessions_username", "room_sessions", ["username"])
    if "room_tables" not in existing:
        op.create_table(
            "room_tables",
            sa.Column("id", sa.String(32), nullable=False),
            sa.Column("data", sa.JSON(), nullable=False),
            sa.Column("updated_at", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("id"),
        )


def downgrade() -> None:
    op.drop_table("room_tables")
    op.drop_index("ix_room_sessions_username", table_name="room_sessions")
    op.drop_table("room_sessions")
    op.drop_table("room_users")
