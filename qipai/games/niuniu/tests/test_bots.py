"""Niu Niu bots: always legal, seeing only their own view; the sensible bot follows the advisor."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.bots.base import Bot
from qipai.core.cards import parse_cards
from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.games.niuniu import NiuniuConfig, NiuniuRound
from qipai.games.niuniu.advisor import best_swap
from qipai.games.niuniu.bots import BOTS, RandomBot, SensibleBot, edge_by_key, hand_edge
from qipai.games.niuniu.hands import HandType, key_of


def play(round_: NiuniuRound, bots: Mapping[str, Bot], rng: Rng) -> None:
    """Every awaited seat acts through its bot until the round ends (no expiry)."""
    while not round_.finished:
        for seat in round_.awaiting():
            legal = round_.legal_actions(seat)
            action = bots[seat].choose(round_.view(seat), legal, rng)
            round_.act(seat, action)  # raises if a bot ever picks an illegal action


@settings(max_examples=12, deadline=None)
@given(st.integers(2, 5), st.integers(0, 2**31), st.lists(st.booleans(), min_size=5, max_size=5))
def test_bots_play_legal_rounds(n: int, s: int, kinds: list[bool]) -> None:
    seats = [Seat(f"p{i}", 2_000 * (i + 1)) for i in range(n)]
    bots: dict[str, Bot] = {
        seat.id: (SensibleBot() if kinds[i] else RandomBot()) for i, seat in enumerate(seats)
    }
    r = NiuniuRound.start(NiuniuConfig(), seats, Rng(s.to_bytes(8, "big") * 4))
    play(r, bots, Rng(b"bots" * 8))
    assert sum(p.amount for p in r.result().postings) == 0


def test_sensible_bot_swaps_as_the_advisor_says() -> None:
    r = NiuniuRound.start(
        NiuniuConfig(hints=False), [Seat("a", 10**6), Seat("b", 10**6)], Rng(b"q" * 32)
    )
    bot = SensibleBot()
    view = r.view("a")
    action = bot.choose(view, r.legal_actions("a"), Rng(b"z" * 32))
    best = best_swap(r.cards["a"])
    assert action == {"type": "swap", "cards": [str(c) for c in best.discard]}
    with_hint = NiuniuRound.start(
        NiuniuConfig(), [Seat("a", 10**6), Seat("b", 10**6)], Rng(b"q" * 32)
    )
    assert bot.choose(with_hint.view("a"), with_hint.legal_actions("a"), Rng(b"z" * 32)) == action


def test_edge_orders_hands() -> None:
    edge = edge_by_key()
    best = key_of(parse_cards("Ac Ad 2h 2s 3c"))  # a five-small hand
    worst = key_of(parse_cards("Ac 2d 4h 6s 8c"))  # no bull, top card 8
    assert edge[best] > 4 and edge[worst] < -1
    assert HandType(best // 64) == HandType.FIVE_SMALL
    assert hand_edge(parse_cards("Kc Qd Jh Js")) > hand_edge(parse_cards("Ac 2d 4h 6s"))


def test_registry() -> None:
    assert set(BOTS) == {"random", "sensible"}
    assert BOTS["sensible"].name == "sensible"


@pytest.mark.slow
def test_sensible_beats_random() -> None:
    """Over many rounds at one table, sensible seats end ahead of random seats."""
    totals = {"sensible": 0, "random": 0}
    rng = Rng(b"match" * 8)
    for n in range(400):
        seats = [Seat(f"p{i}", 100_000) for i in range(4)]
        bots: dict[str, Bot] = {
            s.id: (SensibleBot() if (i + n) % 2 else RandomBot()) for i, s in enumerate(seats)
        }
        r = NiuniuRound.start(NiuniuConfig(), seats, Rng(n.to_bytes(4, "big") * 8))
        play(r, bots, rng)
        for seat in seats:
            totals[bots[seat.id].name] += r.result().net(seat.id)
    assert totals["sensible"] > totals["random"], totals
