"""`qipai simulate` through the real round engines agrees with the exact figures.

Agreement: every bet's exact return lies within 1.68 × the printed 95 % half-width (a 99.9 %
interval), so a fixed-seed run is not a coin flip when an engine's random stream changes.
"""

from __future__ import annotations

import pytest

from qipai.analysis.simulate import SimulationResult, simulate_game
from qipai.core.errors import InvalidInput
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


def test_tiengow_games_do_not_depend_on_how_they_are_split() -> None:
    from qipai.analysis.simulate import _tiengow_chunk

    levels = ("rule-of-thumb", "random", "rule-of-thumb", "random")
    whole = _tiengow_chunk((0, 6, 5, levels))
    parts = _tiengow_chunk((0, 2, 5, levels)) + _tiengow_chunk((2, 6, 5, levels))
    assert whole == parts
    for _, nets in whole:
        assert sum(nets.values()) == 0  # players play each other: every game balances


def test_tiengow_simulation_rows_and_z_scores() -> None:
    from qipai.analysis.simulate import render_simulation, simulate_game

    result = simulate_game("tiengow", 8, 3, "rule-of-thumb")
    seats = [r for r in result.rows if r["bet"].startswith("seat")]
    assert len(seats) == 4 and all(r["exact"] == 0.0 for r in seats)
    for r in seats:
        assert r["z"] == pytest.approx(r["mean"] / (r["ci95"] / 1.96))
    assert sum(r["mean"] for r in seats) == pytest.approx(0)
    assert "| z |" in render_simulation(result, "markdown")
    mixed = simulate_game("tiengow", 4, 3, "random,random,random,rule-of-thumb")
    assert all(r["exact"] is None for r in mixed.rows)
    with pytest.raises(InvalidInput, match="levels"):
        simulate_game("tiengow", 4, 3, "genius")


def test_rows_carry_z_scores_against_the_exact_figure() -> None:
    from qipai.analysis.simulate import simulate_game

    result = simulate_game("niuniu", 300, 2, "no-swap")
    row = result.rows[0]
    assert row["z"] == pytest.approx(
        (row["observed_rtp"] - row["exact_rtp"]) / (row["ci95"] / 1.96)
    )


def test_holdem_simulation_plays_the_rooms_optimal_bot() -> None:
    require_service(
        cache_path().exists(),
        "the cached exact Hold'em Bonus sums (`qipai rtp holdem-bonus` computes them; .ci/run does)",
    )
    from qipai.games.holdem_bonus.analysis import analyse

    result = simulate_game("holdem-bonus", 20, 7, "optimal")
    main = result.rows[0]
    assert main["bet"] == "main bets per ante (optimal strategy)"
    exact = analyse("source")[0].bet("ante, optimal strategy, source rule").rtp
    assert main["exact_rtp"] == float(exact)
    with pytest.raises(InvalidInput, match="simple or optimal"):
        simulate_game("holdem-bonus", 4, 7, "common")


@pytest.mark.parametrize(
    ("game", "mode"),
    [("niuniu", "no-swap"), ("paigow", "banker"), ("tiengow", "random")],
)
def test_the_result_does_not_depend_on_the_process_count(game: str, mode: str) -> None:
    """Several chunks (CHUNK rounds each) on one process and on two give the same figures."""
    from qipai.analysis.parallel import CHUNK

    rounds = 2 * CHUNK + 7 if game != "tiengow" else 2 * CHUNK + 3
    one = simulate_game(game, rounds, 11, mode, workers=1)
    two = simulate_game(game, rounds, 11, mode, workers=2)
    assert one.rows == two.rows


def test_bad_workers_or_rounds_are_refused() -> None:
    with pytest.raises(InvalidInput, match="workers"):
        simulate_game("niuniu", 10, 1, None, workers=0)
    with pytest.raises(InvalidInput, match="rounds"):
        simulate_game("niuniu", 10**10, 1, None)


def test_a_changed_table_is_checked_against_its_own_exact_figure() -> None:
    """Settings change the exact figure (push on ties, 3 % commission: 98.5063 %) and the
    room's sensible bots play round 1 against it; round 2 has no exact figure with them."""
    from qipai.analysis.simulate import SimulationOptions

    options = SimulationOptions(("paigow-sensible",), {"tie_policy": "push", "commission": "0.03"})
    result = simulate_game("paigow", 600, 7, None, 1, options)
    first, second = result.rows
    assert first["exact_rtp"] == pytest.approx(0.985063, abs=1e-6)
    assert second["exact_rtp"] is None and second["ci95"] > 0
    _agrees(result)


def test_simulation_options_are_refused_cheaply_and_by_name() -> None:
    from qipai.analysis.simulate import SimulationOptions

    with pytest.raises(InvalidInput, match="takes no bots"):
        simulate_game("tiengow", 10**9, 1, None, None, SimulationOptions(("random",)))
    with pytest.raises(InvalidInput, match="bots: one level or 4"):
        simulate_game("paigow", 10, 1, None, 1, SimulationOptions(("psychic",)))
    with pytest.raises(InvalidInput, match="settings"):
        simulate_game("paigow", 10, 1, None, 1, SimulationOptions((), {"tie_policy": "coin"}))
    with pytest.raises(InvalidInput, match="differ"):
        simulate_game("paigow", 10, 1, "banker", 1, SimulationOptions((), {"tie_policy": "push"}))


def test_pokdeng_with_the_rooms_bots_agrees_and_does_not_depend_on_the_process_count() -> None:
    """Five of the room's random bots through `PokDengRound`, on one process and on two."""
    from qipai.analysis.parallel import CHUNK
    from qipai.analysis.simulate import SimulationOptions

    options = SimulationOptions(("random",))
    one = simulate_game("pokdeng", CHUNK + 50, 3, "classic", 1, options)
    two = simulate_game("pokdeng", CHUNK + 50, 3, "classic", 2, options)
    assert one.rows == two.rows
    _agrees(one)
