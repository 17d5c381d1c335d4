"""The audit's queries stay linear in the size of the books: on SQLite (no planner statistics)
a join that reaches rows through an account's index scans every row of that account once per
round. Checked through SQLite's own query plan (no timing)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event

from qipai.ledger import Ledger, audit
from tests.ledger.helpers import play_coin


def _plan(ledger: Ledger, check: Any) -> str:
    captured: list[tuple[str, Any]] = []

    def keep(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        captured.append((statement, parameters))

    event.listen(ledger.engine, "before_cursor_execute", keep)
    try:
        with ledger.engine.connect() as conn:
            check(conn, audit.AuditReport())
    finally:
        event.remove(ledger.engine, "before_cursor_execute", keep)
    statement, parameters = captured[-1]
    with ledger.engine.connect() as conn:
        driver = conn.connection.driver_connection
        assert driver is not None
        rows = driver.execute("EXPLAIN QUERY PLAN " + statement, parameters).fetchall()
    return "\n".join(str(r[-1]) for r in rows)


def test_start_balances_reach_each_stake_entry_through_its_transaction(tmp_path: Path) -> None:
    ledger = Ledger.open(str(tmp_path / "plan.sqlite3"))
    try:
        for user in ("ann", "bob"):
            ledger.create_user(user)
            ledger.deposit(user, 10_000, "test")
            ledger.buy_in(user, "t1", 5_000, "test")
        play_coin(ledger, {"A": 10, "B": 20}, {"A": "ann", "B": "bob"})
        plan = _plan(ledger, audit.check_start_balances)
        assert "ix_entries_tx" in plan, plan
        assert "ix_entries_account" not in plan, plan  # (every entry of the stack, per round)
    finally:
        ledger.close()
