"""`qipai advise holdem-bonus` (GameSpec.advise, `advise.py`): the same decisions and exact EVs
as the hint's and the optimal bot's code; JSON numbers as numbers and exact values as integer
ratios (never strings); bad input one clear line on stderr."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from typer.testing import CliRunner

from qipai.cli import app
from qipai.core.cards import parse_cards
from qipai.games.holdem_bonus.strategy import river_decision, turn_decision

runner = CliRunner()


def run_json(*args: str) -> Any:
    out = runner.invoke(app, ["advise", "holdem-bonus", *args, "--json"])
    assert out.exit_code == 0, out.stderr
    return json.loads(out.stdout)


def exact(value: dict[str, int]) -> Fraction:
    return Fraction(value["numerator"], value["denominator"])


def no_numeric_strings(data: Any) -> None:
    """Every value that reads as a number is a JSON number, not text."""
    if isinstance(data, dict):
        for v in data.values():
            no_numeric_strings(v)
    elif isinstance(data, list):
        for v in data:
            no_numeric_strings(v)
    elif isinstance(data, str):
        with pytest.raises(ValueError):
            float(data.replace("/", "x"))


def test_turn_and_river_give_both_exact_evs() -> None:
    data = run_json("As", "Kd", "--board", "2c 7h 9s")
    want = turn_decision(parse_cards("As Kd"), parse_cards("2c 7h 9s"))
    assert data["decision"] == "turn" and data["action"] == want.action
    assert exact(data["ev"]["bet_exact"]) == want.ev_bet
    assert exact(data["ev"]["check_exact"]) == want.ev_check
    assert data["ev"]["bet"] == float(want.ev_bet)
    river = run_json("As", "Kd", "--board", "2c 7h 9s Jd", "--mode", "common")
    want = river_decision(parse_cards("As Kd"), parse_cards("2c 7h 9s Jd"))
    assert river["action"] == want.action and river["rule"] == "common"
    assert exact(river["ev"]["check_exact"]) == want.ev_check
    no_numeric_strings(data)
    no_numeric_strings(river)


def test_flop_decision_by_the_169_class_table() -> None:
    assert run_json("As", "Kd")["action"] == "play"
    fold = run_json("7c", "2d")
    assert fold["action"] == "fold" and fold["class"] == "72o"
    if fold["ev"] is not None:  # the enumeration's cache exists on this machine
        assert exact(fold["ev"]["play_exact"]) < -1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["As"], "two hole cards"),
        (["As", "Kd", "--board", "2c 7h"], "0, 3 or 4"),
        (["As", "Kd", "--board", "As 7h 9s"], "twice"),
        (["As", "Kd", "--mode", "bad"], "unknown rule 'bad'"),
        (["As", "Kd", "--seen", "2c"], "takes no --seen"),
    ],
)
def test_bad_input_is_a_clear_error(args: list[str], message: str) -> None:
    out = runner.invoke(app, ["advise", "holdem-bonus", *args])
    assert out.exit_code == 2 and message in out.stderr and out.stdout == ""
