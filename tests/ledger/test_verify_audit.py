"""`qipai verify ROUND_ID` and `qipai audit`: replays from the journal, and the exit codes that
tell an operator something is wrong."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from qipai.cli import app
from qipai.core.protocol import HOUSE, Posting, RoundResult
from qipai.games import PACKAGES
from qipai.ledger import Ledger
from tests.ledger.helpers import play_coin
from tests.ledger.tamper import tampering

PLAYERS = {"P1": "alice", "P2": "bob"}
runner = CliRunner()


@pytest.fixture(autouse=True)
def coin_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(PACKAGES, "coin", "tests.ledger.coin_game")
    yield


def cli_db(ledger: Ledger) -> str:
    """The `--db` value that reaches this test's database (a schema rides in the URL)."""
    if ledger.schema is None:
        return ledger.url
    return f"{ledger.url}?options=-csearch_path%3D{ledger.schema}"


def test_verify_passes_for_an_honest_round(funded: Ledger) -> None:
    rid, _ = play_coin(funded, {"P1": 100, "P2": 55}, PLAYERS)
    report = funded.verify_round(rid)
    assert report.ok, report.lines()
    names = [c.name for c in report.checks]
    assert names == [
        "records' MACs",
        "round's ledger facts",
        "seed matches commitment",
        "replay finished",
        "deal and result match the replay",
        "money",
    ]
    out = runner.invoke(app, ["verify", rid, "--db", cli_db(funded)])
    assert out.exit_code == 0, out.output
    assert "OK" in out.output.splitlines()[0]
    out = runner.invoke(app, ["verify", rid, "--db", cli_db(funded), "--json"])
    assert out.exit_code == 0 and json.loads(out.output)["ok"] is True


def test_verify_catches_a_swapped_seed(funded: Ledger) -> None:
    rid, _ = play_coin(funded, {"P1": 100, "P2": 55}, PLAYERS)
    with tampering(funded) as conn:  # the revealed seed is swapped for another
        conn.execute(text("UPDATE seed_reveals SET seed = :s"), {"s": "ab" * 32})
    report = funded.verify_round(rid)
    assert not report.ok and not report.checks[0].ok
    out = runner.invoke(app, ["verify", rid, "--db", cli_db(funded)])
    assert out.exit_code == 1 and "FAIL seed matches commitment" in out.output


def test_verify_and_audit_catch_money_that_does_not_match_the_replay(funded: Ledger) -> None:
    rid, round_ = play_coin(funded, {"P1": 100}, {"P1": "alice"}, settle=False)
    honest = round_.result()
    # the operator's code settles a different result than the game gives: alice +1 extra
    crooked = RoundResult(
        tuple(
            Posting(
                p.account,
                p.amount + (1 if p.account == "P1" else -1 if p.account == HOUSE else 0),
                p.memo,
            )
            for p in honest.postings
        ),
        honest.details,
    )
    funded.settle_round(rid, crooked)
    report = funded.verify_round(rid)
    failed = {c.name for c in report.checks if not c.ok}
    assert failed == {"deal and result match the replay", "money"}
    audit = funded.audit()
    assert not audit.ok and any("money" in v for v in audit.violations)
    assert audit.violations and not any("sum of all" in v for v in audit.violations)
    out = runner.invoke(app, ["audit", "--db", cli_db(funded)])
    assert out.exit_code == 1 and "VIOLATION" in out.output


def test_verify_open_and_unknown_rounds(funded: Ledger) -> None:
    rid, _ = play_coin(funded, {"P1": 100}, {"P1": "alice"}, settle=False)
    report = funded.verify_round(rid)
    assert not report.ok and report.checks[-1].name == "settled"
    out = runner.invoke(app, ["verify", "no-such-round", "--db", cli_db(funded)])
    assert out.exit_code == 2 and "no round" in out.output


def test_audit_passes_on_a_busy_honest_ledger(funded: Ledger) -> None:
    for i in range(3):
        play_coin(funded, {"P1": 10 + i, "P2": 30}, PLAYERS)
    play_coin(funded, {"P1": 10}, {"P1": "alice"}, settle=False)  # an open round is fine
    funded.withdraw("bob", 100, "w")
    report = funded.audit()
    assert report.ok, report.violations
    assert report.stats["deposits"] == 20_000 and report.stats["withdrawals"] == 100
    assert report.stats["sum_of_accounts"] == 19_900 and report.stats["rounds_replayed"] == 3
    out = runner.invoke(app, ["audit", "--db", cli_db(funded), "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["ok"] is True


@pytest.mark.parametrize(
    ("sql", "expect"),
    [
        ("UPDATE accounts SET balance = balance + 5 WHERE name = 'wallet:alice'", "entries sum"),
        (
            "UPDATE accounts SET balance = balance + 5 WHERE name = 'hold:stack:alice:t1'",
            "open holds",
        ),
        ("DELETE FROM hold_closures WHERE hold_id = 1", "still open"),
    ],
)
def test_audit_catches_tampering(funded: Ledger, sql: str, expect: str) -> None:
    play_coin(funded, {"P1": 100, "P2": 55}, PLAYERS)
    assert funded.audit().ok
    with tampering(funded) as conn:
        conn.execute(text(sql))
    report = funded.audit()
    assert not report.ok and any(expect in v for v in report.violations), report.violations
    out = runner.invoke(app, ["audit", "--db", cli_db(funded), "--no-replay"])
    assert out.exit_code == 1


def test_audit_catches_money_from_nowhere(funded: Ledger) -> None:
    funded.transfer({"external": -10, "stack:alice:t1": 10}, key="mint", kind="gift")
    report = funded.audit()
    assert any("gift transactions moved" in v for v in report.violations)


def test_audit_catches_a_round_whose_game_cannot_replay(
    funded: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    play_coin(funded, {"P1": 100}, {"P1": "alice"})
    monkeypatch.delitem(PACKAGES, "coin")
    report = funded.audit()
    assert any("replay" in v for v in report.violations)
