"""Swap Niu Niu analysis: rank-multiset counting against the game's own tables and advisor."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.cards import Card
from qipai.games.niuniu import analysis as niuniu
from qipai.games.niuniu.advisor import advise
from qipai.games.niuniu.hands import rank_type_table


def test_type_counts_total_and_known_rows() -> None:
    counts = niuniu.type_counts()
    assert int(counts.sum()) == math.comb(52, 5)
    # Five royals: five of the 12 J/Q/K cards with no four of a kind: C(12,5) - 3·C(4,4)·8 = 768.
    assert int(counts[12]) == math.comb(12, 5) - 3 * 8
    # Bombs: 13 ranks × 48 fifth cards, less the five-small ones (every card under 5 points,
    # total ≤ 10): A-A-A-A with a 2, 3 or 4 (12 hands) and 2-2-2-2 with an A (4 hands).
    assert int(counts[13]) == 13 * 48 - 16


def test_multiset_types_match_the_game_table() -> None:
    """The readable classifier and the game's numba table agree on every rank multiset."""
    _, ranks = niuniu.multisets(5)
    index = np.zeros(ranks.shape[0], np.int64)
    for i in range(5):
        index = index * 13 + ranks[:, i]
    assert np.array_equal(niuniu.multiset_types(), rank_type_table()[index].astype(np.int64))


def test_joint_rows_are_marginals() -> None:
    """Σ_u J[t, u] = (hands of type t) × C(47, 5): the second hand ranges over the rest."""
    joint = niuniu.joint_types()
    assert np.array_equal(joint.sum(axis=1), niuniu.type_counts() * math.comb(47, 5))
    assert np.array_equal(joint, joint.T)  # the two hands are exchangeable


@settings(max_examples=6, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=4, max_size=4, unique=True))
def test_swap_counts_match_the_game_advisor(ids: list[int]) -> None:
    """Every keep choice's type counts equal the game's exact advisor for that hand."""
    cards = [Card.from_id(i) for i in ids]
    hands, _, counts = niuniu.swap_counts()
    niu = sorted(((c.rank - 1) % 13, c) for c in cards)  # zero-based Niu Niu rank: A=0 … K=12
    ranks = [r for r, _ in niu]
    h = next(i for i in range(hands.shape[0]) if list(hands[i]) == ranks)
    for choice in advise([c for _, c in niu]):
        mask = sum(1 << i for i, (_, c) in enumerate(niu) if c in choice.keep)
        assert tuple(int(x) for x in counts[h, mask]) == choice.counts


def test_swapping_helps_and_no_swap_is_fair_between_seats() -> None:
    _, dist = niuniu.optimal_swap()
    assert sum(dist) == 1
    base = [Fraction(int(c), math.comb(52, 5)) for c in niuniu.type_counts()]
    assert dist[0] < base[0]  # fewer no-bull hands after an optimal swap
    ev = niuniu.player_ev_no_swap()
    assert -Fraction(1, 10) < ev < 0  # the commission makes both sides lose
