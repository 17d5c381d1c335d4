"""The command line asks the registry: a registered game without a capability says so and why
(`NotOffered`), never "unknown game"; an unknown game names the registered ones."""

from __future__ import annotations

from typer.testing import CliRunner

from qipai.cli import app
from qipai.games import registry

runner = CliRunner()


def test_rtp_of_a_game_without_exact_math_says_why() -> None:
    offered = [n for n, s in registry.available().items() if s.analyse is None]
    assert offered, "a game declares it has no exact analysis (Tien Gow)"
    for game in offered:
        out = runner.invoke(app, ["rtp", game])
        assert out.exit_code != 0
        assert f"{game} has no exact analysis: {registry.get(game).no_analysis}" in out.output
        assert "unknown game" not in out.output


def test_simulate_of_a_game_without_a_simulator_says_so() -> None:
    for game in [n for n, s in registry.available().items() if s.simulate is None]:
        out = runner.invoke(app, ["simulate", game, "--rounds", "2"])
        assert out.exit_code != 0
        assert f"game {game!r} has no simulation" in out.output


def test_an_unknown_game_names_the_registered_ones() -> None:
    out = runner.invoke(app, ["rtp", "chess"])
    assert out.exit_code != 0
    assert "unknown game 'chess'" in out.output
    assert all(name in out.output for name in registry.names())


def test_advise_comes_from_the_games_spec() -> None:
    with_advisor = [n for n, s in registry.available().items() if s.advise is not None]
    without = [n for n, s in registry.available().items() if s.advise is None]
    assert with_advisor and without
    out = runner.invoke(app, ["advise", without[0], "As", "Kd", "5c", "6h"])
    assert out.exit_code != 0
    assert f"no advisor for game {without[0]!r}; games with one: {', '.join(with_advisor)}" in (
        out.output
    )
    out = runner.invoke(app, ["advise", "niuniu", "As", "Kd", "5c", "6h"])
    assert out.exit_code == 0, out.output
