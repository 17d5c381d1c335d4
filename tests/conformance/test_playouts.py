"""The conformance suite over every GameSpec: random playouts mixing legal and illegal actions.

For every game the registry knows (and every game a test registers): `check` and `act` agree on
every action, every refusal changes nothing, no view shows another seat's private cards or tiles,
every view validates against the game's JSON Schema (docs/schema/) with the common keys, every
accepted action's canonical JSON against the actions schema, the round ends, its postings
balance and never ask a seat for more than its stack, and replaying the log gives the same
round.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.rng import Rng
from qipai.core.spec import GameSpec

from .harness import check_hidden, check_views, run, snapshot, spec_ids, specs, start


@pytest.mark.parametrize("spec", specs(), ids=spec_ids())
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**64))
def test_random_playouts(spec: GameSpec, seed: int) -> None:
    rng = Rng(seed.to_bytes(16, "big") * 2)
    play = start(spec, rng)
    round_ = play.round
    shared = spec.name == "paigow"
    check_hidden(round_, shared)
    check_views(spec, round_)
    steps_seen = 0
    original_act = round_.act

    def act_and_look(seat: str, action: object) -> object:
        nonlocal steps_seen
        events = original_act(seat, action)
        steps_seen += 1
        check_hidden(round_, shared)
        check_views(spec, round_)
        return events

    round_.act = act_and_look  # type: ignore[method-assign]
    run(play, rng)
    del round_.act
    assert round_.finished and round_.awaiting() == [] and round_.legal_actions("nobody") == []
    result = round_.result()
    assert sum(p.amount for p in result.postings) == 0
    for seat in play.seats:
        assert result.net(seat.id) >= -seat.stack, f"{seat.id} lost more than its stack"
    replayed = spec.round_type.replay(play.config, play.seats, play.seed, round_.log)
    assert snapshot(replayed) == snapshot(round_)
    assert play.accepted + play.expired > 0


@pytest.mark.parametrize("spec", specs(), ids=spec_ids())
@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**64),
    stacks=st.lists(st.sampled_from([0, 1, 2, 99, 100, 1_000, 10**6]), min_size=7, max_size=7),
)
def test_settlement_never_asks_a_stack_for_more_than_it_holds(
    spec: GameSpec, seed: int, stacks: list[int]
) -> None:
    """For every game, with random stacks including 1, no seat's result exceeds its
    stack (bots only, so that rounds reach the settlement quickly)."""
    rng = Rng(seed.to_bytes(16, "big") * 2)
    play = start(spec, rng, stacks)
    run(play, rng, illegal_share=0)
    result = play.round.result()
    for seat in play.seats:
        assert result.net(seat.id) >= -seat.stack
        assert seat.stack + result.net(seat.id) >= 0
    assert sum(p.amount for p in result.postings) == 0
