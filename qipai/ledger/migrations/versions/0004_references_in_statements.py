"""PostgreSQL: the ledger's append-only rows reference their parents through the writer's own
statement, not foreign-key triggers; accounts are never deleted.

A settled 4-seat round inserts about 38 rows, and PostgreSQL ran a foreign-key check — a trigger
event and a query of its own — for 68 of their references: about 0.6 ms of the server's 1.6 ms
of CPU per round (`docs/ledger.md` §8). Every such row is written by one statement of
`qipai.ledger.execute_pg`, which takes each reference from a row it inserts in the same
statement (`JOIN t` for a transaction's id), from an account whose balance the same statement
updates (its count checked), or by joining the parent table (a hold's closure, a round's end,
its players and journal records), and refuses itself when a row is missing. `qipai audit`
checks every reference of the dropped keys (`schema.WRITER_CHECKED_REFERENCES`). The parents
can no longer disappear underneath: every parent table is append-only except `accounts`, whose
rows this revision makes undeletable (a trigger, on both databases).

SQLite keeps its foreign keys (measured: they cost nothing the benchmark can see there).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None

DROPPED = (
    ("entries", "account_id", "accounts", "id"),
    ("entries", "tx_id", "transactions", "id"),
    ("hold_closures", "hold_id", "holds", "id"),
    ("hold_closures", "tx_id", "transactions", "id"),
    ("holds", "authorize_tx", "transactions", "id"),
    ("holds", "hold_account_id", "accounts", "id"),
    ("holds", "source_account_id", "accounts", "id"),
    ("round_ends", "round_id", "rounds", "id"),
    ("round_ends", "tx_id", "transactions", "id"),
    ("round_log", "round_id", "rounds", "id"),
    ("round_players", "round_id", "rounds", "id"),
    ("round_players", "user_id", "users", "id"),
)
"""(table, column, parent, parent column): frozen here; `schema.WRITER_CHECKED_REFERENCES`."""


def _name(table: str, column: str, parent: str) -> str:
    return f"fk_{table}_{column}_{parent}"


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table, column, parent, _ in DROPPED:
            op.drop_constraint(_name(table, column, parent), table, type_="foreignkey")
        op.execute(
            "CREATE OR REPLACE FUNCTION qipai_no_delete() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN RAISE EXCEPTION 'rows of % are never deleted', TG_TABLE_NAME; END $$"
        )
        op.execute(
            "CREATE TRIGGER accounts_no_delete BEFORE DELETE ON accounts "
            "FOR EACH ROW EXECUTE FUNCTION qipai_no_delete()"
        )
        return
    op.execute(
        "CREATE TRIGGER accounts_no_delete BEFORE DELETE ON accounts "
        "BEGIN SELECT RAISE(ABORT, 'rows of accounts are never deleted'); END"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS accounts_no_delete ON accounts")
        op.execute("DROP FUNCTION IF EXISTS qipai_no_delete()")
        for table, column, parent, parent_column in DROPPED:
            op.create_foreign_key(
                _name(table, column, parent), table, parent, [column], [parent_column]
            )
        return
    op.execute("DROP TRIGGER IF EXISTS accounts_no_delete")
