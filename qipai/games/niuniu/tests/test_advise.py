"""`qipai advise niuniu` (GameSpec.advise, `advisor.command`): the 16 swaps ranked by expected
money against the banker; JSON numbers as numbers and exact values as integer ratios (never
strings); a board or a mode is refused by name."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from typer.testing import CliRunner

from qipai.cli import app

runner = CliRunner()


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


def test_json_values_are_numbers_and_ratios() -> None:
    out = runner.invoke(app, ["advise", "niuniu", "2s", "5d", "Tc", "Jh", "--json"])
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    assert sorted(data["choices"][0]["discard"]) == ["2s", "5d"]
    assert data["by_multiplier"]["discard"] == []
    for choice in data["choices"]:
        assert isinstance(choice["expected_net"], float)
        assert exact(choice["expected_net_exact"]) == pytest.approx(choice["expected_net"])
    no_numeric_strings(data)


@pytest.mark.parametrize(("option", "value"), [("--board", "2c"), ("--mode", "swap")])
def test_an_option_it_does_not_take_is_named(option: str, value: str) -> None:
    out = runner.invoke(app, ["advise", "niuniu", "2s", "5d", "Tc", "Jh", option, value])
    assert out.exit_code == 2 and out.stdout == ""
    assert f"niuniu advice takes no {option}" in out.stderr
