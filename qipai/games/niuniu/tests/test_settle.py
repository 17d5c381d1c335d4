"""`qipai settle` for Niu Niu: the source's worked example, caps, and bad input (exit 2)."""

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

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "source-example.json"
runner = CliRunner()


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return data


def test_source_example_through_the_cli() -> None:
    # Source (輸贏計算): 出 bets 2 with 牛一, 川 bets 3 with 牛二, 尾 bets 2 with 牛八, the banker
    # bid 3 with 牛六; base 100 → 出 −600, 川 −900, 尾 1200 − 4 % = 1,152, 莊 300 − 4 % = 288.
    out = runner.invoke(app, ["settle", str(EXAMPLE)])  # in-process; see test_cli_end_to_end
    assert out.exit_code == 0, out.stderr
    result = json.loads(out.stdout)
    hands = result["hands"]
    assert [hands[s]["zh"] for s in ("出", "川", "尾", "莊")] == ["牛一", "牛二", "牛八", "牛六"]
    assert [hands[s]["multiplier"] for s in ("出", "川", "尾", "莊")] == [1, 1, 2, 1]
    assert hands["尾"]["en"] == "bull 8" and len(hands["尾"]["bull_cards"]) == 3
    pair = result["pairings"]
    assert (pair["出"]["winner"], pair["出"]["raw"]) == ("莊", -600)
    assert (pair["川"]["winner"], pair["川"]["raw"]) == ("莊", -900)
    assert (pair["尾"]["winner"], pair["尾"]["raw"]) == ("尾", 1200)
    seats = result["seats"]
    assert {s: seats[s]["net"] for s in seats} == {"出": -600, "川": -900, "尾": 1152, "莊": 288}
    assert (seats["尾"]["gross"], seats["尾"]["commission"]) == (1200, 48)
    assert (seats["莊"]["gross"], seats["莊"]["commission"]) == (300, 12)
    assert result["commission"] == 60 and result["rounding"] == 0 and not result["capped"]
    assert sum(p["amount"] for p in result["postings"]) == 0


def test_cap_and_rounding() -> None:
    doc = example()
    doc["seats"]["莊"]["balance"] = 100  # the banker can lose only what it has
    doc["seats"]["出"]["balance"] = 250  # 出 can lose only 250 of its 600
    doc["commission"] = "0.035"
    result = settle_document(doc)
    seats = result["seats"]
    assert seats["出"]["gross"] == -250
    # Banker: +250 + 900 − 1200 = −50 ≥ −100: no banker cap; 尾 wins 1200, 3.5 % = 42.
    assert seats["莊"]["gross"] == -50 and seats["莊"]["net"] == -50
    assert seats["尾"]["commission"] == 42 and seats["尾"]["net"] == 1158
    assert result["capped"]
    doc["seats"]["川"]["balance"] = 0
    doc["seats"]["出"]["balance"] = 0
    result = settle_document(doc)
    # Now the banker would lose 1,200 but has 100: 尾's win is scaled to exactly 100.
    assert result["seats"]["莊"]["gross"] == -100
    assert result["seats"]["尾"]["gross"] == 100
    assert (
        result["seats"]["尾"]["net"]
        + result["seats"]["尾"]["commission"]
        + result["seats"]["尾"]["rounding"]
        == 100
    )
    assert sum(p["amount"] for p in result["postings"]) == 0
    for s in result["seats"].values():
        assert s["balance_after"] >= 0


def _broken(path: list[Any], value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(example())
    target: Any = doc
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (["base"], 0),
        (["base"], 1.5),
        (["commission"], 0.04),
        (["commission"], "abc"),
        (["banker"], "北"),
        (["banker_multiple"], KeyError),
        (["seats", "出", "cards"], ["Ks", "Qh", "Td", "5c"]),
        (["seats", "出", "cards"], ["Ks", "Qh", "Td", "5c", "6s"]),  # 6s is the banker's
        (["seats", "出", "cards"], ["Ks", "Qh", "Td", "5c", "Xx"]),
        (["seats", "出", "multiple"], 0),
        (["seats", "出", "multiple"], KeyError),
        (["seats", "出", "balance"], -1),
        (["seats", "出", "balance"], KeyError),
        (["seats", "出", "colour"], "red"),
        (["seats", "莊", "multiple"], 2),
        (["seats"], {}),
        (["extra"], 1),
        # docs/rules/niuniu.md#decisions Decisions: bets 1–5, banker bids 1–4, 2–5 seats.
        (["seats", "出", "multiple"], 6),
        (["banker_multiple"], 5),
    ],
)
def test_bad_input_is_refused(path: list[Any], value: Any) -> None:
    doc = _broken(path, value)
    with pytest.raises(InvalidInput):
        settle_document(doc)
    out = runner.invoke(app, ["settle", "-"], input=json.dumps(doc, ensure_ascii=False))
    assert out.exit_code == 2 and out.stdout == ""
    assert out.stderr.startswith("error: ") and out.stderr.count("\n") == 1, out.stderr


