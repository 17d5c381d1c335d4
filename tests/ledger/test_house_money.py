"""House money in the books (docs/operators.md): bots play from the house bot bankroll and return to it,
jackpot pools are funded from the house jackpot account, operator corrections are new
transactions with a reason; and a round keeps its identification (`meta`)."""

from __future__ import annotations

import pytest

from qipai.core.protocol import Seat
from qipai.core.rng import new_seed
from qipai.ledger import InsufficientFunds, Ledger, MissingReason, RoundStateError, UnknownAccount
from qipai.ledger.terms import terms_hash


def test_bots_buy_in_from_the_bankroll_and_cash_out_to_it(ledger: Ledger) -> None:
    ledger.create_user("bot-1")
    ledger.bot_buy_in("bot-1", "t1", 2_000, "k1")
    assert ledger.stack("bot-1", "t1") == 2_000
    assert ledger.balance("house-bots") == -2_000
    # nothing came from outside: no deposit was minted for the bot
    assert ledger.balance("external") == 0 and ledger.wallet("bot-1") == 0
    ledger.transfer({"stack:bot-1:t1": -300, "house": 300}, key="bot-lost")
    back = ledger.bot_cash_out("bot-1", "t1", "k2")
    assert back.amount("house-bots") == 1_700 and ledger.stack("bot-1", "t1") == 0
    assert ledger.balance("house-bots") == -300  # the house lost 300 through its bot...
    assert ledger.balance("house") == 300  # ...that the table's house side won
    assert ledger.bot_cash_out("bot-1", "t1", "k2").replayed
    with pytest.raises(UnknownAccount):
        ledger.bot_buy_in("nobody", "t1", 5, "k3")
    assert ledger.audit().ok


def test_bot_cash_out_of_an_amount_is_guarded(ledger: Ledger) -> None:
    ledger.create_user("bot-2")
    ledger.bot_buy_in("bot-2", "t1", 100, "k1")
    with pytest.raises(InsufficientFunds):
        ledger.bot_cash_out("bot-2", "t1", "k2", amount=101)
    ledger.bot_cash_out("bot-2", "t1", "k3", amount=40)
    assert ledger.stack("bot-2", "t1") == 60 and ledger.balance("house-bots") == -60


def test_adjustments_carry_reason_and_operator(funded: Ledger) -> None:
    tx = funded.adjust(
        {"wallet:alice": 250, "house": -250},
        reason="goodwill for ticket 7",
        operator="op1",
        key="a1",
    )
    assert tx.kind == "adjustment" and tx.memo == "goodwill for ticket 7"
    assert tx.detail == {"operator": "op1", "reason": "goodwill for ticket 7"}
    assert funded.wallet("alice") == 9_250
    same = funded.adjust(
        {"wallet:alice": 250, "house": -250},
        reason="goodwill for ticket 7",
        operator="op1",
        key="a1",
    )
    assert same.replayed and same.tx_id == tx.tx_id
    for reason, operator in (("", "op1"), ("  ", "op1"), ("why", ""), ("why", None)):
        with pytest.raises(MissingReason):
            funded.adjust(
                {"wallet:alice": 1, "house": -1},
                reason=reason,
                operator=operator,  # type: ignore[arg-type]
                key="a2",
            )
    with pytest.raises(UnknownAccount, match="cannot be adjusted"):
        funded.adjust({"external": -5, "wallet:alice": 5}, reason="mint", operator="op1", key="a3")
    with pytest.raises(UnknownAccount, match="cannot be adjusted"):
        funded.adjust({"hold:stack:alice:t1": 5, "house": -5}, reason="x", operator="op1", key="a4")
    with pytest.raises(InsufficientFunds):
        funded.adjust(
            {"wallet:bob": -20_000, "house": 20_000}, reason="x", operator="op1", key="a5"
        )
    assert funded.wallet("alice") == 9_250 and funded.wallet("bob") == 9_000
    undo = funded.reverse(tx.tx_id, reason="entered twice", operator="op2")
    assert undo.kind == "reversal" and undo.detail == {"operator": "op2", "reason": "entered twice"}
    assert funded.wallet("alice") == 9_000
    with pytest.raises(MissingReason):
        funded.reverse(tx.tx_id, key="r2", reason="", operator="op2")
    assert funded.audit().ok


