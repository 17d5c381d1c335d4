"""`qipai advise pokdeng` (GameSpec.advise, `advise.py`): no decision after the deal, so the
bets of the mode by exact return, best first — the figures the table shows (GameSpec.rtp)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from qipai.cli import app
from qipai.games.pokdeng.spec import SPEC

runner = CliRunner()


def test_bets_by_exact_return() -> None:
    out = runner.invoke(app, ["advise", "pokdeng", "--json"])
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["bets"][0]["bet"] == "player"
    first = data["bets"][0]["rtp_exact"]
    assert Fraction(first["numerator"], first["denominator"]) == Fraction(449692489, 461223945)
    rtps = [b["rtp"] for b in data["bets"]]
    assert rtps == sorted(rtps, reverse=True)
    shown = {b.bet: b.rtp for b in SPEC.rtp(None) if b.rtp is not None}
    assert {b["bet"]: Fraction(**b["rtp_exact"]) for b in data["bets"]} == shown


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--mode", "bad"], "mode"),
        (["As", "Kd"], "give no cards"),
        (["--board", "2c"], "takes no --board"),
    ],
)
def test_bad_input_is_a_clear_error(args: list[str], message: str) -> None:
    out = runner.invoke(app, ["advise", "pokdeng", *args])
    assert out.exit_code == 2 and message in out.stderr and out.stdout == ""