def test_seat_count_and_multiples_follow_the_table_settings() -> None:
    # docs/rules/niuniu.md#seats-and-deck Decision: 2–5 seats. Six seats of five distinct cards fit in one deck (30
    # cards) but are not a Swap Niu Niu table.
    doc = example()
    extra = {"5d", "6h", "7h", "9h", "Th"}, {"5s", "8s", "9s", "Ts", "Js"}
    for n, cards in enumerate(extra):
        doc["seats"][f"x{n}"] = {"cards": sorted(cards), "multiple": 1, "balance": 100000}
    with pytest.raises(InvalidInput, match="2–5 seats; the document gives 6"):
        settle_document(doc)
    del doc["seats"]["x1"]
    assert len(settle_document(doc)["seats"]) == 5
    two = example()
    del two["seats"]["川"], two["seats"]["尾"]
    assert settle_document(two)["seats"]["出"]["net"] == -600
    # The bid and bet multiples are table settings (defaults 1–4 and 1–5); a table with other
    # settings is audited with them.
    wide = _broken(["seats", "出", "multiple"], 6)
    with pytest.raises(InvalidInput, match="multiple 6"):
        settle_document(wide)
    wide["bet_multiples"] = [1, 2, 3, 6]
    assert settle_document(wide)["seats"]["出"]["net"] == -1800
    high_bid = _broken(["banker_multiple"], 5)
    with pytest.raises(InvalidInput, match="banker_multiple 5"):
        settle_document(high_bid)
    high_bid["bid_multiples"] = [1, 5]
    assert settle_document(high_bid)["seats"]["出"]["net"] == -1000


def test_cli_end_to_end_json_and_bad_input_exit_2() -> None:
    # The one real-subprocess CLI test: `python -m qipai.cli settle` prints the JSON result, and
    # a bad document exits 2 with one line on stderr (other CLI cases run in-process).
    ok = subprocess.run(
        [sys.executable, "-m", "qipai.cli", "settle", str(EXAMPLE)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    nets = {s: v["net"] for s, v in json.loads(ok.stdout)["seats"].items()}
    assert nets == {"出": -600, "川": -900, "尾": 1152, "莊": 288}
    doc = _broken(["seats", "出", "cards"], ["Ks", "Ks", "Td", "5c", "6d"])
    out = subprocess.run(
        [sys.executable, "-m", "qipai.cli", "settle", "-"],
        input=json.dumps(doc),
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 2
    assert out.stderr.startswith("error:") and out.stderr.count("\n") == 1
    assert "duplicate card Ks" in out.stderr


def test_banker_cap_example_file() -> None:
    # qipai/games/niuniu/examples/banker-cap.json: the source hands, but the banker brings 100 and the two
    # losers bring nothing. Losers pay 0 (capped at their balance); the banker would owe 尾 1,200
    # but can lose only its 100, so 尾's win is scaled to 100; 3.5 % of 100 = 3.5 → commission 3,
    # 尾 keeps 96, and the half unit goes to rounding.
    doc = json.loads((EXAMPLE.parent / "banker-cap.json").read_text(encoding="utf-8"))
    result = settle_document(doc)
    got = {
        s: (v["raw"], v["gross"], v["commission"], v["rounding"], v["net"])
        for s, v in result["seats"].items()
    }
    assert got == {
        "出": (-600, 0, 0, 0, 0),
        "川": (-900, 0, 0, 0, 0),
        "尾": (1200, 100, 3, 1, 96),
        "莊": (300, -100, 0, 0, -100),
    }
    assert (result["commission"], result["rounding"], result["capped"]) == (3, 1, True)
