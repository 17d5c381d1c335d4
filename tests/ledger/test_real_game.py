"""The journal and `qipai verify` with a real game: two Pok Deng rounds from one shoe (the same
seed, the second round starting from the first one's context), held and settled through the
ledger, then replayed and verified; a doctored journal fails verification."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from qipai.core.protocol import RecordedAction, Seat
from qipai.core.rng import Rng, commitment, new_seed
from qipai.ledger import Ledger
from qipai.ledger.journal import seat_key
from tests.ledger.tamper import tampering

pokdeng = pytest.importorskip("qipai.games.pokdeng")


def play_round(
    ledger: Ledger, seed: bytes, context: dict[str, object] | None, bets: dict[str, int]
) -> tuple[str, object]:
    config = pokdeng.CONFIG()
    seats = [Seat(p, ledger.stack(p, "t1")) for p in bets]
    players = {p: p for p in bets}
    rid = ledger.open_round(
        table_id="t1",
        game="pokdeng",
        config=config.to_json(),
        seats=seats,
        players=players,
        seed=seed,
        context=context,
    )
    round_ = pokdeng.ROUND.start(config, seats, Rng(seed), context)
    for player, amount in bets.items():
        # docs/rules/pokdeng.md#hold: a position bet of a takes 2a from the balance (stake + hold)
        ledger.authorize(
            f"stack:{player}:t1",
            2 * amount,
            key=seat_key(rid, player, "P1"),
            round_id=rid,
            seat=player,
            purpose="P1",
        )
        action = {"type": "bets", "bets": [{"spot": "P1", "amount": amount}], "done": True}
        events = round_.act(player, action)
        ledger.append(rid, RecordedAction(player, action), *events)
    assert round_.finished
    ledger.settle_round(rid, round_.result(), reveal_seed=False)
    return rid, round_


def test_pokdeng_rounds_verify_from_the_journal(funded: Ledger) -> None:
    seed = new_seed()
    bets = {"alice": 100, "bob": 200}
    rid1, round1 = play_round(funded, seed, None, bets)
    nxt = round1.next_round()  # type: ignore[attr-defined]
    assert nxt.reuse_seed
    rid2, round2 = play_round(funded, seed, dict(nxt.context), bets)
    for rid in (rid1, rid2):
        report = funded.verify_round(rid)
        assert report.ok, report.lines()
        assert funded.round(rid)["seed"] is None  # the shoe goes on: seed not yet revealed
    assert funded.reveal_seed(commitment(seed)) == 2
    audit = funded.audit()
    assert audit.ok, audit.violations
    # the money at the table only moved between the players, the house and rounding
    total = sum(funded.stack(p, "t1") for p in bets)
    assert total + funded.balance("house") + funded.balance("rounding") == 2 * 1_000
    for rid, round_ in ((rid1, round1), (rid2, round2)):
        result = round_.result()  # type: ignore[attr-defined]
        players = {p["seat"]: p for p in funded.round(rid)["players"]}
        for p in bets:
            assert players[p]["net"] == result.net(p)


def test_a_doctored_pokdeng_journal_fails_verification(funded: Ledger) -> None:
    rid, _ = play_round(funded, new_seed(), None, {"alice": 100, "bob": 100})
    with tampering(funded) as conn:  # the journal claims the deal came from later in the shoe
        conn.execute(
            text("UPDATE rounds SET context = :c WHERE id = :r"),
            {"c": '{"position": 12}', "r": rid},
        )
    report = funded.verify_round(rid)
    failed = {c.name for c in report.checks if not c.ok}
    assert "deal and result match the replay" in failed, report.lines()
    assert "seed matches commitment" not in failed  # the seed itself is still the committed one
    assert "records' MACs" in failed  # and verify, as the audit, names the edited header
    audit = funded.audit(replay=False)  # and the chain names the edited record without a replay
    assert any(f"round {rid} (header)" in v and "MAC" in v for v in audit.violations)
