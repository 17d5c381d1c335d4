"""`qipai advise` for every game with a decision: the same answers as the hint and bot code,
JSON numbers as numbers and exact values as integer ratios (never strings)."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from typer.testing import CliRunner

from qipai.games.holdem_bonus.strategy import river_decision, turn_decision
from qipai.cli import app
from qipai.core.cards import parse_cards

runner = CliRunner()


def run_json(*args: str) -> Any:
    out = runner.invoke(app, ["advise", *args, "--json"])
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


def test_holdem_turn_and_river_give_both_exact_evs() -> None:
    data = run_json("holdem-bonus", "As", "Kd", "--board", "2c 7h 9s")
    want = turn_decision(parse_cards("As Kd"), parse_cards("2c 7h 9s"))
    assert data["decision"] == "turn" and data["action"] == want.action
    assert exact(data["ev"]["bet_exact"]) == want.ev_bet
    assert exact(data["ev"]["check_exact"]) == want.ev_check
    assert data["ev"]["bet"] == float(want.ev_bet)
    river = run_json("holdem-bonus", "As", "Kd", "--board", "2c 7h 9s Jd", "--mode", "common")
    want = river_decision(parse_cards("As Kd"), parse_cards("2c 7h 9s Jd"))
    assert river["action"] == want.action and river["rule"] == "common"
    assert exact(river["ev"]["check_exact"]) == want.ev_check
    no_numeric_strings(data)
    no_numeric_strings(river)


def test_holdem_flop_decision_by_the_169_class_table() -> None:
    assert run_json("holdem-bonus", "As", "Kd")["action"] == "play"
    fold = run_json("holdem-bonus", "7c", "2d")
    assert fold["action"] == "fold" and fold["class"] == "72o"
    if fold["ev"] is not None:  # the enumeration's cache exists on this machine
        assert exact(fold["ev"]["play_exact"]) < -1


def test_niuniu_json_values_are_numbers_and_ratios() -> None:
    data = run_json("niuniu", "2s", "5d", "Tc", "Jh")
    assert sorted(data["choices"][0]["discard"]) == ["2s", "5d"]
    assert data["by_multiplier"]["discard"] == []
    for choice in data["choices"]:
        assert isinstance(choice["expected_net"], float)
        assert exact(choice["expected_net_exact"]) == pytest.approx(choice["expected_net"])
    no_numeric_strings(data)


def test_paigow_expectation_is_the_published_exact_figure() -> None:
    data = run_json("paigow")
    # docs/rtp.md section 3: player RTP 97.0933 %, expectation −0.029067 per unit of A·X·Y.
    assert exact(data["player_expectation_exact"]) == Fraction(-4181, 143840)
    shown = run_json("paigow", "6-6", "6-6", "1-1", "1-1", "4-4", "4-4", "1-3", "1-3")
    assert shown["unseen"] == 24 and shown["player_expectation"] < 0
    no_numeric_strings(data)


def test_pokdeng_bets_by_exact_return() -> None:
    data = run_json("pokdeng")
    assert data["bets"][0]["bet"] == "player"
    assert exact(data["bets"][0]["rtp_exact"]) == Fraction(449692489, 461223945)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tiengow"], "no exact advisor"),
        (["mahjong"], "no advisor"),
        (["holdem-bonus", "As"], "two hole cards"),
        (["holdem-bonus", "As", "Kd", "--board", "2c 7h"], "0, 3 or 4"),
        (["holdem-bonus", "As", "Kd", "--board", "As 7h 9s"], "twice"),
        (["pokdeng", "--mode", "bad"], "mode"),
        (["niuniu", "2s", "5d", "Tc", "Jh", "--board", "2c"], "--board"),
    ],
)
def test_bad_input_is_a_clear_error(args: list[str], message: str) -> None:
    out = runner.invoke(app, ["advise", *args])
    assert out.exit_code == 2 and message in out.stderr and out.stdout == ""
