"""Holds: authorize, then capture or void exactly once — also under concurrent closers."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from qipai.ledger import (
    HoldClosed,
    IdempotencyConflict,
    InsufficientFunds,
    Ledger,
    LedgerError,
    UnknownAccount,
    UnknownHold,
)


def test_authorize_moves_money_into_the_hold_account(funded: Ledger) -> None:
    # docs/rules/pokdeng.md#hold: a Pok Deng position bet of a takes 2a from the balance
    hold = funded.authorize("stack:alice:t1", 200, key="r1:P1:stake", seat="P1")
    assert (hold.status, hold.amount, hold.account) == ("open", 200, "stack:alice:t1")
    assert funded.stack("alice", "t1") == 800
    assert funded.balance("hold:stack:alice:t1") == 200
    again = funded.authorize("stack:alice:t1", 200, key="r1:P1:stake", seat="P1")
    assert again.id == hold.id and funded.stack("alice", "t1") == 800
    with pytest.raises(IdempotencyConflict):
        funded.authorize("stack:alice:t1", 300, key="r1:P1:stake", seat="P1")
    with pytest.raises(InsufficientFunds):
        funded.authorize("stack:alice:t1", 801, key="too-much")
    with pytest.raises(UnknownAccount):
        funded.authorize("house", 1, key="house-hold")
    assert funded.audit().ok


def test_capture_takes_part_and_returns_the_rest_once(funded: Ledger) -> None:
    hold = funded.authorize("stack:alice:t1", 200, key="h")
    tx = funded.capture(hold.id, 100, "house")  # lost 1x of a 2x hold: 100 of 200 taken
    assert tx.amount("house") == 100 and tx.amount("stack:alice:t1") == 100
    assert funded.stack("alice", "t1") == 900 and funded.balance("hold:stack:alice:t1") == 0
    closed = funded.hold(hold.id)
    assert (closed.status, closed.captured, closed.close_tx) == ("captured", 100, tx.tx_id)
    assert funded.capture(hold.id, 100, "house").replayed  # same request: same answer
    with pytest.raises(HoldClosed):
        funded.capture(hold.id, 50, "house")
    with pytest.raises(HoldClosed):
        funded.void(hold.id)
    assert funded.stack("alice", "t1") == 900 and funded.audit().ok


def test_void_returns_everything_once(funded: Ledger) -> None:
    hold = funded.authorize("stack:bob:t1", 300, key="h")
    funded.void(hold.id)
    assert funded.stack("bob", "t1") == 1_000 and funded.hold(hold.id).status == "voided"
    with pytest.raises(HoldClosed):
        funded.capture(hold.id, 0, "house")
    with pytest.raises(HoldClosed):
        funded.void(hold.id, key="another-key")
    with pytest.raises(UnknownHold):
        funded.void(10_000)


def test_capture_more_than_held_is_refused(funded: Ledger) -> None:
    hold = funded.authorize("stack:bob:t1", 300, key="h")
    with pytest.raises(HoldClosed, match="cannot capture"):
        funded.capture(hold.id, 301, "house")
    assert funded.hold(hold.id).status == "open" and funded.stack("bob", "t1") == 700


def test_concurrent_closers_close_a_hold_exactly_once(funded: Ledger) -> None:
    holds = [funded.authorize("stack:alice:t1", 10, key=f"h{i}") for i in range(5)]

    def close(args: tuple[int, int]) -> str:
        hold_id, i = args
        try:
            if i % 2:
                funded.capture(hold_id, 10, "house", key=f"cap-{hold_id}-{i}")
            else:
                funded.void(hold_id, key=f"void-{hold_id}-{i}")
            return "ok"
        except LedgerError as exc:
            assert isinstance(exc, HoldClosed)
            return "closed"

    jobs = [(h.id, i) for h in holds for i in range(6)]
    with ThreadPoolExecutor(max_workers=6) as pool:
        outcomes = list(pool.map(close, jobs))
    assert outcomes.count("ok") == len(holds)
    assert funded.balance("hold:stack:alice:t1") == 0
    captured = sum(10 for h in holds if funded.hold(h.id).status == "captured")
    assert funded.balance("house") == captured
    assert funded.stack("alice", "t1") == 1_000 - captured
    assert funded.audit().ok
