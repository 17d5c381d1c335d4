"""PostgreSQL: a write with nothing after its last statement is committed together with it (one
round trip: the statement checks everything itself). A refused one commits nothing and the caller
gets the same typed refusal as from the careful path."""

from __future__ import annotations

from collections.abc import Callable

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
    # open_round, every journal append and the settlement
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


def _open(ledger: Ledger, bets: dict[str, int]) -> str:
    from qipai.core.protocol import Seat
    from qipai.core.rng import new_seed
    from tests.ledger.coin_game import CoinConfig

    return ledger.open_round(
        table_id="t1",
        game="coin",
        config=CoinConfig().to_json(),
        seats=[Seat(seat, 0) for seat in PLAYERS],
        players=PLAYERS,
        seed=new_seed(),
        holds=bets,
    )


def test_an_opening_is_one_statement_and_a_stale_guess_of_the_start_balances_is_refused(
    pg: Ledger, ledger_factory: Callable[[], Ledger]
) -> None:
    """Opening a round at a table this process has written is ONE statement with its COMMIT:
    the headers are sealed with the players' start balances guessed from what this process
    last committed, and the statement checks the guess. When someone else moved a stack in
    between (another process, here a second Ledger on the same database), the guess is
    refused, nothing is written, and the careful way records the true start balance."""
    play_coin(pg, {"P1": 10, "P2": 20}, PLAYERS)  # this process now knows both stacks
    stacks = {seat: pg.stack(user, "t1") for seat, user in PLAYERS.items()}
    before = pg.stats()
    rid = _open(pg, {"P1": 10, "P2": 20})
    after = pg.stats()
    assert after["statements"] - before["statements"] == 1
    assert after["one_shot"] - before["one_shot"] == 1
    assert {p["seat"]: p["start_balance"] for p in pg.round(rid)["players"]} == stacks

    other = ledger_factory()
    other.deposit("alice", 500, "more")
    other.buy_in("alice", "t1", 500, "more")  # alice's stack moved behind pg's back
    stacks = {seat: pg.stack(user, "t1") for seat, user in PLAYERS.items()}
    rid2 = _open(pg, {"P1": 10, "P2": 20})
    assert {p["seat"]: p["start_balance"] for p in pg.round(rid2)["players"]} == stacks
    report = pg.audit(replay=False, app_role="qipai_app")
    assert report.ok, report.violations
