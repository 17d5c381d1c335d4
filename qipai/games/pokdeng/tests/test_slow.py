"""Long runs of the real round engine: pair frequency against the exact 8-deck figure, and many
whole shoes replayed from their seeds alone."""

from __future__ import annotations

import math
from typing import Any

import pytest

from qipai.core.protocol import RecordedAction, Seat
from qipai.core.rng import Rng
from qipai.games.pokdeng import PokDengConfig, PokDengRound, replay_shoe
from qipai.games.pokdeng.bots import RandomBot
from qipai.games.pokdeng.tests.oracle import allowed_returns


@pytest.mark.slow
def test_pair_frequency_matches_the_exact_figure() -> None:
    """P(two cards of one rank) = 31/415 off a full 8-deck shoe, and (by symmetry) at any depth
    the rounds are dealt from: every hand's pair flag, over ~20,000 rounds × 6 hands."""
    config = PokDengConfig(mode="banker-player")
    seats = [Seat("x", 10**12)]
    action = {"type": "bets", "bets": [{"spot": s, "amount": 100} for s in config.spots]}
    pairs = hands = 0
    seed_rng = Rng(bytes(32)).fork("shoes")
    context: dict[str, Any] = {}
    seed = seed_rng.next_bytes(32)
    for _ in range(20_000):
        round_ = PokDengRound.start(config, seats, Rng(seed), context)
        round_.act("x", action)
        round_.expire()
        pairs += sum(h.pair for h in round_.hands.values())
        hands += 6
        following = round_.next_round()
        context = dict(following.context)
        if not following.reuse_seed:
            seed = seed_rng.next_bytes(32)
    p = 31 / 415
    sd = math.sqrt(p * (1 - p) / hands)  # hands in one round are dependent; 5 sd is generous
    assert abs(pairs / hands - p) < 5 * sd * math.sqrt(6)


@pytest.mark.slow
def test_many_shoes_replay_and_balance() -> None:
    config = PokDengConfig(mode="classic")
    bot = RandomBot(max_spots=4)
    for shoe in range(25):
        seed = Rng(bytes(32)).fork(f"shoe/{shoe}").next_bytes(32)
        seats = [Seat("a", 10**7), Seat("b", 3_000)]
        bot_rng = Rng(seed).fork("bots")
        played: list[tuple[list[Seat], list[RecordedAction]]] = []
        results = []
        context: dict[str, Any] = {}
        while True:
            round_ = PokDengRound.start(config, seats, Rng(seed), context)
            for seat in seats:
                legal = round_.legal_actions(seat.id)
                if legal:
                    round_.act(seat.id, bot.choose(round_.view(seat.id), legal, bot_rng))
            if not round_.finished:
                round_.expire()
            result = round_.result()
            assert sum(p.amount for p in result.postings) == 0
            for bet in result.details["bets"]:
                assert bet["returned"] in allowed_returns("classic", bet["spot"], bet["amount"])
            played.append((list(seats), list(round_.log)))
            results.append(result.to_json())
            following = round_.next_round()
            if not following.reuse_seed:
                break
            context = dict(following.context)
        assert [r.result().to_json() for r in replay_shoe(config, seed, played)] == results
