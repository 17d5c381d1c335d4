"""The ledger's writes reuse one driver cursor per database connection (psycopg builds an
adapter map for every new cursor: two per batch were ≈ 0.4 ms of CPU per round,
docs/scaling.md "The hot path"); a connection the pool replaced gets cursors of its own."""

from __future__ import annotations

from qipai.ledger import Ledger
from qipai.ledger.execute import Counters, Raw
from tests.ledger.helpers import play_coin

PLAYERS = {"P1": "alice", "P2": "bob"}


def test_writes_on_one_connection_share_its_cursors(ledger: Ledger) -> None:
    with ledger.engine.connect() as conn:
        first, second = Raw(conn, Counters()), Raw(conn, Counters())
        assert first.cursor is second.cursor
        if ledger.dialect == "postgresql":
            assert first.native_rows("SELECT 1", []) == [(1,)]
            assert Raw(conn, Counters())._native is first._native
        assert second.rows("SELECT 2", []) == [(2,)]


def test_a_replaced_connection_gets_new_cursors(ledger: Ledger) -> None:
    with ledger.engine.connect() as conn:
        old = Raw(conn, Counters()).cursor
        conn.invalidate()  # the driver's connection is closed and forgotten
        conn.rollback()
        fresh = Raw(conn, Counters())
        assert fresh.cursor is not old
        assert fresh.rows("SELECT 3", []) == [(3,)]


def test_rounds_settle_with_kept_cursors(funded: Ledger) -> None:
    for stakes in ({"P1": 10, "P2": 20}, {"P1": 20, "P2": 10}, {"P1": 10, "P2": 10}):
        rid, _ = play_coin(funded, stakes, PLAYERS)
        assert funded.round(rid)["status"] == "settled"
    assert funded.audit(replay=False).ok
