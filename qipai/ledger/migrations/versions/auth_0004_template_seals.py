"""Template versions sealed: one row per version with an HMAC over its exact terms under the
template key (derived from the ledger's key, never in the database). Append-only, as the
versions are (docs/security.md, "Terms").

Revision ID: auth_0004
Revises: auth_0003
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "auth_0004"
down_revision: str | None = "auth_0003"
branch_labels: tuple[str, ...] | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "template_seals",
        sa.Column("template_id", sa.String(40), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seal", sa.String(64), nullable=False),
        sa.Column("sealed_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("template_id", "version", name="pk_template_seals"),
    )
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":  # the function of auth_0001
        op.execute(
            "CREATE TRIGGER template_seals_append_only BEFORE UPDATE OR DELETE ON template_seals "
            "FOR EACH ROW EXECUTE FUNCTION qipai_ops_append_only()"
        )
        op.execute(
            "CREATE TRIGGER template_seals_no_truncate BEFORE TRUNCATE ON template_seals "
            "FOR EACH STATEMENT EXECUTE FUNCTION qipai_ops_append_only()"
        )
    elif dialect == "sqlite":
        for verb in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER template_seals_append_only_{verb.lower()} BEFORE {verb} ON "
                "template_seals BEGIN SELECT RAISE(ABORT, 'table template_seals is append-only'); "
                "END"
            )


def downgrade() -> None:
    op.drop_table("template_seals")
