"""`qipai verify ROUND_ID` prints the deal after the ledger's checks; `qipai verify --offline
FILE` checks an exported round without any database."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from qipai.cli import app
from qipai.core.protocol import RecordedAction, Seat
from qipai.core.rng import Rng, new_seed
from qipai.fairness import export_round
from qipai.games import pokdeng
from qipai.ledger import Ledger
from qipai.ledger.journal import seat_key
from tests.fairness.units import make_unit

runner = CliRunner()


def _pokdeng_round(ledger: Ledger) -> tuple[str, pokdeng.PokDengRound]:
    for user in ("alice", "bob"):
        ledger.create_user(user)
        ledger.deposit(user, 10_000, "seed")
        ledger.buy_in(user, "t1", 1_000, "seed")
    config = pokdeng.CONFIG()
    seats = [Seat(p, ledger.stack(p, "t1")) for p in ("alice", "bob")]
    seed = new_seed()
    rid = ledger.open_round(
        table_id="t1",
        game="pokdeng",
        config=config.to_json(),
        seats=seats,
        players={"alice": "alice", "bob": "bob"},
        seed=seed,
    )
    round_ = pokdeng.ROUND.start(config, seats, Rng(seed), None)
    for player in ("alice", "bob"):
        ledger.authorize(
            f"stack:{player}:t1",
            200,
            key=seat_key(rid, player, "P1"),
            round_id=rid,
            seat=player,
            purpose="P1",
        )
        action = {"type": "bets", "bets": [{"spot": "P1", "amount": 100}], "done": True}
        ledger.append(rid, RecordedAction(player, action), *round_.act(player, action))
    ledger.settle_round(rid, round_.result(), reveal_seed=True)
    return rid, round_


def test_verify_round_id_prints_the_deal(tmp_path: Path) -> None:
    db = str(tmp_path / "ledger.sqlite3")
    with Ledger.open(db) as ledger:
        rid, round_ = _pokdeng_round(ledger)
    out = runner.invoke(app, ["verify", rid, "--db", db])
    assert out.exit_code == 0, out.output
    assert "OK" in out.output.splitlines()[0]  # the ledger's verdict comes first
    for spot, hand in round_.hands.items():
        assert f"{spot}: {' '.join(hand.text)}" in out.output
        assert f"ok   hands {spot} as dealt" in out.output
    assert "burn " in out.output and "shoe order: " in out.output
    body = json.loads(runner.invoke(app, ["verify", rid, "--db", db, "--json"]).output)
    assert body["ok"] and body["ledger"]["ok"] and body["deal"]["ok"]
    assert body["deal"]["deal"]["hands"]["B"] == list(round_.hands["B"].text)


def test_verify_offline_checks_an_export_without_a_database(tmp_path: Path) -> None:
    for game in ("pokdeng", "paigow", "holdem-bonus", "niuniu", "tiengow"):
        unit = make_unit(game, 7)
        path = tmp_path / f"{game}.json"
        export = export_round(unit.record, operator=True)
        path.write_text(json.dumps({"round_id": "x", "other": 1, **export}), encoding="utf-8")
        out = runner.invoke(app, ["verify", "--offline", str(path)])
        assert out.exit_code == 0, out.output
        assert out.output.rstrip().endswith("OK")
        # the API body may also carry the export under "fairness"
        path.write_text(json.dumps({"fairness": export}), encoding="utf-8")
        assert runner.invoke(app, ["verify", "--offline", str(path), "--json"]).exit_code == 0
        # a deal the table did not deal fails
        export["seed"] = new_seed().hex()
        path.write_text(json.dumps(export), encoding="utf-8")
        out = runner.invoke(app, ["verify", "--offline", str(path)])
        assert out.exit_code == 1 and "FAIL seed matches commitment" in out.output


def test_verify_bad_input_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"format": "something else"}', encoding="utf-8")
    out = runner.invoke(app, ["verify", "--offline", str(path)])
    assert out.exit_code == 2 and "not a round export" in out.output
    path.write_text("{nope", encoding="utf-8")
    assert runner.invoke(app, ["verify", "--offline", str(path)]).exit_code == 2
    assert runner.invoke(app, ["verify", "--offline", str(tmp_path / "missing")]).exit_code == 2
    out = runner.invoke(app, ["verify"])
    assert out.exit_code == 2 and "ROUND_ID or --offline" in out.output
    assert runner.invoke(app, ["verify", "r1", "--offline", str(path)]).exit_code == 2
