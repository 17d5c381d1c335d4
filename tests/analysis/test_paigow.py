"""Pai Gow analysis: strength-class counting against direct enumeration, and round 2's average."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

from qipai.core.tiles import full_set
from qipai.games.paigow import analysis as paigow
from qipai.games.paigow.hands import evaluate, outcome

RATE = Fraction(1, 20)


def test_counts_cover_every_deal() -> None:
    assert int(paigow.pair_counts("any-seven").sum()) == 496 * 435


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["banker", "push"])
def test_direct_enumeration(policy: str) -> None:
    """Every (banker pair, player pair) of distinct physical tiles, settled one by one."""
    tiles = full_set()
    pairs = list(combinations(range(32), 2))
    hands = {p: evaluate([tiles[p[0]], tiles[p[1]]]) for p in pairs}
    total = Fraction(0)
    n = 0
    for b in pairs:
        for p in pairs:
            if set(b) & set(p):
                continue
            verdict = outcome(hands[b], hands[p], policy)  # type: ignore[arg-type]
            total += {"player": 1 - RATE, "push": 0, "banker": -1}[verdict]
            n += 1
    assert paigow.player_figures("any-seven", policy, RATE).ev == total / n


def test_round_two_average_is_round_one() -> None:
    """Exchangeability, checked exactly: averaging the conditional expectation over every
    removed tile gives the unconditional one (the same argument covers round 1's eight)."""
    full = paigow.player_figures("any-seven", "banker", RATE).ev
    avg = sum(
        (paigow.player_figures("any-seven", "banker", RATE, [t]).ev for t in range(32)),
        Fraction(0),
    )
    assert avg / 32 == full


def test_push_policy_is_better_for_the_player() -> None:
    for high_nine in ("any-seven", "named"):
        banker = paigow.player_figures(high_nine, "banker", RATE).ev
        push = paigow.player_figures(high_nine, "push", RATE).ev
        assert push > banker
