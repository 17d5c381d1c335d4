"""PostgreSQL: the writer's statements are prepared (psycopg prepares a text on its fifth run),
so each batch shape gets one plan, made from the statistics of that moment — often a new table's
(docs/ledger.md §8). The check that a closed hold exists (it stands in for the
foreign key dropped in migration 0004) must stay a key probe in such a plan: as a join, the plan
made while `holds` was small hash-joined the whole table on every settlement, and the books
grow by a hold per seat per round."""

from __future__ import annotations

import time
from typing import Any

import pytest
from sqlalchemy import create_engine, event, text

from qipai.core.ids import new_round_id
from qipai.core.protocol import HOUSE, Posting, RoundResult, Seat
from qipai.core.rng import new_seed
from qipai.ledger import Ledger, book
from qipai.ledger.plan import CacheMiss, Plan
from tests.ledger.conftest import pg_database

SEATS = ["P1", "P2", "P3", "P4"]
TABLES = ("t1", "t2")

FILLER_HOLDS = 20_000

STATS_FLUSH_S = 1.5
"""A backend reports its table statistics when idle, at most once a second."""


def _generic_plans_only(dbapi_connection: Any, _record: Any) -> None:
    """Every statement of this connection planned once, without its parameters' values (what
    PostgreSQL does on its own after five runs of a prepared statement whose generic plan looks
    no worse) — so the test does not depend on that choice."""
    with dbapi_connection.cursor() as cursor:
        cursor.execute("SET plan_cache_mode = force_generic_plan")
    dbapi_connection.commit()


def _opening(table: str) -> book.OpenRound:
    return book.OpenRound(
        round_id=new_round_id(),
        table_id=table,
        game="coin",
        config={},
        seats=[Seat(s, 0) for s in SEATS],
        players={s: f"{table}-{s.lower()}" for s in SEATS},
        seed=new_seed(),
        context=None,
        meta=None,
        stakes=dict.fromkeys(SEATS, 10),
        fence=None,
    )


def _settlement(round_id: str) -> book.Settle:
    postings = [Posting(s, -1) for s in SEATS] + [Posting(HOUSE, len(SEATS))]
    return book.Settle(
        round_id=round_id,
        result=RoundResult(tuple(postings)),
        accounts={},
        reveal_seed=True,
        fence=None,
        also=None,
    )


def _together(ledger: Ledger, writer: book.Writer, *ops: book.Op) -> None:
    """One batch, as the writer makes when tables write at the same moment: here one table's
    opening (it inserts holds) with another's settlement (it closes holds) — the shape whose
    plan scanned `holds` in the benchmark."""
    queue = []
    for op in ops:
        try:
            plan: Plan | None = op.fast(ledger)
        except CacheMiss:  # (a table's first round: the writer plans it the careful way)
            plan = None
        queue.append(book._Pending(op, plan=plan))
    writer._queue = list(queue)
    batch = writer._take()
    assert len(batch) == len(ops)
    writer._batch(batch)
    assert all(p.done and p.error is None for p in queue), [p.error for p in queue]


def _play(ledger: Ledger, writer: book.Writer, open_round: str, batches: int) -> str:
    """Batches of [the other table opens, this table settles], alternating the tables; returns
    the round left open."""
    table = 0
    for _ in range(batches):
        opening = _opening(TABLES[1 - table])
        _together(ledger, writer, opening, _settlement(open_round))
        open_round, table = opening.round_id, 1 - table
    return open_round


def _holds_read(owner: Any, schema: str) -> int:
    time.sleep(STATS_FLUSH_S)
    with owner.connect() as conn:
        found = conn.execute(
            text(
                "SELECT coalesce(seq_tup_read, 0) FROM pg_stat_user_tables"
                " WHERE schemaname = :s AND relname = 'holds'"
            ),
            {"s": schema},
        ).scalar_one()
    return int(found)


@pytest.mark.postgres
def test_settling_does_not_read_every_hold_under_a_plan_made_when_holds_were_few() -> None:
    with pg_database("qipai_gp") as (app_url, owner_url, schema):
        owner = create_engine(owner_url, connect_args={"options": f"-csearch_path={schema}"})
        with owner.begin() as conn:  # no ANALYZE may replace the plan made while holds were few
            conn.execute(text("ALTER TABLE holds SET (autovacuum_enabled = false)"))
        ledger = Ledger.open(app_url, schema=schema)
        event.listen(ledger.engine, "connect", _generic_plans_only)
        ledger.engine.dispose()  # (connections opened before the listener)
        writer = book.Writer(ledger)
        try:
            for table in TABLES:
                for seat in SEATS:
                    user = f"{table}-{seat.lower()}"
                    ledger.create_user(user)
                    ledger.deposit(user, 100_000, "test")
                    ledger.buy_in(user, table, 10_000, "test")
            first = _opening(TABLES[0])
            _together(ledger, writer, first)
            # past psycopg's prepare threshold: the batch shape's plan is made and kept
            left_open = _play(ledger, writer, first.round_id, 8)
            with owner.begin() as conn:  # the books grow (rows a long-running room would hold)
                conn.execute(
                    text(
                        "INSERT INTO holds (source_account_id, hold_account_id, amount, purpose,"
                        " authorize_tx, created_at) SELECT source_account_id, hold_account_id,"
                        " amount, 'filler', authorize_tx, created_at FROM holds,"
                        " generate_series(1, :n) LIMIT :n"
                    ),
                    {"n": FILLER_HOLDS},
                )
            before = _holds_read(owner, schema)
            _play(ledger, writer, left_open, 3)
            read = _holds_read(owner, schema) - before
        finally:
            writer.close()
            ledger.close()
            owner.dispose()
    assert read < FILLER_HOLDS, f"the settlements read {read:,} holds: a scan of the whole table"
