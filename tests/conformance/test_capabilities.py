"""Every registered game declares every capability the room, the tools and the client need
(`GameSpec.missing_capabilities`, qipai/core/spec.py), and each one answers for the game: the
environment encoder, the deal description (a fresh round's inputs give a deal of this game),
the reports' stakes, the exact analysis or a stated reason for having none, the simulator or
`None`, the settle examples. The one-folder test games (tests/conformance/plugin/) too."""

from __future__ import annotations

from typing import Any

import pytest

from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.core.spec import UNDECLARED, DealDescription, GameSpec, MissingCapability
from qipai.envs.base import Encoder

from .harness import spec_ids, specs

SPECS = specs()


@pytest.mark.parametrize("spec", SPECS, ids=spec_ids())
def test_nothing_is_missing(spec: GameSpec) -> None:
    assert spec.missing_capabilities() == []
    assert spec.validate() is spec


@pytest.mark.parametrize("spec", SPECS, ids=spec_ids())
def test_the_encoder_is_the_games(spec: GameSpec) -> None:
    kind = spec.encoder_type()
    assert isinstance(kind, type) and issubclass(kind, Encoder)
    assert kind.game == spec.name


@pytest.mark.parametrize("spec", SPECS, ids=spec_ids())
def test_the_deal_description_recomputes_a_fresh_round(spec: GameSpec) -> None:
    description = spec.deal_description()
    assert isinstance(description, DealDescription) and description.streams
    seats = [Seat(s, 10_000) for s in spec.seat_ids[: spec.max_players]]
    config = spec.parse_config(None)
    key = bytes(range(32))
    round_ = spec.round_type.start(config, seats, Rng(key))
    inputs = description.inputs(round_, config, seats, {})
    deal = description.deal(key, inputs)
    assert deal["game"] == spec.name
    assert description.deal(key, inputs) == deal  # a pure function of key and inputs
    assert all(isinstance(line, str) for line in description.lines(deal))
    assert description.dealt(round_, key, {}, True) is None  # nothing shown before the end


@pytest.mark.parametrize("spec", SPECS, ids=spec_ids())
def test_stakes_analysis_and_simulation_are_declared(spec: GameSpec) -> None:
    config: dict[str, Any] = dict(spec.config_json(None))
    assert spec.bets_of(config, {}) == []  # a round without bets stakes nothing
    assert spec.turnover_of(config, {}) == []
    assert spec.analyse is not UNDECLARED and spec.simulate is not UNDECLARED
    if spec.analyse is None:
        assert spec.no_analysis, f"{spec.name} has no exact analysis and does not say why"
    if callable(spec.settle_doc):
        assert spec.examples(), f"{spec.name} settles documents but ships no example"


def test_an_undeclared_capability_is_named() -> None:
    spec = SPECS[0]
    import dataclasses

    bare = dataclasses.replace(spec, encoder=UNDECLARED, analyse=UNDECLARED, bots={})
    assert bare.missing_capabilities() == ["bots", "encoder", "analyse"]
    with pytest.raises(MissingCapability, match="does not declare bots, encoder, analyse"):
        bare.validate()
    with pytest.raises(MissingCapability, match="encoder"):
        bare.encoder_type()
