"""Scoring (docs/rules/tiengow.md#scoring) and `qipai settle`: the source's two examples with their exact numbers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from qipai.cli import app
from qipai.core.errors import InvalidInput
from qipai.games import settle_document
from qipai.games.tiengow.scoring import banker_multiplier, max_loss_units, net_units, score

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SEATS = ["E", "S", "W", "N"]
runner = CliRunner()


def units(banker: str, streak: int, winner: str, dong: dict[str, int]) -> dict[str, int]:
    return net_units(SEATS, score(SEATS, banker, streak, winner, dong))


def test_source_example_1() -> None:
    # 例一: 东家是庄, 东家1栋、南家4栋、西家0栋、北家3栋胜出 -> 东 −6, 南 0, 西 −5, 北 +11.
    got = units("E", 1, "N", {"E": 1, "S": 4, "W": 0, "N": 3})
    assert got == {"E": -6, "S": 0, "W": -5, "N": 11}


def test_source_example_2() -> None:
    # 例二: 东家1栋、南家5栋、西家0栋、北家2栋胜出 -> 东 −6, 南 +1 (入一), 西 −5, 北 +10.
    got = units("E", 1, "N", {"E": 1, "S": 5, "W": 0, "N": 2})
    assert got == {"E": -6, "S": 1, "W": -5, "N": 10}


@pytest.mark.parametrize(
    ("name", "net"),
    [
        ("example1.json", {"E": -600, "S": 0, "W": -500, "N": 1100}),
        ("example2.json", {"E": -600, "S": 100, "W": -500, "N": 1000}),
    ],
)
def test_example_files_through_qipai_settle(name: str, net: dict[str, int]) -> None:
    doc = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    assert settle_document(doc)["net"] == net
    out = runner.invoke(app, ["settle", str(EXAMPLES / name)])  # in-process: see the CLI test
    assert out.exit_code == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["net"] == net
    assert result["multiplier"] == 2
    assert (
        sum(line["amount"] for line in result["breakdown"] if line["to"] == "N")
        - sum(line["amount"] for line in result["breakdown"] if line["from"] == "N")
        == net["N"]
    )


def test_banker_multiplier_grows_with_the_streak() -> None:
    assert [banker_multiplier(s) for s in (1, 2, 3, 4)] == [2, 3, 4, 5]
    with pytest.raises(InvalidInput):
        banker_multiplier(0)


def test_banker_wins_every_amount_is_multiplied_including_the_ru_it_pays() -> None:
    # East banks the third time in a row (×4) and wins with 2 栋.
    got = units("E", 3, "E", {"E": 2, "S": 6, "W": 0, "N": 0})
    # S: 入二 -> East pays 2×4; W and N: 空栋 5×4 each.
    assert got == {"E": -8 + 20 + 20, "S": 8, "W": -20, "N": -20}
    got = units("E", 1, "E", {"E": 2, "S": 5, "W": 1, "N": 0})
    assert got == {"E": -2 + 6 + 10, "S": 2, "W": -6, "N": -10}


def test_banker_loses_pays_multiplied_but_its_ru_is_not() -> None:
    got = units("E", 2, "S", {"E": 6, "S": 2, "W": 0, "N": 0})
    assert got == {"E": 2, "S": -2 + 5 + 5, "W": -5, "N": -5}
    got = units("E", 2, "S", {"E": 0, "S": 2, "W": 6, "N": 0})
    assert got == {"E": -15, "S": 15 - 2 + 5, "W": 2, "N": -5}  # 空栋 5 × 3 for the banker


def test_no_ru_san() -> None:
    # 並沒有「入三」: a loser receives at most 2 (only reachable outside a real 8-栋 game).
    assert units("E", 1, "S", {"E": 1, "S": 2, "W": 9, "N": 4})["W"] == 2


def test_four_dong_is_even() -> None:
    assert units("E", 1, "S", {"E": 4, "S": 4, "W": 4, "N": 4}) == dict.fromkeys(SEATS, 0)


@given(
    st.sampled_from(SEATS),
    st.integers(1, 6),
    st.sampled_from(SEATS),
    st.lists(st.integers(0, 30), min_size=4, max_size=4),
)
def test_scores_balance_and_the_winner_never_loses_to_a_short_loser(
    banker: str, streak: int, winner: str, dong_list: list[int]
) -> None:
    dong = dict(zip(SEATS, dong_list, strict=True))
    dong[winner] = max(dong[winner], 2)
    got = units(banker, streak, winner, dong)
    assert sum(got.values()) == 0
    for seat in SEATS:
        if seat == winner:
            continue
        d = dong[seat]
        m = banker_multiplier(streak) if banker in (winner, seat) else 1
        if d < 4:
            bound = (5 if d == 0 else 4 - d) * m
            assert -bound <= got[seat] <= 0 or seat == banker  # banker may get 尊/入 elsewhere
        if seat != banker and winner != banker:
            expected = -(5 if d == 0 else 4 - d) if d <= 4 else min(d - 4, 2)
            assert got[seat] == expected


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"base": 0}, "base"),
        ({"base": 1.5}, "base"),
        ({"banker": "X"}, "banker"),
        ({"winner": "X"}, "winner"),
        ({"winner": "W"}, "at least 2"),
        ({"banker_streak": 0}, "banker_streak"),
        ({"dong": {"E": 1, "S": 4, "W": 0}}, "4 seats"),
        ({"dong": {"E": 1, "S": -4, "W": 0, "N": 3}}, "dong.S: must be at least 0"),
        ({"zun": ["X"]}, "zun"),
        # docs/rules/tiengow.md#civil-supreme Decision: 文尊 off by default, so one set holds a single 至尊 to play.
        ({"zun": ["S", "W"]}, "zun"),
        ({"zun": ["S", "W", "N"], "wen_zun": True}, "zun"),
        ({"wen_zun": "yes"}, "wen_zun"),
        ({"dong": {"E": 1, "S": 4, "W": 0, "N": 4}}, "total 8"),
        ({"extra": 1}, "unexpected field 'extra'"),
        ({"base": "100"}, "base: must be an integer"),
    ],
)
def test_settle_refuses_bad_input(change: dict[str, object], message: str) -> None:
    doc = {
        "game": "tiengow",
        "base": 100,
        "banker": "E",
        "banker_streak": 1,
        "winner": "N",
        "dong": {"E": 1, "S": 4, "W": 0, "N": 3},
        **change,
    }
    with pytest.raises(InvalidInput, match=message):
        settle_document(doc)
    out = runner.invoke(app, ["settle", "-"], input=json.dumps(doc))
    assert out.exit_code == 2 and out.stdout == ""
    assert out.stderr.startswith("error: ") and out.stderr.count("\n") == 1, out.stderr
    assert message in out.stderr


def test_settle_with_zun_money() -> None:
    doc = {
        "game": "tiengow",
        "base": 100,
        "banker": "E",
        "banker_streak": 1,
        "winner": "N",
        "dong": {"E": 1, "S": 4, "W": 0, "N": 3},
        "zun": ["S"],
    }
    assert settle_document(doc)["net"] == {"E": -700, "S": 300, "W": -600, "N": 1000}
    # With the 文尊 setting on, 武尊 and 文尊 may both be played (here by S and W).
    two = {**doc, "zun": ["S", "W"], "wen_zun": True}
    assert settle_document(two)["net"] == {"E": -800, "S": 200, "W": -300, "N": 900}


def test_cli_end_to_end_json_and_bad_input_is_one_line_exit_2() -> None:
    # The one real-subprocess CLI test: `python -m qipai.cli settle` prints the JSON result, and
    # a bad document exits 2 with one line on stderr (other CLI cases run in-process).
    ok = subprocess.run(
        [sys.executable, "-m", "qipai.cli", "settle", str(EXAMPLES / "example1.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["net"] == {"E": -600, "S": 0, "W": -500, "N": 1100}
    out = subprocess.run(
        [sys.executable, "-m", "qipai.cli", "settle", "-"],
        input=json.dumps({"game": "tiengow", "base": 100}),
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "banker" in out.stderr


@given(
    st.sampled_from(SEATS),
    st.integers(1, 5),
    st.lists(st.sampled_from(SEATS), min_size=8, max_size=8),
)
def test_in_a_real_game_nobody_loses_more_than_max_loss_units(
    banker: str, streak: int, takers: list[str]
) -> None:
    # Each of the 8 栋 goes to some seat; the winner (结) is a seat holding at least 2.
    dong = {s: takers.count(s) for s in SEATS}
    for winner in [s for s in SEATS if dong[s] >= 2]:
        got = units(banker, streak, winner, dong)
        bound = max_loss_units(streak, zun_units=0)
        assert all(-bound <= got[s] for s in SEATS)
        assert got[winner] > 0  # the winner always comes out ahead


def test_max_loss_units_values() -> None:
    assert max_loss_units(1) == 11  # 空栋 × 2 + one 尊钱
    assert max_loss_units(2, 3, wen_zun=True) == 21  # 5 × 3 + two 尊 plays × 3
