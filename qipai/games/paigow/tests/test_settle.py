"""`qipai settle` for Pai Gow, the source's cap example and the example rounds (docs/rules/paigow.md#settlement)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from qipai.cli import app
from qipai.core.errors import InvalidInput
from qipai.games import settle_document

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
runner = CliRunner()


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    return data


def nets(out: dict[str, Any]) -> dict[str, tuple[int, int, int, int]]:
    return {s: (r["raw"], r["gross"], r["commission"], r["net"]) for s, r in out["seats"].items()}


def test_source_cap_example_banker_brings_80_and_collects_80_not_300() -> None:
    # Source 防以小博大: "您本局帶入80,有3個輸家輸錢給你,計算時你理論應得300 … 最多只能贏80"
    out = settle_document(load("cap-example.json"))
    assert out["seats"]["S1"]["raw"] == 300
    assert out["seats"]["S1"]["gross"] == 80  # collects exactly its stack
    assert nets(out) == {
        "S1": (300, 80, 4, 76),  # 5 % commission on the net win of 80
        "S2": (-100, -27, 0, -27),  # 80 split in proportion 1:1:1, largest remainder
        "S3": (-100, -27, 0, -27),
        "S4": (-100, -26, 0, -26),
    }
    assert out["capped"] is True and out["commission"] == 4
    assert sum(p["amount"] for p in out["postings"]) == 0
    # Source 結算公式: "有效投注額的計算:玩家的輸贏值" — a seat's valid bet is the amount it won or
    # lost in the round (after the cap, before commission).
    assert {s: r["valid_bet"] for s, r in out["seats"].items()} == {
        "S1": 80,
        "S2": 27,
        "S3": 27,
        "S4": 26,
    }


def test_issue_example_commission_is_on_the_banker_net() -> None:
    out = settle_document(load("issue-example.json"))
    assert {s: (h["zh"], h["en"], h["rank"]) for s, h in out["hands"].items()} == {
        "S1": ("天王", "Heaven King (Wong)", 17),
        "S2": ("至尊宝", "Supreme (Gee Joon)", 1),
        "S3": ("地高九", "Earth High Nine", 22),
        "S4": ("七点", "seven points", 25),
    }
    assert [(p["player"], p["winner"], p["amount"]) for p in out["pairings"]] == [
        ("S2", "player", 600),  # A·X·Y = 100·2·3
        ("S3", "banker", 200),
        ("S4", "banker", 400),
    ]
    assert nets(out) == {
        "S1": (0, 0, 0, 0),  # +600 −600 nets to 0: no commission
        "S2": (600, 600, 30, 570),
        "S3": (-200, -200, 0, -200),
        "S4": (-400, -400, 0, -400),
    }


def test_banker_losing_more_than_its_stack_pays_winners_in_proportion() -> None:
    out = settle_document(load("banker-loses-cap.json"))
    assert nets(out) == {
        "S1": (1000, 417, 20, 396),  # 1000:800:600 of 1000 = 416.67, 333.33, 250
        "S2": (800, 333, 16, 316),
        "S3": (600, 250, 12, 237),
        "S4": (-2400, -1000, 0, -1000),
    }
    assert out["rounding"] == 3  # e.g. 417·0.95 = 396.15 → 396, 417·0.05 = 20.85 → 20: 1 unit


def test_short_stacked_players_are_capped_at_their_stack() -> None:
    out = settle_document(load("player-cap.json"))
    assert nets(out) == {
        "S1": (2000, 150, 7, 142),
        "S2": (-400, -400, 0, -400),
        "S3": (400, 340, 17, 323),
        "S4": (-2000, -90, 0, -90),
    }


def test_tie_policy_push_and_the_swap_tiebreak_examples() -> None:
    out = settle_document(load("push-policy.json"))
    assert out["pairings"][0]["winner"] == "push"  # both 0 points
    banker_rule = copy.deepcopy(load("push-policy.json"))
    banker_rule["tie_policy"] = "banker"
    assert settle_document(banker_rule)["pairings"][0]["winner"] == "banker"
    swap = settle_document(load("swap-tiebreak.json"))
    assert swap["hands"]["S2"]["points"] == 9 and swap["hands"]["S2"]["values"] == [6, 3]
    assert swap["pairings"][0] == {
        "player": "S2",
        "banker": "S1",
        "winner": "player",  # 零霖六+二四 beats 零霖六+丁三
        "amount": 100,
        "raw": 100,
    }


def test_named_high_nine_and_used_tiles() -> None:
    out = settle_document(load("round2-used-tiles.json"))
    assert out["hands"]["S1"]["zh"] == "九点" and out["hands"]["S2"]["zh"] == "九点"
    assert out["pairings"][0]["winner"] == "player"  # 天 + 3-4 v 地 + 2-5: the higher tile
    doc = load("round2-used-tiles.json")
    doc["used_tiles"].append("6-6")  # a third 天
    with pytest.raises(InvalidInput, match="6-6"):
        settle_document(doc)


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.json")))
def test_every_example_runs_through_the_cli(name: str) -> None:
    out = runner.invoke(app, ["settle", str(EXAMPLES / name)])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert sum(p["amount"] for p in data["postings"]) == 0
    for hand in data["hands"].values():
        assert hand["zh"] and hand["en"] and 1 <= hand["rank"] <= 32


def broken(change: str) -> dict[str, Any]:
    doc = load("issue-example.json")
    seats = doc["seats"]
    if change == "unknown tile":
        seats["S2"]["tiles"] = ["1-2", "7-7"]
    elif change == "tile twice":
        seats["S3"]["tiles"] = ["4-5", "1-6"]  # 4-5 is also S1's; the set has one
    elif change == "three seats":
        del seats["S4"]
    elif change == "five seats":
        seats["S5"] = {"stack": 1, "multiple": 1, "tiles": ["5-5", "5-5"]}
    elif change == "banker bets":
        seats["S1"]["multiple"] = 1
    elif change == "no multiple":
        del seats["S2"]["multiple"]
    elif change == "bet 6":
        seats["S2"]["multiple"] = 6
    elif change == "bid 5":
        doc["banker_multiple"] = 5
    elif change == "banker absent":
        doc["banker"] = "S9"
    elif change == "one tile":
        seats["S2"]["tiles"] = ["1-2"]
    elif change == "negative stack":
        seats["S2"]["stack"] = -1
    elif change == "float stack":
        seats["S2"]["stack"] = 800.5
    elif change == "unknown field":
        doc["bsae"] = 100
    elif change == "float commission":
        doc["commission"] = 0.05
    elif change == "bad policy":
        doc["tie_policy"] = "player"
    return doc


@pytest.mark.parametrize(
    "change",
    [
        "unknown tile",
        "tile twice",
        "three seats",
        "five seats",
        "banker bets",
        "no multiple",
        "bet 6",
        "bid 5",
        "banker absent",
        "one tile",
        "negative stack",
        "float stack",
        "unknown field",
        "float commission",
        "bad policy",
    ],
)
def test_bad_input_exits_2_with_one_clear_line(change: str) -> None:
    doc = broken(change)
    with pytest.raises(InvalidInput):
        settle_document(doc)
    out = runner.invoke(app, ["settle", "-"], input=json.dumps(doc))
    assert out.exit_code == 2 and out.stdout == ""
    assert out.stderr.startswith("error: ") and out.stderr.count("\n") == 1, out.stderr


def test_cli_end_to_end_json_and_bad_input_exit_2() -> None:
    # The one real-subprocess CLI test: `python -m qipai.cli settle` prints the JSON result, and
    # a bad document (a tile used twice) exits 2 with one line on stderr; the other CLI cases
    # run in-process above.
    ok = subprocess.run(
        [sys.executable, "-m", "qipai.cli", "settle", str(EXAMPLES / "cap-example.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert nets(json.loads(ok.stdout))["S1"] == (300, 80, 4, 76)
    bad = subprocess.run(
        [sys.executable, "-m", "qipai.cli", "settle", "-"],
        input=json.dumps(broken("tile twice")),
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("error: ") and bad.stderr.count("\n") == 1, bad.stderr
    assert "4-5" in bad.stderr
