"""The swap hint maximises the player's money, for every four-card hand class, and the bots and
the environment follow it.

"Money" is the expected net against the banker per unit of stake (base × banker multiple × own
multiple) after the commission, against the banker's final-type distribution under the same
policy (docs/rtp.md section 2). The reference here is the analysis's own enumeration of every
completion of every four-card rank multiset (`swap_counts`, a numba kernel independent of the
advisor's per-hand counting) and `pair_value`, the settlement of one pairing in exact fractions.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from qipai.core.cards import Card, parse_cards
from qipai.core.protocol import ActionSpec, Seat
from qipai.core.rng import Rng
from qipai.games.niuniu import NiuniuConfig, NiuniuRound
from qipai.games.niuniu import analysis as niuniu
from qipai.games.niuniu.advisor import advise, hint
from qipai.games.niuniu.bots import SensibleBot
from qipai.games.niuniu.env import MAX_MULTIPLIER, NiuniuEncoder


def representative(ranks: list[int]) -> list[Card]:
    """Cards with these zero-based Niu Niu ranks (A = 0 … K = 12), suits spread."""
    used: dict[int, int] = {}
    cards = []
    for r in ranks:
        suit = used.get(r, 0)
        used[r] = suit + 1
        cards.append(Card(14 if r == 0 else r + 1, suit))
    return cards


@cache
def exact_money(commission: Fraction) -> tuple[np.ndarray, list[list[Fraction]]]:
    """(hand classes, per class the exact expected net of each of the 16 keep masks)."""
    _, mult, _ = niuniu._game()
    g = niuniu.pair_value(mult, commission)
    _, dist = niuniu.optimal_swap(commission=commission)
    value = [sum((g[t][u] * dist[u] for u in range(15)), Fraction(0)) for t in range(15)]
    hands, _, counts = niuniu.swap_counts()
    out = []
    for h in range(hands.shape[0]):
        row = []
        for mask in range(16):
            c = [int(x) for x in counts[h, mask]]
            row.append(sum((value[t] * c[t] for t in range(15)), Fraction(0)) / sum(c))
        out.append(row)
    return hands, out


def keep_mask(hand: list[Card], discard: list[str]) -> int:
    return sum(1 << i for i, c in enumerate(hand) if str(c) not in discard)


def test_hint_has_the_highest_expected_money_of_all_16_choices_for_every_hand_class() -> None:
    hands, money = exact_money(Fraction(4, 100))
    worse_by_multiplier = 0
    for h in range(hands.shape[0]):
        cards = representative([int(r) for r in hands[h]])
        data = hint(cards, commission="0.04")
        best = money[h][keep_mask(cards, data["best"]["discard"])]
        assert best == max(money[h]), (cards, data["best"]["discard"])
        assert data["best"]["expected_net"] == pytest.approx(float(best), abs=1e-12)
        alt = money[h][keep_mask(cards, data["by_multiplier"]["discard"])]
        worse_by_multiplier += alt < best
    # The multiplier ranking (the former hint) loses money on a sizeable share of classes.
    assert worse_by_multiplier > hands.shape[0] // 10


@pytest.mark.parametrize("commission", ["0", "0.1"])
def test_hint_follows_the_tables_commission(commission: str) -> None:
    hands, money = exact_money(Fraction(commission))
    for h in range(0, hands.shape[0], 37):  # a spread of classes; the full sweep is above at 4 %
        cards = representative([int(r) for r in hands[h]])
        choice = advise(cards, commission=commission)[0]
        assert money[h][keep_mask(cards, [str(c) for c in choice.discard])] == max(money[h])


def test_the_round_hints_at_its_own_commission() -> None:
    config = NiuniuConfig(commission="0.1")
    r = NiuniuRound.start(config, [Seat("a", 10**6), Seat("b", 10**6)], Rng(b"h" * 32))
    assert r.view("a")["me"]["hint"] == hint(r.cards["a"], commission="0.1")


def test_2_5_10_j_swaps_the_two_and_five() -> None:
    # Keeping 10-J (a made bull's pair of tens) and redrawing 2-5 is worth about +0.26 per unit
    # more than keeping all four, which is what the multiplier ranking would do.
    cards = parse_cards("2s 5d Tc Jh")
    data = hint(cards)
    assert sorted(data["best"]["discard"]) == ["2s", "5d"]
    assert data["by_multiplier"]["discard"] == []
    keep_all = next(c for c in advise(cards) if not c.discard)
    gain = advise(cards)[0].expected_net - keep_all.expected_net
    assert Fraction(25, 100) < gain < Fraction(27, 100)


def test_bots_swap_as_the_money_hint_for_every_hand_class() -> None:
    bot = SensibleBot()
    hands, money = exact_money(Fraction(4, 100))
    for h in range(hands.shape[0]):
        cards = representative([int(r) for r in hands[h]])
        names = [str(c) for c in cards]
        spec = ActionSpec("swap", {"cards": names})
        # Without a hint in its view (table setting hints off) the bot computes it itself.
        view = {"commission": "0.04", "me": {"cards": names, "hint": None}}
        action = bot.choose(view, [spec], Rng(b"b" * 32))
        assert money[h][keep_mask(cards, action["cards"])] == max(money[h]), names


def test_bots_follow_the_hint_in_a_real_round() -> None:
    bot = SensibleBot()
    for n in range(6):
        r = NiuniuRound.start(
            NiuniuConfig(), [Seat("a", 10**6), Seat("b", 10**6)], Rng(bytes([n]) * 32)
        )
        view = r.view("a")
        action = bot.choose(view, r.legal_actions("a"), Rng(b"z" * 32))
        assert action == {"type": "swap", "cards": view["me"]["hint"]["best"]["discard"]}


def test_env_swap_ev_is_the_expected_money() -> None:
    config = NiuniuConfig()
    r = NiuniuRound.start(config, [Seat("a", 10**6), Seat("b", 10**6)], Rng(b"e" * 32))
    view = r.view("a")
    enc = NiuniuEncoder(config, 2)
    evs = enc._swap_evs(view)
    cards = view["me"]["cards"]
    for choice in advise(r.cards["a"]):
        k = sum(1 << cards.index(str(c)) for c in choice.discard)
        assert evs[k] == pytest.approx(float(choice.expected_net) / MAX_MULTIPLIER)
    assert max(range(16), key=lambda k: evs[k]) == sum(
        1 << cards.index(c) for c in view["me"]["hint"]["best"]["discard"]
    )
