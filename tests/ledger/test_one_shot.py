"""PostgreSQL: a write with nothing after its last statement is committed together with it (one
round trip: the statement checks everything itself). A refused one commits nothing and the caller
gets the same typed refusal as from the careful path."""

from __future__ import annotations

import pytest

from qipai.ledger import Fenced, InsufficientFunds, Ledger
from tests.ledger.helpers import play_coin

PLAYERS = {"P1": "alice", "P2": "bob"}


@pytest.fixture
def pg(funded: Ledger) -> Ledger:
    if funded.dialect != "postgresql":
        pytest.skip("the one-shot commit is PostgreSQL's")
    return funded


def test_plain_writes_commit_with_their_statement(pg: Ledger) -> None:
    before = pg.stats()
    rid, _ = play_coin(pg, {"P1": 10, "P2": 20}, PLAYERS)
    after = pg.stats()
    # open_round (its second statement), every journal append and the settlement
    assert after["one_shot"] - before["one_shot"] >= 3
    assert after["one_shot"] - before["one_shot"] == after["commits"] - before["commits"]
    assert pg.round(rid)["status"] == "settled"
    assert pg.audit(replay=False, app_role="qipai_app").ok


def test_a_refused_one_shot_commits_nothing_and_names_the_refusal(pg: Ledger) -> None:
    balances = pg.balances()
    heads = pg.audit(replay=False).heads
    with pytest.raises(InsufficientFunds, match="wallet:alice holds 9000"):
        pg.transfer({"wallet:alice": -9_001, "wallet:bob": 9_001}, key="too-much")
    epoch = pg.claim_table("t1", "host-a", 30)
    assert epoch is not None
    rid, round_ = play_coin(pg, {"P1": 10}, {"P1": "alice"}, settle=False)
    assert pg.claim_table("t1", "host-a", 30) == epoch + 1  # (the host claimed it again)
    with pytest.raises(Fenced, match="stale"):
        pg.settle_round(rid, round_.result(), fence=("t1", epoch))
    assert pg.round(rid)["status"] == "open"
    after = pg.balances()
    moved = {k: after.get(k, 0) - balances.get(k, 0) for k in set(after) | set(balances)}
    assert {k: v for k, v in moved.items() if v} == {
        "stack:alice:t1": -10,
        "hold:stack:alice:t1": 10,
    }
    report = pg.audit(replay=False, app_role="qipai_app")
    assert report.ok, report.violations
    assert report.heads["ledger"] == heads["ledger"]  # the refused transfer left no record
