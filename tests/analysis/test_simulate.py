"""`qipai simulate` through the real round engines agrees with the exact figures.

Agreement: every bet's exact return lies within 1.68 × the printed 95 % half-width (a 99.9 %
interval), so a fixed-seed run is not a coin flip when an engine's random stream changes.
"""

from __future__ import annotations

import pytest

from qipai.analysis.simulate import SimulationResult, simulate_game
from qipai.games.holdem_bonus.strategy_exact import cache_path
from tests.conftest import require_service


def _agrees(result: SimulationResult) -> None:
    checked = 0
    for row in result.rows:
        if row["exact_rtp"] is None:
            continue
        assert row["bets"] > 0
        assert abs(row["observed_rtp"] - row["exact_rtp"]) <= 1.68 * row["ci95"], row
        checked += 1
    assert checked


@pytest.mark.parametrize(
    ("game", "mode", "rounds"),
    [
        ("pokdeng", "classic", 2000),
        ("pokdeng", "banker-player", 2000),
        ("niuniu", "no-swap", 600),
        ("paigow", "banker", 600),
        ("paigow", "push", 600),
    ],
)
def test_simulation_agrees_with_exact(game: str, mode: str, rounds: int) -> None:
    _agrees(simulate_game(game, rounds, 7, mode))


@pytest.mark.slow
def test_holdem_simulation_agrees_with_exact() -> None:
    require_service(
        cache_path().exists(),
        "the cached exact Hold'em Bonus sums (`qipai rtp holdem-bonus` computes them; .ci/run does)",
    )
    _agrees(simulate_game("holdem-bonus", 400, 7, "source"))


def test_simulation_is_reproducible() -> None:
    a = simulate_game("pokdeng", 200, 3, "classic")
    b = simulate_game("pokdeng", 200, 3, "classic")
    assert a.rows == b.rows


def test_a_wrong_figure_would_be_caught() -> None:
    """Negative control: the same run does not 'agree' with a return 10 points off."""
    result = simulate_game("pokdeng", 2000, 7, "classic")
    row = result.rows[0]
    assert abs(row["observed_rtp"] - (row["exact_rtp"] - 0.10)) > 1.68 * row["ci95"]
