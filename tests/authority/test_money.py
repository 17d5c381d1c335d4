"""The money desk: demo deposits within a daily limit (a retry is the same deposit), requests an
operator approves when demo money is off, and that refusals move nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine

from qipai.authority import Authority, AuthoritySettings
from qipai.authority import errors as E
from qipai.authority.oplog import Actor
from qipai.ledger import Ledger
from tests.authority.conftest import Clock

OLGA = Actor("olga", "operator")


def test_demo_deposits_have_a_daily_limit(ledger: Ledger, clock: Clock) -> None:
    authority = Authority(
        ledger.engine, AuthoritySettings(demo_daily_limit=3_000), ledger=ledger, clock=clock
    )
    ledger.create_user("alice")
    assert authority.money.deposit("alice", 2_000, "k1")["demo_left_today"] == 1_000
    assert authority.money.deposit("alice", 2_000, "k1")["wallet"] == 2_000  # a retry
    with pytest.raises(E.Conflict):
        authority.money.deposit("alice", 500, "k1")
    with pytest.raises(E.DemoLimit) as over:
        authority.money.deposit("alice", 1_001)
    assert over.value.field == "amount"
    assert ledger.wallet("alice") == 2_000
    authority.money.deposit("alice", 1_000)
    for bad in (0, -5, True, 1.5, "100", 10**13):
        with pytest.raises(E.BadRequest):
            authority.money.deposit("alice", bad)
    clock.advance(86_400)
    assert authority.money.deposit("alice", 3_000)["demo_left_today"] == 0
    assert ledger.wallet("alice") == 6_000
    authority.players.set_limits("alice", OLGA, {"demo_daily_limit": 0, "reason": "abuse"})
    with pytest.raises(E.DemoLimit):
        authority.money.deposit("alice", 1)


def test_without_demo_money_operators_approve_requests(ledger: Ledger, engine: Engine) -> None:
    authority = Authority(engine, AuthoritySettings(demo=False), ledger=ledger)
    ledger.create_user("bob")
    pending = authority.money.deposit("bob", 5_000)
    assert pending["status"] == "pending" and ledger.wallet("bob") == 0
    rid = pending["request"]["id"]
    with pytest.raises(E.BadRequest):
        authority.money.decide(rid, True, OLGA, "")
    done = authority.money.decide(rid, True, OLGA, "bank transfer 42")
    assert done["status"] == "approved" and ledger.wallet("bob") == 5_000
    with pytest.raises(E.Conflict):
        authority.money.decide(rid, True, OLGA, "again")
    assert ledger.wallet("bob") == 5_000
    with pytest.raises(E.BadRequest):  # more than the wallet holds
        authority.money.request("bob", "withdrawal", 6_000)
    out = authority.money.request("bob", "withdrawal", 4_000)["request"]
    authority.money.decide(out["id"], False, OLGA, "identity not checked")
    assert ledger.wallet("bob") == 5_000
    out = authority.money.request("bob", "withdrawal", 4_000)["request"]
    assert authority.money.cancel("bob", out["id"])["status"] == "cancelled"
    with pytest.raises(E.NotFound):
        authority.money.cancel("bob", out["id"])
    for _ in range(5):
        authority.money.request("bob", "deposit", 1)
    with pytest.raises(E.Conflict):
        authority.money.request("bob", "deposit", 1)
    actions = [r["action"] for r in authority.log.entries()]
    assert actions == ["money.withdrawal.reject", "money.deposit.approve"]
