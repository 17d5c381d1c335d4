"""PostgreSQL: "still open" (a hold without a closure, a round without an end) is asked as NOT
EXISTS, never `NOT IN (SELECT …)`. PostgreSQL cannot make NOT IN an anti-join: it hashes the
subquery while it fits in `work_mem` and past that compares every row with every other — on
600,000 rounds the open-rounds question did not finish in minutes (NOT EXISTS: 0.41 s), which
would stall a card room's start-up and `qipai audit` on big books (`schema.hold_is_open`,
`schema.round_is_open`). Checked through PostgreSQL's own plans of the statements the ledger
sends (no timing)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import event

from qipai.ledger import Ledger
from tests.ledger.conftest import pg_database
from tests.ledger.helpers import play_coin

PER_ROW_SUBQUERY = ("NOT (hashed SubPlan", "NOT (SubPlan")
"""How a plan shows NOT IN (SELECT …): the subquery's rows hashed (or, too many to hash, read
again) for every row of the outer query."""


def _plans(ledger: Ledger, work: Callable[[], Any]) -> dict[str, str]:
    """The SELECTs `work` sends that ask what is still open, each with its plan."""
    captured: list[tuple[str, Any]] = []

    def keep(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT") and (
            "hold_closures" in statement or "round_ends" in statement
        ):
            captured.append((statement, parameters))

    event.listen(ledger.engine, "before_cursor_execute", keep)
    try:
        work()
    finally:
        event.remove(ledger.engine, "before_cursor_execute", keep)
    plans = {}
    with ledger.engine.connect() as conn:
        driver = conn.connection.driver_connection
        assert driver is not None
        for statement, parameters in captured:
            rows = driver.execute("EXPLAIN " + statement, parameters).fetchall()
            plans[statement] = "\n".join(str(r[0]) for r in rows)
        driver.rollback()
    return plans


@pytest.mark.postgres
def test_open_rounds_and_holds_are_anti_joins_not_per_row_subqueries() -> None:
    with pg_database("qipai_open") as (app_url, _owner_url, schema):
        ledger = Ledger.open(app_url, schema=schema)
        cold = None
        try:
            players = {"P1": "ann", "P2": "bob"}
            for user in players.values():
                ledger.create_user(user)
                ledger.deposit(user, 1_000, "d")
                ledger.buy_in(user, "t1", 500, f"b-{user}")
            play_coin(ledger, {"P1": 10, "P2": 20}, players)
            rid, round_ = play_coin(ledger, {"P1": 10, "P2": 20}, players, settle=False)
            cold = Ledger.open(app_url, schema=schema)  # knows nothing: reads the round's holds

            def recovery() -> None:  # what a card room asks at start
                assert [r["round_id"] for r in ledger.open_rounds()] == [rid]
                assert [r["round_id"] for r in ledger.open_rounds("t1")] == [rid]

            plans = _plans(ledger, recovery)
            plans |= _plans(cold, lambda: cold.settle_round(rid, round_.result()))
            plans |= _plans(ledger, lambda: ledger.audit(replay=False))
        finally:
            if cold is not None:
                cold.close()
            ledger.close()
    asked = " ".join(plans)
    assert "round_ends" in asked and "hold_closures" in asked, "no statement asked what is open"
    wrong = {s: p for s, p in plans.items() if any(m in p for m in PER_ROW_SUBQUERY)}
    assert not wrong, wrong
