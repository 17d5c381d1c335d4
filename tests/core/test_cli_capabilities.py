"""The command line asks the registry: a registered game without a capability says so and why
(`NotOffered`), never "unknown game"; an unknown game names the registered ones. The game
without exact math is the one-folder test game (tests/conformance/plugin/highcard), mounted
for the test: every shipped game has an analysis."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from qipai.cli import app
from qipai.games import registry
from tests.conformance.harness import mounted

runner = CliRunner()


@pytest.fixture
def test_game() -> Iterator[None]:
    """The one-folder test game (no exact analysis, simulation, advisor, PAR or batch env)."""
    with mounted():
        yield


def test_rtp_of_a_game_without_exact_math_says_why(test_game: None) -> None:
    offered = [n for n, s in registry.available().items() if s.analyse is None]
    assert offered, "a game declares it has no exact analysis (the test game)"
    for game in offered:
        assert registry.get(game).no_analysis
        out = runner.invoke(app, ["rtp", game])
        assert out.exit_code != 0
        assert f"{game} has no exact analysis: {registry.get(game).no_analysis}" in out.output
        assert "unknown game" not in out.output


def test_simulate_of_a_game_without_a_simulator_says_so(test_game: None) -> None:
    without = [n for n, s in registry.available().items() if s.simulate is None]
    assert without
    for game in without:
        out = runner.invoke(app, ["simulate", game, "--rounds", "2"])
        assert out.exit_code != 0
        assert f"game {game!r} has no simulation" in out.output


def test_an_unknown_game_names_the_registered_ones() -> None:
    for command in (["rtp", "chess"], ["advise", "chess"], ["par", "chess"]):
        out = runner.invoke(app, command)
        assert out.exit_code != 0
        assert "unknown game 'chess'" in out.output
        assert all(name in out.output for name in registry.names())


def test_advise_comes_from_the_games_spec(test_game: None) -> None:
    with_advisor = [n for n, s in registry.available().items() if s.advise is not None]
    without = [n for n, s in registry.available().items() if s.advise is None]
    assert with_advisor and without
    for game in without:
        out = runner.invoke(app, ["advise", game, "As", "Kd", "5c", "6h"])
        assert out.exit_code != 0
        assert f"no advisor for game {game!r}; games with one: {', '.join(with_advisor)}" in (
            out.output
        )
    out = runner.invoke(app, ["advise", "niuniu", "As", "Kd", "5c", "6h"])
    assert out.exit_code == 0, out.output


def test_par_comes_from_the_games_spec(test_game: None) -> None:
    with_par = [n for n, s in registry.available().items() if s.par is not None]
    without = [n for n, s in registry.available().items() if s.par is None]
    assert with_par and without
    for game in without:
        out = runner.invoke(app, ["par", game])
        assert out.exit_code != 0
        assert f"no PAR sheet for game {game!r}; games with one: {', '.join(with_par)}" in (
            out.output
        )
