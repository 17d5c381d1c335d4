"""Double-entry posting: balanced transactions, non-negative balances, idempotency, append-only
entries and reversing corrections — on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from qipai.core.protocol import Posting
from qipai.ledger import (
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    Ledger,
    UnbalancedTransaction,
    UnknownAccount,
)
from qipai.ledger import db as dbm


def snapshot(ledger: Ledger) -> tuple[dict[str, int], int]:
    with ledger.engine.connect() as conn:
        n = conn.execute(text("SELECT COUNT(*) FROM entries")).scalar_one()
    return ledger.balances(), int(n)


def test_money_flow_wallet_stack_wallet(ledger: Ledger) -> None:
    ledger.create_user("alice")
    dep = ledger.deposit("alice", 5_000, "bank-1")
    assert dep.amount("wallet:alice") == 5_000 and dep.amount("external") == -5_000
    ledger.buy_in("alice", "t1", 2_000, "b1")
    assert ledger.wallet("alice") == 3_000 and ledger.stack("alice", "t1") == 2_000
    out = ledger.cash_out("alice", "t1", "c1")
    assert out.amount("wallet:alice") == 2_000 and ledger.stack("alice", "t1") == 0
    ledger.withdraw("alice", 4_500, "w1")
    assert ledger.balances() == {
        "external": -500,
        "stack:alice:t1": 0,
        "wallet:alice": 500,
    }
    assert ledger.audit().ok


def test_entries_carry_tx_time_account_amount_balance_after(ledger: Ledger) -> None:
    ledger.create_user("alice")
    before = datetime.now(UTC) - timedelta(seconds=5)
    ledger.deposit("alice", 700, "a")
    tx = ledger.deposit("alice", 300, "b")
    assert tx.balance_after("wallet:alice") == 1_000
    assert before <= tx.created_at <= datetime.now(UTC) + timedelta(seconds=5)
    assert tx.created_at.tzinfo is not None and tx.created_at.utcoffset() == timedelta(0)
    rows = ledger.statement("wallet:alice")
    assert [(r["amount"], r["balance_after"]) for r in rows] == [(300, 1_000), (700, 700)]
    assert rows[0]["tx_id"] == tx.tx_id and rows[0]["at"].endswith("+00:00")
    assert sum(e.amount for e in ledger.transaction(tx.tx_id).entries) == 0


def test_unbalanced_and_bad_amounts_are_refused_and_change_nothing(funded: Ledger) -> None:
    before = snapshot(funded)
    with pytest.raises(UnbalancedTransaction):
        funded.transfer({"stack:alice:t1": -100, "house": 99}, key="x1")
    with pytest.raises(UnbalancedTransaction):
        funded.transfer({}, key="x2")
    for bad in (0, -5, 1.5, True, "10"):
        with pytest.raises(InvalidAmount):
            funded.deposit("alice", bad, "bad")  # type: ignore[arg-type]
    with pytest.raises(UnknownAccount):
        funded.deposit("nobody", 10, "k")
    with pytest.raises(UnknownAccount):
        funded.transfer({"stack:nobody:t1": 5, "house": -5}, key="x3")
    with pytest.raises(UnknownAccount):
        funded.transfer({"bogus": 5, "house": -5}, key="x4")
    assert snapshot(funded) == before


def test_player_accounts_cannot_go_negative(funded: Ledger) -> None:
    before = snapshot(funded)
    with pytest.raises(InsufficientFunds):
        funded.withdraw("alice", 9_001, "w")
    with pytest.raises(InsufficientFunds):
        funded.buy_in("alice", "t1", 9_001, "b")
    with pytest.raises(InsufficientFunds):
        funded.transfer([Posting("stack:alice:t1", -1_001), Posting("house", 1_001)], key="t")
    with pytest.raises(InsufficientFunds):  # a jackpot pool cannot pay out more than it holds
        funded.transfer({"jackpot:t1": -1, "stack:alice:t1": 1}, key="j")
    assert snapshot(funded) == before
    # the house is the operator's result and may be negative
    funded.transfer({"house": -50, "stack:alice:t1": 50}, key="h")
    assert funded.balance("house") == -50


def test_database_check_constraint_backs_the_guard(funded: Ledger) -> None:
    """Even raw SQL that skips the guarded UPDATE cannot make a wallet negative."""
    with pytest.raises(DBAPIError), funded.engine.begin() as conn:
        conn.execute(text("UPDATE accounts SET balance = -1 WHERE name = 'wallet:alice'"))
    assert funded.wallet("alice") == 9_000


def test_entries_and_transactions_are_append_only(funded: Ledger) -> None:
    """The triggers refuse UPDATE and DELETE of every table that carries meaning — even for the
    schema's owner; on PostgreSQL the card room's role is refused before (no privilege)."""
    from qipai.ledger.schema import APPEND_ONLY
    from tests.ledger.conftest import OWNER_URL
    from tests.ledger.helpers import play_coin

    play_coin(funded, {"P1": 100}, {"P1": "alice"})  # a round: header, players, log, holds, end
    pg = funded.dialect == "postgresql"
    owner = dbm.create(OWNER_URL, schema=funded.schema) if pg else funded.engine
    try:
        for table in APPEND_ONLY:
            for sql in (
                f"UPDATE {table} SET {_a_column(table)} = {_a_column(table)}",
                f"DELETE FROM {table}",
            ):
                if pg:
                    with (
                        pytest.raises(DBAPIError, match="permission denied"),
                        funded.engine.begin() as conn,
                    ):
                        conn.execute(text(sql))
                with pytest.raises(DBAPIError, match="append-only"), owner.begin() as conn:
                    found = conn.execute(text(f"SELECT COUNT(*) FROM {table}")).scalar_one()
                    assert found, f"{table} has no row to try"
                    conn.execute(text(sql))
    finally:
        if pg:
            owner.dispose()
    assert funded.audit(replay=False).ok


def _a_column(table: str) -> str:
    from qipai.ledger.schema import metadata

    return next(c.name for c in metadata.tables[table].columns if not c.primary_key)


def test_idempotent_repeat_returns_first_result_and_posts_nothing(funded: Ledger) -> None:
    first = funded.deposit("alice", 250, "bank-77")
    after_first = snapshot(funded)
    again = funded.deposit("alice", 250, "bank-77")
    assert again.replayed and not first.replayed
    assert (again.tx_id, again.entries) == (first.tx_id, first.entries)
    assert snapshot(funded) == after_first
    with pytest.raises(IdempotencyConflict):
        funded.deposit("alice", 251, "bank-77")
    # keys are per user and per purpose: bob may use the same client key
    assert not funded.deposit("bob", 250, "bank-77").replayed
    # a refused request records nothing, so its key can be used once the money is there
    with pytest.raises(InsufficientFunds):
        funded.withdraw("alice", 20_000, "w-1")
    funded.deposit("alice", 20_000, "more")
    assert not funded.withdraw("alice", 20_000, "w-1").replayed


def test_buy_in_and_transfer_idempotency(funded: Ledger) -> None:
    a = funded.buy_in("alice", "t1", 100, "k")
    assert funded.buy_in("alice", "t1", 100, "k").tx_id == a.tx_id
    with pytest.raises(IdempotencyConflict):
        funded.buy_in("alice", "t2", 100, "k")
    t = funded.transfer({"stack:alice:t1": -10, "house": 10}, key="fee-1", memo="fee")
    assert funded.transfer({"house": 10, "stack:alice:t1": -10}, key="fee-1", memo="fee").replayed
    with pytest.raises(IdempotencyConflict):
        funded.transfer({"stack:alice:t1": -11, "house": 11}, key="fee-1", memo="fee")
    assert funded.balance("house") == 10 and t.kind == "transfer"


def test_correction_is_a_reversing_entry(funded: Ledger) -> None:
    wrong = funded.transfer({"stack:alice:t1": -300, "stack:bob:t1": 300}, key="oops")
    fix = funded.reverse(wrong.tx_id)
    assert fix.kind == "reversal"
    assert {e.account: e.amount for e in fix.entries} == {
        "stack:alice:t1": 300,
        "stack:bob:t1": -300,
    }
    assert funded.stack("alice", "t1") == 1_000 and funded.stack("bob", "t1") == 1_000
    assert funded.reverse(wrong.tx_id).replayed  # one reversal per transaction by default
    history = funded.statement("stack:alice:t1")
    assert [r["amount"] for r in history[:2]] == [300, -300]  # both lines remain
    assert funded.audit().ok


def test_cash_out_whole_stack_and_empty_stack(funded: Ledger) -> None:
    tx = funded.cash_out("alice", "t1", "all")
    assert tx.amount("wallet:alice") == 1_000 and funded.stack("alice", "t1") == 0
    empty = funded.cash_out("alice", "t1", "again")
    assert empty.entries == ()
    assert funded.cash_out("alice", "t1", "all").replayed


def test_pools_and_house_accounts(funded: Ledger) -> None:
    funded.fund_pool("holdem", 5_000, "seed")
    # seeded from the house jackpot account, not the tables' house account
    assert funded.pool("holdem") == 5_000 and funded.balance("house-jackpot") == -5_000
    assert funded.balance("house") == 0
    assert funded.audit().ok


def test_reopening_runs_no_migration_and_keeps_data(ledger_factory: object) -> None:
    from collections.abc import Callable

    assert callable(ledger_factory)
    factory: Callable[[], Ledger] = ledger_factory  # type: ignore[assignment]
    first = factory()
    first.create_user("alice")
    first.deposit("alice", 42, "k")
    second = factory()
    assert second.wallet("alice") == 42


def test_account_names_parse_the_same_each_time_and_malformed_ones_stay_refused() -> None:
    from qipai.ledger import accounts as acct

    first = acct.parse("stack:alice:t1")
    assert acct.parse("stack:alice:t1") == first
    assert (first.kind, first.owner, first.table_id) == ("stack", "alice", "t1")
    for _ in range(2):  # a refusal is not remembered as an answer
        with pytest.raises(UnknownAccount):
            acct.parse("stack:alice:bad:name")
