"""`qipai advise paigow` (GameSpec.advise, `advise.py`): each side's exact expectation for the
coming round given the tiles shown, the figure docs/rtp.md publishes; JSON numbers as numbers
and exact values as integer ratios."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from typer.testing import CliRunner

from qipai.cli import app

runner = CliRunner()


def run_json(*args: str) -> Any:
    out = runner.invoke(app, ["advise", "paigow", *args, "--json"])
    assert out.exit_code == 0, out.stderr
    return json.loads(out.stdout)


def exact(value: dict[str, int]) -> Fraction:
    return Fraction(value["numerator"], value["denominator"])


def test_expectation_is_the_published_exact_figure() -> None:
    data = run_json()
    # docs/rtp.md section 3: player RTP 97.0933 %, expectation −0.029067 per unit of A·X·Y.
    assert exact(data["player_expectation_exact"]) == Fraction(-4181, 143840)
    shown = run_json("6-6", "6-6", "1-1", "1-1", "4-4", "4-4", "1-3", "1-3")
    assert shown["unseen"] == 24 and shown["player_expectation"] < 0
    for key, value in data.items():
        if key.endswith("_exact") or key.startswith("p_"):
            assert set(value) == {"numerator", "denominator"}
            assert all(isinstance(v, int) for v in value.values())
        elif key in ("unseen", "player_expectation", "banker_gross_per_pairing"):
            assert isinstance(value, int | float) and not isinstance(value, bool)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["6-6", "6-6", "6-6"], "more often than the set holds it"),
        (["--board", "2c"], "takes no --board"),
        (["--mode", "push"], "takes no --mode"),
    ],
)
def test_bad_input_is_a_clear_error(args: list[str], message: str) -> None:
    out = runner.invoke(app, ["advise", "paigow", *args])
    assert out.exit_code == 2 and message in out.stderr and out.stdout == ""
