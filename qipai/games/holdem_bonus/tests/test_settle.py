"""`qipai settle` for Hold'em Bonus: the issue's example, and bad input refused with exit 2."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from qipai.core.errors import InvalidInput
from qipai.games import settle_document

EXAMPLE: dict[str, Any] = {
    "game": "holdem-bonus",
    "board": ["Ah", "Kd", "7c", "7d", "2s"],
    "dealer": ["Qs", "Qh"],
    "pool": {"balance": 1000000, "stake": 100, "contribution": "0.5", "seed": 500000},
    "seats": {
        "1": {
            "hole": ["As", "Ad"],
            "ante": 100,
            "bonus": 100,
            "pool": True,
            "flop": True,
            "turn": True,
            "river": False,
        },
        "2": {"hole": ["Ks", "Kh"], "ante": 200, "bonus": 200, "pool": True, "flop": False},
        "3": {"hole": ["Qd", "Jd"], "ante": 100, "flop": True, "turn": True, "river": True},
    },
}


def test_the_issue_example() -> None:
    out = settle_document(EXAMPLE)
    s1, s2, s3 = (out["seats"][k] for k in ("1", "2", "3"))
    # Seat 1: aces full of sevens beat the dealer's queens and sevens: a win with a full house
    # pays the ante too; AA pays 30:1 on the bonus; the pool hand (AAA-K-7, trips) loses.
    assert s1["hand"]["category"] == "full_house"
    assert s1["hand"]["best_five"] == ["As", "Ah", "Ad", "7d", "7c"]
    assert s1["dealer_hand"]["category"] == "two_pair"
    assert s1["dealer_hand"]["best_five"] == ["Qs", "Qh", "7d", "7c", "Ah"]
    assert s1["outcome"] == "win"
    assert (s1["ante"], s1["flop"], s1["turn"], s1["river"]) == (100, 200, 100, 0)
    assert (s1["bonus"], s1["pool"], s1["net"]) == (3000, -100, 3300)
    # Seat 2 folded: loses the ante; KK still pays 10:1 on the bonus; the pool stake is lost.
    assert s2["outcome"] == "fold"
    assert (s2["ante"], s2["flop"], s2["bonus"], s2["pool"], s2["net"]) == (
        -200,
        0,
        2000,
        -100,
        1700,
    )
    # Seat 3: a pair of sevens (A-K-Q kickers) loses to the dealer's queens and sevens.
    assert s3["hand"]["category"] == "pair" and s3["outcome"] == "lose"
    assert (s3["ante"], s3["flop"], s3["turn"], s3["river"], s3["net"]) == (
        -100,
        -200,
        -100,
        -100,
        -500,
    )
    assert out["pool"]["balance_after"] == 1_000_100
    assert out["totals"] == {"players": 4500, "house": -4600, "jackpot": 100, "rounding": 0}


def test_pool_award_and_top_up_in_settle() -> None:
    doc = copy.deepcopy(EXAMPLE)
    doc["board"] = ["Th", "Jh", "Qh", "2c", "3d"]
    doc["dealer"] = ["9c", "9d"]
    doc["seats"] = {"4": {"hole": ["Ah", "Kh"], "ante": 100, "bonus": 100, "pool": True}}
    out = settle_document(doc)
    seat = out["seats"]["4"]
    assert seat["pool_hand"]["category"] == "royal_flush"
    assert seat["pool"] == 1_000_000 - 100
    assert seat["bonus"] == 2500 and seat["outcome"] == "fold"
    assert out["pool"]["awards"] == [
        {
            "box": "4",
            "category": "royal_flush",
            "percent": "100",
            "pool_before": 1_000_000,
            "amount": 1_000_000,
            "top_up": 500_000,
        }
    ]
    assert out["pool"]["balance_after"] == 500_000


def test_small_pairs_table() -> None:
    doc = copy.deepcopy(EXAMPLE)
    doc["bonus_table"] = "with-small-pairs"
    doc["seats"] = {"1": {"hole": ["9s", "9d"], "ante": 100, "bonus": 100}}
    assert settle_document(doc)["seats"]["1"]["bonus"] == 300


def bad(mutate: Any) -> dict[str, Any]:
    doc = copy.deepcopy(EXAMPLE)
    mutate(doc)
    return doc


BAD = {
    "duplicate card": bad(lambda d: d["seats"]["1"].update(hole=["Ah", "Ad"])),
    "river without turn": bad(lambda d: d["seats"]["1"].update(turn=False, river=True)),
    "turn after fold": bad(lambda d: d["seats"]["2"].update(turn=True)),
    "bonus not ante": bad(lambda d: d["seats"]["1"].update(bonus=50)),
    "bad card": bad(lambda d: d.update(board=["Ah", "Kd", "7c", "7d", "1s"])),
    "short board": bad(lambda d: d.update(board=["Ah", "Kd", "7c"])),
    "pool missing": bad(lambda d: d.pop("pool")),
    "float ante": bad(lambda d: d["seats"]["1"].update(ante=100.0)),
    "unknown field": bad(lambda d: d["seats"]["1"].update(insurance=5)),
    "bad table": bad(lambda d: d.update(bonus_table="generous")),
    "float contribution": bad(lambda d: d["pool"].update(contribution=0.5)),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_input_is_refused(name: str) -> None:
    with pytest.raises(InvalidInput):
        settle_document(BAD[name])


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("duplicate card", "duplicate card Ah"),
        ("river without turn", "river bet needs a turn bet"),
    ],
)
def test_cli_exit_code_2(name: str, message: str) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "qipai.cli", "settle", "-"],
        input=json.dumps(BAD[name]),
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 2
    assert message in out.stderr
    assert out.stdout == ""


def test_cli_settles_the_example() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "qipai.cli", "settle", "-"],
        input=json.dumps(EXAMPLE),
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["pool"]["balance_after"] == 1_000_100


EXAMPLES = sorted((Path(__file__).parents[1] / "examples").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_settle_or_are_refused(path: Path) -> None:
    doc = json.loads(path.read_text())
    if path.stem.startswith("bad-"):
        with pytest.raises(InvalidInput):
            settle_document(doc)
    else:
        out = settle_document(doc)
        assert (
            out["totals"]["players"]
            + out["totals"]["house"]
            + out["totals"]["jackpot"]
            + out["totals"]["rounding"]
            == 0
        )
