"""PostgreSQL: the tables whose rows are updated in place keep nine tenths of each page free.

`accounts` (every balance a round moves), `chain_heads` (every operation) and `table_leases`
(every renewal) are the ledger's only rows updated in place. PostgreSQL writes each update as
a new version of the row; when the row's page has room it stays there (a heap-only update, no
new index entry) and the dead versions are pruned from the page as it is read. Packed full, as
by default, the pages had no room: a third of the updates of `accounts` went to another page
with a new index entry each, and until autovacuum came by (once a minute at most) every look-up
of an account walked the dead versions of all its earlier pages. Measured by buffer accesses
per settled 4-seat round (`benchmarks/bench_ledger.py`, 4 tables, 4,000 rounds, from
`pg_statio_user_tables`, which do not depend on the machine's load): `accounts` 626 → 92,
`chain_heads` 35 → 7, all tables 990 → 369 (docs/ledger.md §8). Each of these tables holds
one short row per account, chain or table: the space costs little.

Existing rows stay where they are; their next versions follow the setting.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None

UPDATED_IN_PLACE = ("accounts", "chain_heads", "table_leases")
FILLFACTOR = 10


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in UPDATED_IN_PLACE:
            op.execute(f"ALTER TABLE {table} SET (fillfactor = {FILLFACTOR})")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in UPDATED_IN_PLACE:
            op.execute(f"ALTER TABLE {table} RESET (fillfactor)")
