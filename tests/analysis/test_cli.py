"""`qipai rtp` and `qipai simulate` from the command line: JSON output, exact ratios, bad input."""

from __future__ import annotations

import json
from fractions import Fraction

from typer.testing import CliRunner

from qipai.cli import app

runner = CliRunner()


def test_rtp_json_carries_exact_ratios() -> None:
    result = runner.invoke(app, ["rtp", "pokdeng", "--mode", "classic", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    bet = data[0]["bets"][0]
    assert Fraction(bet["rtp"]["exact"]) == Fraction(449692489, 461223945)
    total = sum(Fraction(o["probability"]["exact"]) for o in bet["outcomes"])
    assert total == 1


def test_rtp_markdown_and_bad_input() -> None:
    ok = runner.invoke(app, ["rtp", "pokdeng", "--mode", "banker-player", "--markdown"])
    assert ok.exit_code == 0 and "| Bn | 96.7222 % |" in ok.output
    assert runner.invoke(app, ["rtp", "pokdeng", "--mode", "nope"]).exit_code == 2
    assert runner.invoke(app, ["rtp", "chess"]).exit_code == 2


def test_simulate_command() -> None:
    result = runner.invoke(app, ["simulate", "pokdeng", "--rounds", "300", "--seed", "5", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["rounds"] == 300 and {r["bet"] for r in data["bets"]} == {"Pn", "pair"}
    assert runner.invoke(app, ["simulate", "pokdeng", "--rounds", "1"]).exit_code == 2
