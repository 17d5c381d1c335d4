"""`qipai advise` goes through the registry: each game's advisor is its own (`GameSpec.advise`,
tested in the game's folder: `qipai/games/<game>/tests/test_advise.py`); here what every game
shares — an unknown game names the registered ones, a game without an advisor is refused
naming the games with one (and why, when the game says), a refused option is named, and bad
input is one clear line on stderr (exit 2) with nothing on stdout."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from qipai.analysis.advise import advise
from qipai.cli import app
from qipai.core.errors import InvalidInput
from qipai.core.spec import AdviceRequest, NotOffered
from qipai.games import registry

runner = CliRunner()


def with_advisor() -> list[str]:
    return [n for n, s in registry.available().items() if s.advise is not None]


def without_advisor() -> list[str]:
    return [n for n, s in registry.available().items() if s.advise is None]


def test_an_unknown_game_names_the_registered_ones() -> None:
    out = runner.invoke(app, ["advise", "mahjong", "As"])
    assert out.exit_code == 2 and out.stdout == ""
    assert "unknown game 'mahjong'" in out.stderr
    assert all(name in out.stderr for name in registry.names())


@pytest.mark.parametrize("game", without_advisor())
def test_a_game_without_an_advisor_names_those_with_one(game: str) -> None:
    out = runner.invoke(app, ["advise", game])
    assert out.exit_code == 2 and out.stdout == ""
    want = f"no advisor for game {game!r}; games with one: {', '.join(with_advisor())}"
    assert want in out.stderr
    why = registry.get(game).no_advice
    assert why in out.stderr  # the game's reason, when it gives one (Tien Gow's rollouts)
    with pytest.raises(NotOffered):
        advise(game, "")


def test_a_game_that_says_why_it_has_no_advisor_is_refused_with_its_reason() -> None:
    reasons = {n: s.no_advice for n, s in registry.available().items() if s.no_advice}
    assert reasons, "a game says why it has no advisor (Tien Gow's strong bot samples)"
    for game, why in reasons.items():
        assert registry.get(game).advise is None
        out = runner.invoke(app, ["advise", game])
        assert out.exit_code == 2 and why in out.stderr and "no exact advisor" in out.stderr


@pytest.fixture
def echo_game() -> Iterator[str]:
    """A registered copy of a real game whose advisor echoes its request, to show what the
    command hands a game's advisor."""

    def echo(request: AdviceRequest) -> str:
        request.refuse("echo", "seen")
        return repr(request)

    base = next(iter(registry.available().values()))
    spec = dataclasses.replace(base, name="echo-advice", order=999, advise=echo)
    registry.register(spec)
    try:
        yield spec.name
    finally:
        registry.unregister(spec.name)


def test_the_command_hands_the_game_every_option(echo_game: str) -> None:
    out = runner.invoke(
        app, ["advise", echo_game, "As", "Kd", "--board", "2c 7h 9s", "--mode", "m", "--json"]
    )
    assert out.exit_code == 0, out.output
    want = AdviceRequest(cards="As Kd", board="2c 7h 9s", mode="m", as_json=True)
    assert out.stdout.strip() == repr(want)
    assert echo_game in with_advisor()


def test_an_option_the_game_does_not_take_is_named(echo_game: str) -> None:
    out = runner.invoke(app, ["advise", echo_game, "As", "--seen", "Kd"])
    assert out.exit_code == 2 and out.stdout == ""
    assert "echo advice takes no --seen" in out.stderr
    with pytest.raises(InvalidInput) as caught:
        AdviceRequest(seen="Kd", board="2c", mode="x").refuse("g", "seen", "board", "mode")
    assert caught.value.message == "g advice takes no --seen, --board, --mode"
    AdviceRequest(cards="As").refuse("g", "seen", "board", "mode")  # nothing given: accepted
