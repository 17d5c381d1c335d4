"""San Gong's bots choose only legal actions, from the seat's view, and the sensible one plays
for the least expected loss (bots.py)."""

from __future__ import annotations

import pytest

from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.games.sangong.bots import BOTS, RandomBot, SensibleBot
from qipai.games.sangong.config import SangongConfig
from qipai.games.sangong.round import SangongRound


def _play(level: str, seed: int) -> SangongRound:
    r = SangongRound.start(
        SangongConfig(), [Seat(s, 50_000) for s in "ABCDE"], Rng(seed.to_bytes(2, "big") * 8)
    )
    bots = {s: BOTS[level]() for s in "ABCDE"}
    rng = Rng(b"bots" * 4)
    while not r.finished:
        for seat in r.awaiting():
            legal = r.legal_actions(seat)
            r.act(seat, bots[seat].choose(r.view(seat), legal, rng))
            if r.finished:
                break
    return r


@pytest.mark.parametrize("level", sorted(BOTS))
@pytest.mark.parametrize("seed", range(20))
def test_bots_play_whole_rounds_with_legal_actions(level: str, seed: int) -> None:
    r = _play(level, seed)
    assert r.finished and not any(e.seat is None for e in r.log)  # nobody was silent
    assert sum(p.amount for p in r.result().postings) == 0


def test_sensible_bot_never_bids_and_bets_the_lowest() -> None:
    for seed in range(10):
        r = _play("sensible", seed)
        assert set(r.bids.values()) == {0} and r.banker_by == "random"
        assert set(r.bets.values()) == {1}


def test_random_bot_uses_the_offered_choices() -> None:
    seen: set[int] = set()
    for seed in range(20):
        r = _play("random", seed)
        seen |= {v for v in r.bets.values() if v is not None}
    # every round accepted its choices (act refuses any other); they are not all the same
    assert len(seen) > 1 and seen <= set(SangongConfig().bet_multiples)
    assert RandomBot.name == "random" and SensibleBot.name == "sensible"
