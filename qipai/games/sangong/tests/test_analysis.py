"""San Gong's exact math against brute force on reduced decks and against hand counts."""

from __future__ import annotations

from fractions import Fraction

import pytest

from qipai.core.rng import Rng
from qipai.games import registry
from qipai.games.sangong import analysis
from qipai.games.sangong.config import HandMultipliers, SangongConfig
from qipai.games.sangong.hands import HandType


def _sample(k: int) -> tuple[int, ...]:
    cards = list(range(52))
    Rng(b"sangong-analysis-deck-sample-007").shuffle(cards)
    return tuple(sorted(cards[:k]))


DECKS = [
    tuple(range(12)),  # A–3: trips and low points
    tuple(range(36, 52)),  # 10–K: 三公 and court-card tie-breaks
    _sample(15),  # a random 15 of the 52 (fixed seed)
]


@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize(
    "multipliers",
    [HandMultipliers(), HandMultipliers(three_of_a_kind=9, three_court=6, nine=4, eight=3)],
)
def test_inclusion_exclusion_equals_brute_force(
    deck: tuple[int, ...], multipliers: HandMultipliers
) -> None:
    assert analysis.outcome_weights(multipliers, deck) == analysis.brute_force_weights(
        multipliers, deck
    )


def test_every_ordered_pair_of_disjoint_hands_is_counted() -> None:
    weights = analysis.outcome_weights(HandMultipliers())
    assert sum(weights.values()) == 22_100 * 18_424
    # exchangeable hands: each outcome has its mirror image, so P(win) is 1/2 and the expected
    # result before commission is 0
    for (won, m), count in weights.items():
        assert weights[(not won, m)] == count


def test_three_of_a_kind_wins_by_hand_count() -> None:
    # a player's trips of rank r (4 ways) lose only to higher trips: 4 × (13 − r) banker hands
    # of the 18,424 disjoint ones
    expected = sum(4 * (18_424 - 4 * (13 - r)) for r in range(1, 14))
    assert analysis.outcome_weights(HandMultipliers())[(True, 5)] == expected == 956_800


def test_hand_distribution() -> None:
    dist = analysis.hand_distribution()
    assert sum(dist.values()) == 22_100
    assert dist[HandType.THREE_OF_A_KIND] == 52 and dist[HandType.THREE_COURT] == 208


def test_player_return_and_commission() -> None:
    rate = Fraction(1, 20)
    figures = analysis.player_figures(HandMultipliers(), rate)
    per_unit = analysis.commission_per_unit(HandMultipliers(), rate)
    # before commission the expectation is 0, so the player loses exactly the commission
    assert figures.ev == -per_unit == Fraction(-5134359, 127240750)
    assert analysis.player_figures(HandMultipliers(), Fraction(0)).ev == 0


def test_the_spec_answers_rtp_for_the_table_settings() -> None:
    spec = registry.get("sangong")
    (default,) = spec.rtp()
    assert default.rtp == 1 + Fraction(-5134359, 127240750)
    (cheaper,) = spec.rtp({"commission": "0.04"})
    assert cheaper.rtp is not None and default.rtp is not None and cheaper.rtp > default.rtp


def test_monte_carlo_agrees_with_the_exact_heads_up_figure() -> None:
    rate = Fraction(1, 20)
    mc = analysis.monte_carlo(40_000, 11, 2, HandMultipliers(), rate)
    exact = float(analysis.player_figures(HandMultipliers(), rate).ev)
    mean, half = mc["player"]
    assert abs(mean - exact) < 2 * half
    assert (
        abs(mc["house"][0] - 2 * float(analysis.commission_per_unit(HandMultipliers(), rate)))
        < 2 * mc["house"][1] + 1e-9
    )


def test_the_report() -> None:
    (report,) = analysis.reports(None)
    assert report.game == "sangong"
    assert (
        report.bet("player vs banker").rtp
        == analysis.player_figures(SangongConfig().multipliers, Fraction(1, 20)).rtp
    )
    assert len(report.tables[1].rows) == 5


@pytest.mark.parametrize("mode", [None, "random"])
def test_simulate_plays_the_engine_against_the_exact_figure(mode: str | None) -> None:
    from qipai.analysis.simulate import simulate_game

    result = simulate_game("sangong", 400, 5, mode)
    (row,) = result.rows
    assert row["bets"] == 400 * 4
    assert row["exact_rtp"] == pytest.approx(float(1 + Fraction(-5134359, 127240750)))
    assert row["agrees"] is True


def test_simulate_refuses_an_unknown_mode() -> None:
    from qipai.core.errors import InvalidInput

    with pytest.raises(InvalidInput):
        analysis.simulate(10, 1, "clever")
