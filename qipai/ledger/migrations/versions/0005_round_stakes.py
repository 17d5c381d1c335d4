"""A round's stakes in one transaction: several holds may share their authorizing transaction.

`open_round` wrote one `hold` transaction per staking seat; it now writes one `stakes`
transaction that opens a hold for every seat (`chain.STAKES`; a closing record names such a hold
`<key>#<seat>`, `chain.hold_ref`). So `holds.authorize_tx` is no longer unique: the unique
constraint becomes a plain index. Records written before keep their meaning (kind `hold`, one
hold each); nothing is rewritten.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def _sqlite_triggers(create: bool) -> None:
    """SQLite rebuilds the table (batch mode), which drops its append-only triggers."""
    for verb in ("update", "delete"):
        op.execute(f"DROP TRIGGER IF EXISTS holds_append_only_{verb}")
        if create:
            op.execute(
                f"CREATE TRIGGER holds_append_only_{verb} BEFORE {verb.upper()} ON holds "
                "BEGIN SELECT RAISE(ABORT, 'table holds is append-only'); END"
            )


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite:
        _sqlite_triggers(create=False)
    with op.batch_alter_table("holds") as batch:
        batch.drop_constraint("uq_holds_authorize_tx", type_="unique")
        batch.create_index("ix_holds_authorize_tx", ["authorize_tx"])
    if sqlite:
        _sqlite_triggers(create=True)


def downgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite:
        _sqlite_triggers(create=False)
    with op.batch_alter_table("holds") as batch:
        batch.drop_index("ix_holds_authorize_tx")
        batch.create_unique_constraint("uq_holds_authorize_tx", ["authorize_tx"])
    if sqlite:
        _sqlite_triggers(create=True)
