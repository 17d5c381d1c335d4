"""`qipai settle` on the eight worked examples of pokdeng.zh.txt, and its refusals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from qipai.cli import app

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

# pokdeng.zh.txt 投注与派彩举例: (example, spot, taken, returned, P1 rank, banker rank)
SOURCE = [
    (1, "P1", 200, 300, "8", "5"),  # 退回300
    (2, "P1", 200, 400, "5", "4"),  # 退回400 (同花 2倍)
    (3, "P1", 200, 100, "1", "3"),  # 退回预扣金额100
    (4, "P1", 200, 0, "1", "7.4"),  # 闲家1輸掉200
    (5, "P1 pair", 100, 1200, "8", "7"),  # 退回1,200
    (6, "P1", 200, 200, "5", "5"),  # 和局, 退回200
    (7, "P1", 200, 300, "7.5", "0"),  # 退回300 (庄0点 1倍)
    (8, "P1", 200, 400, "9", "0"),  # 退回400 (9点同花 不受限制)
]

runner = CliRunner()


def run(doc: Any) -> tuple[int, str]:
    result = runner.invoke(app, ["settle", "-"], input=json.dumps(doc, ensure_ascii=False))
    return result.exit_code, result.output


@pytest.mark.parametrize(("n", "spot", "taken", "returned", "p1", "banker"), SOURCE)
def test_source_example(n: int, spot: str, taken: int, returned: int, p1: str, banker: str) -> None:
    result = runner.invoke(app, ["settle", str(EXAMPLES / f"example{n}.json")])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["hands"]["P1"]["rank"] == p1 and out["hands"]["B"]["rank"] == banker
    [bet] = out["bets"]
    assert (bet["spot"], bet["amount"], bet["taken"], bet["returned"]) == (
        spot,
        100,
        taken,
        returned,
    )
    assert bet["net"] == returned - taken
    assert out["totals"]["net"] + out["totals"]["house"] + out["totals"]["rounding"] == 0


def test_a_real_process_exits_2_with_one_line() -> None:
    doc = {
        "game": "pokdeng",
        "mode": "classic",
        "hands": {"B": ["Ad", "4h"]},
        "bets": [{"id": "1", "spot": "P1", "amount": 100}],
    }
    out = subprocess.run(
        [sys.executable, "-m", "qipai.cli", "settle", "-"],
        input=json.dumps(doc),
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "needs hand(s) P1" in out.stderr


GOOD = {
    "game": "pokdeng",
    "mode": "banker-player",
    "hands": {"P1": ["Ac", "7h"], "B": ["Ad", "4h"]},
    "bets": [{"id": "1", "spot": "B1", "amount": 101}, {"id": "2", "spot": "B pair", "amount": 5}],
}


def test_banker_player_document() -> None:
    code, output = run(GOOD)
    assert code == 0
    out = json.loads(output)
    b1, bpair = out["bets"]
    assert (b1["taken"], b1["returned"], b1["outcome"]) == (202, 101, "lose")
    assert (bpair["taken"], bpair["returned"]) == (5, 0)
    assert out["totals"] == {
        "taken": 207,
        "returned": 101,
        "net": -106,
        "house": 106,
        "rounding": 0,
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"mode": "poker"}, "mode 'poker'"),
        (
            {"bets": [{"id": "1", "spot": "P9", "amount": 1}]},
            "spot 'P9' is not a banker-player spot",
        ),
        ({"mode": "classic"}, "spot 'B1' is not a classic spot"),
        ({"bets": [{"id": "1", "spot": "P1", "amount": 1.5}]}, "amount: must be an integer"),
        ({"bets": [{"id": "1", "spot": "P1", "amount": 0}]}, "must be positive"),
        (
            {
                "bets": [
                    {"id": "1", "spot": "P1", "amount": 1},
                    {"id": "1", "spot": "P2", "amount": 1},
                ]
            },
            "duplicate bet id",
        ),
        ({"hands": {"P1": ["Ac", "7x"], "B": ["Ad", "4h"]}}, "hand P1: bad card '7x'"),
        ({"hands": {"P1": ["Ac"], "B": ["Ad", "4h"]}}, "hands.P1: needs at least 2 items"),
        ({"hands": {"P7": ["Ac", "7h"]}}, "unknown hand 'P7'"),
        (
            {
                "hands": {
                    "P1": ["Ac", "Ac"],
                    "P2": ["Ac", "Ac"],
                    "P3": ["Ac", "Ac"],
                    "P4": ["Ac", "Ac"],
                    "B": ["Ac", "4h"],
                }
            },
            "card Ac appears 9 times",
        ),
        ({"extra": 1}, "unexpected field 'extra'"),
    ],
)
def test_bad_input_is_refused_with_exit_2(change: dict[str, Any], message: str) -> None:
    code, output = run({**GOOD, **change})
    assert code == 2
    assert message in output, output
