"""Nothing mutable that carries meaning; every record chained.

* A round's end (`round_ends`), a hold's closure (`hold_closures`) and a deal unit's revealed seed
  (`seed_reveals`) become append-only rows of their own, replacing the mutable columns
  `rounds.status/result/accounts/settlement_tx/closed_at/seed_revealed`,
  `holds.status/captured/close_tx/closed_at` and `round_players.end_balance/net` (players'
  results are derived from their stacks' entries).
* `transactions`, `rounds`, `round_log` and `seed_reveals` carry (chain, chain_seq, mac); the
  writers' cache of chain heads is `chain_heads`. Existing rows are sealed (chained, and seeds of
  units in play encrypted) by `Ledger.open` with the ledger's key the first time it opens the
  upgraded database (`qipai.ledger.legacy`).
* Every table that carries meaning refuses UPDATE and DELETE by trigger; a chained row may be
  updated only while it has no MAC yet (that one-time sealing).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None

OLD_APPEND_ONLY = ("transactions", "entries", "round_log")
APPEND_ONLY = (
    "users",
    "transactions",
    "entries",
    "holds",
    "hold_closures",
    "rounds",
    "round_players",
    "round_ends",
    "round_log",
    "seed_reveals",
    "ledger_meta",
)
CHAINED = ("transactions", "rounds", "round_log", "seed_reveals")


def _ts(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _chained() -> list[sa.Column[object]]:
    return [
        sa.Column("chain", sa.String(80), nullable=True),
        sa.Column("chain_seq", sa.BigInteger(), nullable=True),
        sa.Column("mac", sa.String(64), nullable=True),
    ]


def _dialect() -> str:
    return str(op.get_bind().dialect.name)


def drop_triggers(tables: tuple[str, ...]) -> None:
    for table in tables:
        if _dialect() == "postgresql":
            op.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
        else:
            for verb in ("update", "delete"):
                op.execute(f"DROP TRIGGER IF EXISTS {table}_append_only_{verb}")


def create_triggers(tables: tuple[str, ...], sealable: tuple[str, ...]) -> None:
    """UPDATE and DELETE refused; on `sealable` tables an UPDATE of a row without a MAC is let
    through (sealing a row written before the chains existed)."""
    if _dialect() == "postgresql":
        op.execute(
            "CREATE OR REPLACE FUNCTION qipai_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN RAISE EXCEPTION 'table % is append-only', TG_TABLE_NAME; END $$"
        )
        op.execute(
            "CREATE OR REPLACE FUNCTION qipai_append_only_sealable() RETURNS trigger "
            "LANGUAGE plpgsql AS $$ BEGIN "
            "IF TG_OP = 'UPDATE' AND OLD.mac IS NULL THEN RETURN NEW; END IF; "
            "RAISE EXCEPTION 'table % is append-only', TG_TABLE_NAME; END $$"
        )
        for table in tables:
            fn = "qipai_append_only_sealable" if table in sealable else "qipai_append_only"
            op.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                f"FOR EACH ROW EXECUTE FUNCTION {fn}()"
            )
        return
    for table in tables:
        when = " WHEN OLD.mac IS NOT NULL" if table in sealable else ""
        op.execute(
            f"CREATE TRIGGER {table}_append_only_update BEFORE UPDATE ON {table}{when} "
            f"BEGIN SELECT RAISE(ABORT, 'table {table} is append-only'); END"
        )
        op.execute(
            f"CREATE TRIGGER {table}_append_only_delete BEFORE DELETE ON {table} "
            f"BEGIN SELECT RAISE(ABORT, 'table {table} is append-only'); END"
        )


def upgrade() -> None:
    drop_triggers(OLD_APPEND_ONLY)
    op.create_table(
        "hold_closures",
        sa.Column("hold_id", sa.Integer(), nullable=False),
        sa.Column("tx_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("captured", sa.BigInteger(), nullable=False),
        _ts("closed_at"),
        sa.CheckConstraint("status IN ('captured', 'voided')", name="ck_hold_closures_status"),
        sa.CheckConstraint("captured >= 0", name="ck_hold_closures_captured"),
        sa.ForeignKeyConstraint(["hold_id"], ["holds.id"], name="fk_hold_closures_hold_id_holds"),
        sa.ForeignKeyConstraint(
            ["tx_id"], ["transactions.id"], name="fk_hold_closures_tx_id_transactions"
        ),
        sa.PrimaryKeyConstraint("hold_id", name="pk_hold_closures"),
    )
    op.create_index("ix_hold_closures_tx", "hold_closures", ["tx_id"])
    op.create_table(
        "round_ends",
        sa.Column("round_id", sa.String(64), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("tx_id", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("accounts", sa.JSON(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        _ts("closed_at"),
        sa.CheckConstraint("status IN ('settled', 'voided')", name="ck_round_ends_status"),
        sa.ForeignKeyConstraint(["round_id"], ["rounds.id"], name="fk_round_ends_round_id_rounds"),
        sa.ForeignKeyConstraint(
            ["tx_id"], ["transactions.id"], name="fk_round_ends_tx_id_transactions"
        ),
        sa.PrimaryKeyConstraint("round_id", name="pk_round_ends"),
        sa.UniqueConstraint("tx_id", name="uq_round_ends_tx_id"),
    )
    op.create_table(
        "seed_reveals",
        sa.Column("seed_commitment", sa.String(64), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        _ts("revealed_at"),
        *_chained(),
        sa.PrimaryKeyConstraint("seed_commitment", name="pk_seed_reveals"),
    )
    op.create_table(
        "chain_heads",
        sa.Column("chain", sa.String(80), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("mac", sa.String(64), nullable=False),
        _ts("updated_at"),
        sa.PrimaryKeyConstraint("chain", name="pk_chain_heads"),
    )

    # what the mutable columns said, moved into the append-only rows
    op.execute(
        "INSERT INTO hold_closures (hold_id, tx_id, status, captured, closed_at) "
        "SELECT id, close_tx, status, COALESCE(captured, 0), COALESCE(closed_at, created_at) "
        "FROM holds WHERE status <> 'open'"
    )
    op.execute(
        "INSERT INTO round_ends (round_id, status, tx_id, result, accounts, reason, closed_at) "
        "SELECT r.id, r.status, "
        "CASE WHEN r.status = 'settled' THEN r.settlement_tx ELSE "
        "(SELECT t.id FROM transactions t WHERE t.key = 'round:' || r.id || ':' || 'void') END, "
        "r.result, r.accounts, "
        "CASE WHEN r.status = 'voided' THEN "
        "(SELECT t.memo FROM transactions t WHERE t.key = 'round:' || r.id || ':' || 'void') END, "
        "COALESCE(r.closed_at, r.opened_at) FROM rounds r WHERE r.status <> 'open'"
    )
    op.execute(
        "INSERT INTO seed_reveals (seed_commitment, seed, revealed_at) "
        "SELECT seed_commitment, MIN(seed), MIN(COALESCE(closed_at, opened_at)) FROM rounds "
        "WHERE seed_revealed GROUP BY seed_commitment"
    )

    with op.batch_alter_table("holds") as batch:
        batch.drop_index("ix_holds_round")
        batch.drop_constraint("ck_holds_status", type_="check")
        batch.drop_constraint("fk_holds_close_tx_transactions", type_="foreignkey")
        for column in ("status", "close_tx", "captured", "closed_at"):
            batch.drop_column(column)
        batch.create_index("ix_holds_round", ["round_id"])
    with op.batch_alter_table("rounds") as batch:
        batch.drop_constraint("ck_rounds_status", type_="check")
        batch.drop_constraint("fk_rounds_settlement_tx_transactions", type_="foreignkey")
        for column in (
            "seed_revealed",
            "status",
            "accounts",
            "result",
            "settlement_tx",
            "closed_at",
        ):
            batch.drop_column(column)
        batch.alter_column("seed", type_=sa.String(200), existing_nullable=False)
        for new in _chained():
            batch.add_column(new)
    with op.batch_alter_table("round_players") as batch:
        batch.drop_column("end_balance")
        batch.drop_column("net")
    for table in ("transactions", "round_log"):
        with op.batch_alter_table(table) as batch:
            for new in _chained():
                batch.add_column(new)
    for table in CHAINED:
        op.create_index(f"uq_{table}_chain", table, ["chain", "chain_seq"], unique=True)
    create_triggers(APPEND_ONLY, CHAINED)


def downgrade() -> None:
    drop_triggers(APPEND_ONLY)
    for table in CHAINED:
        op.drop_index(f"uq_{table}_chain", table_name=table)
    for table in ("transactions", "round_log"):
        with op.batch_alter_table(table) as batch:
            for column in ("mac", "chain_seq", "chain"):
                batch.drop_column(column)
    with op.batch_alter_table("round_players") as batch:
        batch.add_column(sa.Column("end_balance", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("net", sa.BigInteger(), nullable=True))
    with op.batch_alter_table("rounds") as batch:
        for column in ("mac", "chain_seq", "chain"):
            batch.drop_column(column)
        batch.add_column(
            sa.Column("seed_revealed", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("status", sa.String(10), nullable=False, server_default="open"))
        batch.add_column(sa.Column("accounts", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("result", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("settlement_tx", sa.Integer(), nullable=True))
        batch.add_column(_ts("closed_at", nullable=True))
    op.execute(
        "UPDATE rounds SET status = (SELECT e.status FROM round_ends e WHERE e.round_id = rounds.id), "
        "result = (SELECT e.result FROM round_ends e WHERE e.round_id = rounds.id), "
        "accounts = (SELECT e.accounts FROM round_ends e WHERE e.round_id = rounds.id), "
        "closed_at = (SELECT e.closed_at FROM round_ends e WHERE e.round_id = rounds.id), "
        "settlement_tx = (SELECT e.tx_id FROM round_ends e WHERE e.round_id = rounds.id "
        "AND e.status = 'settled') WHERE id IN (SELECT round_id FROM round_ends)"
    )
    op.execute(
        "UPDATE rounds SET seed_revealed = "
        "(seed_commitment IN (SELECT seed_commitment FROM seed_reveals))"
    )
    with op.batch_alter_table("holds") as batch:
        batch.add_column(sa.Column("status", sa.String(10), nullable=False, server_default="open"))
        batch.add_column(sa.Column("close_tx", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("captured", sa.BigInteger(), nullable=True))
        batch.add_column(_ts("closed_at", nullable=True))
    op.execute(
        "UPDATE holds SET status = (SELECT c.status FROM hold_closures c WHERE c.hold_id = holds.id), "
        "close_tx = (SELECT c.tx_id FROM hold_closures c WHERE c.hold_id = holds.id), "
        "captured = (SELECT c.captured FROM hold_closures c WHERE c.hold_id = holds.id), "
        "closed_at = (SELECT c.closed_at FROM hold_closures c WHERE c.hold_id = holds.id) "
        "WHERE id IN (SELECT hold_id FROM hold_closures)"
    )
    op.drop_table("chain_heads")
    op.drop_table("seed_reveals")
    op.drop_table("round_ends")
    op.drop_index("ix_hold_closures_tx", table_name="hold_closures")
    op.drop_table("hold_closures")
    # (sealed seeds stay sealed: a downgraded database needs the key to read open units' seeds)
    if _dialect() == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS qipai_append_only_sealable()")
    create_triggers(OLD_APPEND_ONLY, ())
