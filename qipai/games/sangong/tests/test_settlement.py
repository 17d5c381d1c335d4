"""San Gong settlement (rules/en.md): the worked example with its exact numbers, the `qipai
settle` documents of examples/, the cap, and money conserved for any hands and stacks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from qipai.cli import app
from qipai.core.cards import Card, parse_cards, standard_deck
from qipai.core.errors import InvalidInput
from qipai.games import registry, settle_document
from qipai.games.sangong.config import HandMultipliers
from qipai.games.sangong.hands import evaluate
from qipai.games.sangong.payout import settle_hands

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    return data


# ----- the worked example of rules/en.md ----------------------------------------------------
def test_worked_example() -> None:
    out = settle_document(_example("worked-example.json"))
    seats = out["seats"]
    # 出 bets 3 with 9 points (×3) against the banker's 单公 8 (×2): 100·2·3·3 = 1,800, less 90
    assert out["pairings"]["出"] == {"winner": "出", "stake": 600, "multiplier": 3, "raw": 1800}
    assert (seats["出"]["gross"], seats["出"]["commission"], seats["出"]["net"]) == (1800, 90, 1710)
    # 川 bets 1 with 三公 (×4): 100·2·1·4 = 800, less 40
    assert (seats["川"]["gross"], seats["川"]["commission"], seats["川"]["net"]) == (800, 40, 760)
    # 尾 bets 2 with 5 points and loses at the banker's ×2: 100·2·2·2
    assert (seats["尾"]["gross"], seats["尾"]["commission"], seats["尾"]["net"]) == (-800, 0, -800)
    # the banker: −1,800 − 800 + 800, no commission on a loss
    assert (seats["庄"]["gross"], seats["庄"]["commission"], seats["庄"]["net"]) == (
        -1800,
        0,
        -1800,
    )
    assert out["commission"] == 130 and out["rounding"] == 0 and out["capped"] is False
    assert sum(p["amount"] for p in out["postings"]) == 0
    assert {p["account"]: p["amount"] for p in out["postings"]}["commission"] == 130


def test_worked_example_from_the_command_line() -> None:
    result = CliRunner().invoke(app, ["settle", str(EXAMPLES / "worked-example.json")])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert {s: v["net"] for s, v in out["seats"].items()} == {
        "庄": -1800, "出": 1710, "川": 760, "尾": -800
    }  # fmt: skip


# ----- every example in examples/ -----------------------------------------------------------
EXPECTED_NETS = {
    "worked-example.json": {"庄": -1800, "出": 1710, "川": 760, "尾": -800},
    # banker (stack 3,000, 9 points ×3) owes 4,000 + 1,200 and collects P3's 6,000 capped at
    # P3's stack 1,000: it loses exactly its stack, the wins scaled to 4,000 (3,077 and 923)
    "capped-banker.json": {"B": -3000, "P1": 2923, "P2": 876, "P3": -1000},
    # six seats, the table's own multipliers (×9 trips) and 4 % commission; the tie-breaks decide
    # A (双公 7) over the banker's 单公 7 and the banker over B (散牌 7)
    "six-seats-own-multipliers.json": {
        "A": 48, "B": -100, "C": 576, "D": 768, "E": -3600, "F": 2160
    },
}  # fmt: skip


def test_every_example_is_checked() -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.json")) == sorted(EXPECTED_NETS)


@pytest.mark.parametrize("name", sorted(EXPECTED_NETS))
def test_examples(name: str) -> None:
    out = registry.get("sangong").settle(_example(name))
    assert {s: v["net"] for s, v in out["seats"].items()} == EXPECTED_NETS[name]
    assert sum(p["amount"] for p in out["postings"]) == 0
    for seat, row in out["seats"].items():
        assert row["net"] >= -row["stack"], seat
        assert row["valid_bet"] == abs(row["gross"])


def test_capped_example_says_so() -> None:
    out = settle_document(_example("capped-banker.json"))
    assert out["capped"] is True
    assert out["commission"] == 153 + 46 and out["rounding"] == 2


# ----- refusals ---------------------------------------------------------------------------------
def _worked(**changes: Any) -> dict[str, Any]:
    doc = _example("worked-example.json")
    doc.update(changes)
    return doc


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        (_worked(banker="X"), "banker"),
        (_worked(banker_multiple=5), "banker_multiple"),
        (_worked(seats={"庄": {"stack": 1, "cards": ["As", "Ks", "Qs"]}}), "seats"),
        (
            _worked(
                seats={
                    "庄": {"stack": 1, "cards": ["As", "Ks", "Qs"]},
                    "出": {"stack": 1, "cards": ["As", "Kd", "Qd"], "multiple": 1},
                }
            ),
            None,
        ),
        (
            _worked(
                seats={
                    "庄": {"stack": 1, "cards": ["As", "Ks", "Qs"]},
                    "出": {"stack": 1, "cards": ["Ad", "Kd", "Qd"]},
                }
            ),
            "seats.出.multiple",
        ),
        (
            _worked(
                seats={
                    "庄": {"stack": 1, "cards": ["As", "Ks", "Qs"]},
                    "出": {"stack": 1, "cards": ["Ad", "Kd", "Qd"], "multiple": 6},
                }
            ),
            "seats.出.multiple",
        ),
        (
            _worked(
                seats={
                    "庄": {"stack": 1, "cards": ["As", "Ks"]},
                    "出": {"stack": 1, "cards": ["Ad", "Kd", "Qd"], "multiple": 1},
                }
            ),
            "seats.庄.cards",
        ),
        (
            _worked(
                seats={
                    "庄": {"stack": 1, "cards": ["As", "Ks", "Zz"]},
                    "出": {"stack": 1, "cards": ["Ad", "Kd", "Qd"], "multiple": 1},
                }
            ),
            "seats.庄.cards",
        ),
        (_worked(multipliers={"nine": 9}), "multipliers"),
        (_worked(tip=1), "tip"),
    ],
)
def test_bad_documents_are_refused_naming_the_field(doc: dict[str, Any], field: str | None) -> None:
    with pytest.raises(InvalidInput) as caught:
        settle_document(doc)
    if field is not None:
        assert caught.value.field is not None and caught.value.field.startswith(field)


# ----- money is conserved, and nobody loses more than the stack -------------------------------
@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(1, 5),
    order=st.permutations(range(52)),
    stacks=st.lists(st.integers(0, 20_000), min_size=6, max_size=6),
    bets=st.lists(st.integers(1, 5), min_size=5, max_size=5),
    banker_multiple=st.integers(1, 4),
    rate=st.sampled_from(["0", "0.05", "0.04", "0.333"]),
)
def test_any_round_balances_within_the_stacks(
    players: int,
    order: list[int],
    stacks: list[int],
    bets: list[int],
    banker_multiple: int,
    rate: str,
) -> None:
    deck: list[Card] = [standard_deck()[i] for i in order]
    seats = ["B"] + [f"P{i}" for i in range(players)]
    hands = {s: evaluate(deck[3 * i : 3 * i + 3]) for i, s in enumerate(seats)}
    done = settle_hands(
        base=100,
        commission=rate,
        multipliers=HandMultipliers(),
        banker="B",
        banker_multiple=banker_multiple,
        hands=hands,
        bets={p: bets[i] for i, p in enumerate(seats[1:])},
        stacks={s: stacks[i] for i, s in enumerate(seats)},
    )
    st_ = done.settlement
    assert sum(st_.nets().values()) + st_.commission + st_.rounding == 0
    for i, seat in enumerate(seats):
        s = st_.seats[seat]
        assert -stacks[i] <= s.gross <= stacks[i]
        assert s.commission >= 0 and s.rounding >= 0
    for player, pr in done.pairings.items():
        won = hands[player].beats(hands["B"])
        assert (pr.winner == player) == won
        expected_m = (hands[player] if won else hands["B"]).multiplier(HandMultipliers())
        assert (
            pr.raw
            == (1 if won else -1)
            * 100
            * banker_multiple
            * bets[seats.index(player) - 1]
            * expected_m
        )


def test_a_loss_is_paid_at_the_banker_hand_multiplier() -> None:
    hands = {s: evaluate(parse_cards(c)) for s, c in {"B": "Qc Qd Qh", "P": "9s 9h 9d"}.items()}
    done = settle_hands(
        base=10,
        commission="0.05",
        multipliers=HandMultipliers(),
        banker="B",
        banker_multiple=3,
        hands=hands,
        bets={"P": 4},
        stacks={"B": 10_000, "P": 10_000},
    )
    assert done.settlement.nets() == {"B": 570, "P": -600}  # 10·3·4·5, 5 % of the banker's 600
