"""The batch simulator (`qipai.games.pokdeng.sim`) against the round engine, round by round.

The same shoes (seeds), the same bets: every round's hand classes, each bet's net, the rounding
units and the round where each shoe ends must be the engine's (as tiengow/sim.py is checked).
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.games.pokdeng import PokDengConfig, PokDengRound
from qipai.games.pokdeng.config import BANKER, POSITIONS
from qipai.games.pokdeng.sim import play


def seed_of(salt: bytes) -> Any:
    return lambda n: hashlib.sha256(salt + n.to_bytes(4, "big")).digest()


def engine_rounds(
    config: PokDengConfig, bets: list[tuple[str, int]], rounds: int, seeds: Any
) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...], int]]:
    seats = [Seat("p", 10**12)]
    out = []
    shoe, context = 0, None
    for _ in range(rounds):
        round_ = PokDengRound.start(config, seats, Rng(seeds(shoe)), context)
        if bets:
            chips = [{"spot": s, "amount": a} for s, a in bets]
            round_.act("p", {"type": "bets", "bets": chips, "done": True})
        else:
            round_.expire()
        hands = round_.hands
        settlement = round_.settlement
        details = round_.result().details
        klasses = tuple(hands[n].klass for n in (*POSITIONS, BANKER))
        out.append(
            (
                shoe,
                details["shoe_position"],
                klasses,
                tuple(settlement.bet_nets),
                settlement.rounding,
            )
        )
        following = round_.next_round()
        if following.reuse_seed:
            context = following.context
        else:
            shoe, context = shoe + 1, None
    return out


@pytest.mark.parametrize("mode", ["classic", "banker-player"])
def test_every_spot_over_several_shoes(mode: str) -> None:
    config = PokDengConfig(mode=mode)  # type: ignore[arg-type]
    bets = [(spot, 100 + 7 * i) for i, spot in enumerate(config.spots)]  # odd: rounding units
    seeds = seed_of(mode.encode())
    simulated = [tuple(r) for r in play(config, bets, 80, seeds)]
    assert simulated == engine_rounds(config, bets, 80, seeds)
    assert simulated[-1][0] >= 1  # the comparison crossed a shoe change


@settings(max_examples=15, deadline=None)
@given(
    mode=st.sampled_from(["classic", "banker-player"]),
    decks=st.integers(1, 8),
    salt=st.binary(min_size=1, max_size=8),
    data=st.data(),
)
def test_random_tables_and_bets(mode: str, decks: int, salt: bytes, data: st.DataObject) -> None:
    lo = data.draw(st.integers(13, 52 * decks - 13))
    hi = data.draw(st.integers(lo, 52 * decks - 13))
    config = PokDengConfig(mode=mode, decks=decks, cut_behind=(lo, hi))  # type: ignore[arg-type]
    spots = data.draw(
        st.lists(st.sampled_from(list(config.spots)), min_size=1, max_size=4, unique=True)
    )
    bounds = config.spot_bounds  # spot → (hold, min, max)
    bets = [(spot, data.draw(st.integers(bounds[spot][1], bounds[spot][2]))) for spot in spots]
    seeds = seed_of(salt)
    assert [tuple(r) for r in play(config, bets, 40, seeds)] == engine_rounds(
        config, bets, 40, seeds
    )
