"""Usernames unique without regard to case; sessions with an idle and an absolute lifetime.

`room_users.username_key` (the lower-case name) carries a unique index. Accounts made before,
whose names differ only in case, keep working for the oldest of them; a later one gets the key
`<lower>#<name>`, which no sign-in can type, and its owner must sign up anew. Sessions gain
`created_at` and `last_used_at`; the sessions of an older install are ended (everyone signs in
again once).

Revision ID: room_0002
Revises: room_0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "room_0002"
down_revision: str | None = "room_0001"
branch_labels: tuple[str, ...] | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("room_users") as batch:
        batch.add_column(sa.Column("username_key", sa.String(32), nullable=True))
    users = sa.table(
        "room_users",
        sa.column("username", sa.String),
        sa.column("username_key", sa.String),
        sa.column("created_at", sa.Float),
    )
    bind = op.get_bind()
    taken: set[str] = set()
    rows = bind.execute(
        sa.select(users.c.username).order_by(users.c.created_at, users.c.username)
    ).all()
    for (name,) in rows:
        key = str(name).lower()
        if key in taken:
            key = f"{key}#{name}"
        taken.add(key)
        bind.execute(sa.update(users).where(users.c.username == name).values(username_key=key))
    with op.batch_alter_table("room_users") as batch:
        batch.alter_column("username_key", existing_type=sa.String(32), nullable=False)
        batch.create_unique_constraint("uq_room_users_username_key", ["username_key"])

    op.drop_index("ix_room_sessions_username", table_name="room_sessions")
    op.drop_table("room_sessions")
    op.create_table(
        "room_sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("last_used_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index("ix_room_sessions_username", "room_sessions", ["username"])


def downgrade() -> None:
    op.drop_index("ix_room_sessions_username", table_name="room_sessions")
    op.drop_table("room_sessions")
    op.create_table(
        "room_sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index("ix_room_sessions_username", "room_sessions", ["username"])
    with op.batch_alter_table("room_users") as batch:
        batch.drop_constraint("uq_room_users_username_key", type_="unique")
        batch.drop_column("username_key")
