"""Pai Gow bots: they play whole games through view + legal actions only; the sensible bot's odds
are exact and its choices follow the edge and the stacks."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.core.tiles import full_set, parse_tiles
from qipai.games.paigow import PaigowConfig, PaigowRound, evaluate
from qipai.games.paigow.bots import (
    RandomPaigowBot,
    SensiblePaigowBot,
    banker_value,
    pairing_odds,
    player_edge,
    unseen_tiles,
)

from .helpers import IDS, seed, start


def play_game(bots: list[Any], config: PaigowConfig, n: int) -> list[int]:
    stacks = [3000, 800, 12000, 5000]
    context = None
    for _ in range(2):
        r = PaigowRound.start(
            config, [Seat(i, s) for i, s in zip(IDS, stacks, strict=True)], Rng(seed(n)), context
        )
        while not r.finished:
            for seat, bot in zip(IDS, bots, strict=True):
                legal = r.legal_actions(seat)
                if legal:
                    r.act(seat, bot.choose(r.view(seat), legal, Rng(seed(n)).fork(seat)))
        stacks = [s + r.result().net(i) for i, s in zip(IDS, stacks, strict=True)]
        context = dict(r.next_round().context)
    return stacks


@pytest.mark.parametrize("commission", ["0.05", "0"])
def test_bots_play_whole_games_with_legal_actions(commission: str) -> None:
    config = PaigowConfig(commission=commission)
    for n in range(6):
        bots = [RandomPaigowBot(), SensiblePaigowBot(), RandomPaigowBot(), SensiblePaigowBot()]
        stacks = play_game(bots, config, n)
        assert all(s >= 0 for s in stacks)


def test_pairing_odds_are_exact_against_brute_force() -> None:
    unseen = parse_tiles("6-6 6-6 1-1 4-5 3-6 1-2 2-4 5-5 2-2 1-4")
    counts = {"banker": 0, "player": 0, "equal": 0}
    for b in itertools.combinations(range(len(unseen)), 2):
        rest = [i for i in range(len(unseen)) if i not in b]
        for p in itertools.combinations(rest, 2):
            sb = evaluate([unseen[i] for i in b]).strength
            sp = evaluate([unseen[i] for i in p]).strength
            counts["banker" if sb > sp else "player" if sp > sb else "equal"] += 1
    total = sum(counts.values())
    odds = pairing_odds(unseen)
    assert (odds.banker, odds.player, odds.equal) == tuple(
        Fraction(counts[k], total) for k in ("banker", "player", "equal")
    )
    full = pairing_odds(full_set())
    assert full.banker == full.player  # symmetric: both hands come from the same 32 tiles
    assert full.banker + full.player + full.equal == 1


def test_sensible_bot_with_the_default_table_keeps_its_exposure_least() -> None:
    # 5 % commission: both sides lose on average, so no bid and the lowest bet
    r = start(n=2)
    view = r.view("S1")
    assert player_edge(view) < 0 and banker_value(view, 1, [1, 1, 1]) < 0
    bot = SensiblePaigowBot()
    assert bot.choose(view, r.legal_actions("S1"), Rng(seed(0))) == {"type": "bid", "multiple": 0}
    r.act("S2", {"type": "bid", "multiple": 2})
    r.expire()
    assert bot.choose(r.view("S1"), r.legal_actions("S1"), Rng(seed(0))) == {
        "type": "bet",
        "multiple": 1,
    }


def test_sensible_bot_banks_by_stack_when_the_banker_has_the_edge() -> None:
    # no commission, ties to the banker: the banker's edge is the equal hands; it bids the
    # highest multiple whose worst case (all bet 5 and win, each capped by its stack) fits half
    # its stack
    config = PaigowConfig(commission="0")
    bot = SensiblePaigowBot()
    rich = start((50_000, 5000, 5000, 5000), config=config)
    poor = start((2000, 5000, 5000, 5000), config=config)
    choice = bot.choose(rich.view("S1"), rich.legal_actions("S1"), Rng(seed(0)))
    assert choice == {"type": "bid", "multiple": 4}  # worst 3·min(2000, 5000) = 6000 ≤ 25000
    choice = bot.choose(poor.view("S1"), poor.legal_actions("S1"), Rng(seed(0)))
    assert choice == {"type": "bid", "multiple": 0}  # even X = 1 risks 1500 > 1000
    push = start((50_000, 5000, 5000, 5000), config=PaigowConfig(commission="0", tie_policy="push"))
    assert banker_value(push.view("S1"), 1, [1, 1, 1]) == pytest.approx(0, abs=1e-9)


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(0, 10**6),
    commission=st.sampled_from(["0", "0.01", "0.05"]),
    tie_policy=st.sampled_from(["banker", "push"]),
    high_nine=st.sampled_from(["any-seven", "named"]),
)
def test_a_player_never_has_the_edge_in_round_two(
    n: int, commission: str, tie_policy: str, high_nine: str
) -> None:
    # the banker's hand and a player's are exchangeable draws from the 24 unseen tiles
    config = PaigowConfig(commission=commission, tie_policy=tie_policy, high_nine=high_nine)  # type: ignore[arg-type]
    r = start(n=n, config=config, context={"round": 2, "seats": IDS})
    view = r.view("S3")
    assert len(view["seen_tiles"]) == 8
    unseen = unseen_tiles(view)
    seen = parse_tiles([t["pips"] for t in view["seen_tiles"]])
    assert len(unseen) == 24 and Counter(unseen) + Counter(seen) == Counter(full_set())
    odds = pairing_odds(unseen, high_nine)  # type: ignore[arg-type]
    assert odds.banker == odds.player and odds.banker + odds.player + odds.equal == 1
    assert player_edge(view) <= 0
    assert SensiblePaigowBot().choose(view, r.legal_actions("S3"), Rng(seed(0)))["type"] == "bid"
