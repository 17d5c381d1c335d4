"""Pok Deng exact figures: the class-grouped enumeration against brute force on a one-deck shoe."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qipai.core.cards import Card
from qipai.games.pokdeng.analysis import _hand_key, analyse, best_bet, hand_classes
from qipai.games.pokdeng.hands import evaluate
from qipai.games.pokdeng.payout import banker_player_side, classic_position


def test_weights_count_every_deal() -> None:
    """Class weights sum to C(416,2)·C(414,2): every pair of disjoint two-card hands once."""
    _, w = hand_classes(8)
    assert int(w.sum()) == (416 * 415 // 2) * (414 * 413 // 2)


@pytest.mark.slow
def test_one_deck_brute_force_classic() -> None:
    """With one deck, every (player, banker) pair of disjoint hands settled one by one agrees."""
    cards = [Card.from_id(i) for i in range(52)]
    hands = [evaluate(a, b) for a, b in combinations(cards, 2)]
    ids = [frozenset((a, b)) for a, b in combinations(range(52), 2)]
    tally: Counter[Fraction] = Counter()
    for i, p in enumerate(hands):
        pi = ids[i]
        for j, b in enumerate(hands):
            if pi & ids[j]:
                continue
            returned, _, _ = classic_position(100, p, b)
            tally[Fraction(returned - 200, 100)] += 1
    total = sum(tally.values())
    ev = sum(net * n for net, n in tally.items()) / total
    assert analyse("classic", decks=1).bet("Pn").ev == ev


@given(st.lists(st.integers(0, 51), min_size=4, max_size=4, unique=True))
def test_payout_depends_only_on_the_class(ids: list[int]) -> None:
    """The class grouping is sound: any deal settles like its classes' representatives."""
    reps, _ = hand_classes(8)
    by_key = {_hand_key(h): h for h in reps}
    c = [Card.from_id(i) for i in ids]
    p, b = evaluate(c[0], c[1]), evaluate(c[2], c[3])
    rp, rb = by_key[_hand_key(p)], by_key[_hand_key(b)]
    assert classic_position(100, p, b) == classic_position(100, rp, rb)
    rates = (Fraction(19, 20), Fraction(19, 10))
    assert banker_player_side(100, p, b, rates) == banker_player_side(100, rp, rb, rates)


def test_pair_bet_exact() -> None:
    """P(pair) from 8 decks = 31/415 (the second card matches the first's rank), paid 11:1."""
    fig = analyse("classic").bet("Pn pair")
    assert fig.ev == Fraction(12 * 31, 415) - 1


def test_banker_player_symmetry() -> None:
    """In banker-player mode Pn and Bn are mirror images: equal outcome distributions."""
    report = analyse("banker-player")
    p, b = report.bet("Pn"), report.bet("Bn")
    assert [(o.label, o.probability) for o in p.outcomes] == [
        (o.label, o.probability) for o in b.outcomes
    ]


def test_source_claim_refuted() -> None:
    """The best player return is classic Pn at 97.50 %, not 'about 97.3 %' (docs/rules/pokdeng.md#differences)."""
    reports = [analyse("classic"), analyse("banker-player")]
    mode, bet, rtp = best_bet(reports)
    assert (mode, bet) == ("classic", "Pn")
    assert float(rtp) == pytest.approx(0.974998, abs=1e-6)