def test_round_meta_is_stored_and_returned(funded: Ledger) -> None:
    meta = {
        "template": {"id": "pd-std", "version": 3},
        "config_hash": "ab" * 32,
        "engine_version": "pokdeng/2",
        "deal_spec": "deal-spec/1",
        "client_seeds": {"P1": "c0ffee"},
    }
    rid = funded.open_round(
        table_id="t1",
        game="coin",
        config={},
        seats=[Seat("P1", 1_000)],
        players={"P1": "alice"},
        seed=new_seed(),
        meta=meta,
    )
    # the ledger adds the hash of the settings the round is dealt under (qipai.ledger.terms)
    assert funded.round(rid)["meta"] == {**meta, "terms_hash": terms_hash({})}
    plain = funded.open_round(
        table_id="t1", game="coin", config={}, seats=[], players={}, seed=new_seed()
    )
    assert funded.round(plain)["meta"] is None
    for bad in (["not", "an", "object"], {"x": float("nan")}, {"x": object()}, {"x": "y" * 20_000}):
        with pytest.raises(RoundStateError, match="meta"):
            funded.open_round(
                table_id="t1",
                game="coin",
                config={},
                seats=[],
                players={},
                seed=new_seed(),
                meta=bad,  # type: ignore[arg-type]
            )


def test_void_round_needs_a_reason(funded: Ledger) -> None:
    rid = funded.open_round(
        table_id="t1", game="coin", config={}, seats=[], players={}, seed=new_seed()
    )
    with pytest.raises(MissingReason):
        funded.void_round(rid, " ")
    assert funded.round(rid)["status"] == "open"
    funded.void_round(rid, "table closed")
    assert funded.round(rid)["status"] == "voided"


def test_audit_reports_bot_play_and_jackpot_movements_as_their_own_lines(
    funded: Ledger, tmp_path: object
) -> None:
    """The house's result from bot play and every jackpot pool's movements are lines of
    the audit report (and keys of its JSON)."""
    from typer.testing import CliRunner

    from qipai.cli import app
    from qipai.core.protocol import HOUSE, JACKPOT, Posting, RoundResult

    funded.create_user("bot-1")
    funded.bot_buy_in("bot-1", "t1", 1_000, "k1")
    funded.fund_pool("holdem", 5_000, "seed")

    def settle(players: dict[str, str], postings: list[Posting]) -> None:
        rid = funded.open_round(
            table_id="t1",
            game="coin",
            config={},
            seats=[Seat(s, 0) for s in players],
            players=players,
            seed=new_seed(),
        )
        funded.settle_round(rid, RoundResult(tuple(postings)), jackpot_pool="holdem")

    settle({"P1": "bot-1"}, [Posting("P1", -100), Posting(HOUSE, 100)])  # the bot loses 100
    settle({"P1": "alice"}, [Posting("P1", -50), Posting(JACKPOT, 50)])  # a contribution
    settle({"P1": "bob"}, [Posting("P1", 200), Posting(JACKPOT, -200)])  # a jackpot won
    funded.adjust({"wallet:alice": 7, "house": -7}, reason="refund", operator="op1", key="a")
    report = funded.audit(replay=False)
    assert report.ok, report.violations
    bots = report.house["bots"]
    assert bots == {"bankroll": -1_000, "at_tables": 900, "result": -100}
    assert report.house["by_table"]["t1"] == 100
    pool = report.house["jackpot"]["pools"]["holdem"]
    assert pool == {
        "funding": 5_000,
        "seed": 0,
        "top_ups": 0,
        "contributions": 50,
        "awards": 200,
        "balance": 4_850,
    }
    assert report.house["jackpot"]["funding"] == 5_000
    assert report.house["adjustments"]["count"] == 1
    db = (
        funded.url
        if funded.schema is None
        else (f"{funded.url}?options=-csearch_path%3D{funded.schema}")
    )
    out = CliRunner().invoke(app, ["audit", "--db", db, "--no-replay"])
    assert out.exit_code == 0, out.output
    assert "house result from bot play: -100 (bankroll -1000, 900 still at tables)" in out.output
    assert (
        "jackpot pool holdem: funding 5000, seed 0, top-ups 0, contributions 50, awards 200, "
        "balance 4850" in out.output
    )
    assert "operator adjustments: 1" in out.output
