"""Hold'em Bonus main bets: the enumeration kernel and the optimiser against brute force.

Small decks keep brute force feasible while running the very same kernel and decision code as
the full-deck computation."""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import combinations
from typing import Any

import numpy as np
import pytest

from qipai.analysis import holdem_optimal as ho
from qipai.analysis.holdem_main import state_counts
from qipai.core.cards import Card
from qipai.poker.evaluator import _strength_py
from qipai.poker.tables import tables

# Ten cards: T..A in clubs and diamonds (straights, flushes, full houses all possible).
DECK10 = tuple(r * 4 + s for r in range(8, 13) for s in (0, 1))
# Twelve cards: Q, K, A in all four suits (closed under suit permutations).
DECK12 = tuple(r * 4 + s for r in range(10, 13) for s in range(4))


def _board_cat(cards: tuple[int, ...]) -> int:
    counts = sorted(sum(1 for c in cards if c >> 2 == r) for r in {c >> 2 for c in cards})
    if counts[-1] == 4:
        return 7
    if counts[-1] == 3:
        return 3
    return min(2, counts.count(2))


def _simple_turn(hole: tuple[int, ...], flop: tuple[int, ...], strength: Any) -> bool:
    if any(c >> 2 == 12 for c in hole):
        return True
    if strength(hole + flop) >> 12 > _board_cat(flop):
        return True
    for s in range(4):
        n = sum(1 for c in hole + flop if c & 3 == s)
        if n >= 4 and any(c & 3 == s for c in hole):
            return True
    return False


def _simple_river(hole: tuple[int, ...], board: tuple[int, ...], strength: Any) -> bool:
    return bool(strength(hole + board) >> 12 > _board_cat(board))


@lru_cache(maxsize=2)
def _raw_deals(deck: tuple[int, ...]) -> list[tuple[str, list[tuple[list[Any], bool]], bool]]:
    """Per (hole, flop): the hole's class, per turn card the river results (win < straight,
    win straight+, tie, loss over river × dealer) with the simple river rule's bet, and the
    simple turn rule's bet — by plain enumeration of every card."""
    t = tables()
    memo: dict[tuple[int, ...], int] = {}

    def strength(cards: tuple[int, ...]) -> int:
        key = tuple(sorted(cards))
        if key not in memo:
            memo[key] = _strength_py(key, t)
        return memo[key]

    out = []
    for hole in combinations(deck, 2):
        rest1 = [c for c in deck if c not in hole]
        for flop in combinations(rest1, 3):
            rest2 = [c for c in rest1 if c not in flop]
            per_turn = []
            for tc in rest2:
                rest3 = [c for c in rest2 if c != tc]
                res = [0, 0, 0, 0]
                for rc in rest3:
                    board = (*flop, tc, rc)
                    ps = strength(hole + board)
                    for d in combinations([c for c in rest3 if c != rc], 2):
                        ds = strength(d + board)
                        if ps > ds:
                            res[1 if ps >> 12 >= 4 else 0] += 1
                        elif ps == ds:
                            res[2] += 1
                        else:
                            res[3] += 1
                per_turn.append((res, _simple_river(hole, (*flop, tc), strength)))
            out.append((ho.hole_class(*hole), per_turn, _simple_turn(hole, flop, strength)))
    return out


def brute_force(
    deck: tuple[int, ...], rule: str, simple: bool = False, folds: frozenset[str] = frozenset()
) -> tuple[dict[tuple[int, int, int], int], int]:
    """Every deal of `deck`, decisions made from scratch per decision point."""
    by_class: dict[str, list[tuple[int, int, int, int]]] = {}
    for name, per_turn, simple_turn in _raw_deals(deck):
        if simple:
            rbets = [b for _r, b in per_turn]
            tbet = simple_turn
        else:
            rbets = [r[0] + r[1] > r[3] for r, _b in per_turn]
            d_turn = sum(r[0] + r[1] - r[3] for r, _b in per_turn)
            d_river = sum(
                r[0] + r[1] - r[3] for (r, _b), b in zip(per_turn, rbets, strict=True) if b
            )
            tbet = d_turn + d_river > 0 if rule == "source" else d_turn > 0
        deals = by_class.setdefault(name, [])
        for (res, _b), rbet in zip(per_turn, rbets, strict=True):
            river = rbet and (tbet or rule == "common")
            for i in range(4):
                deals.append((int(tbet), int(river), i, res[i]))
    outcomes: dict[tuple[int, int, int], int] = {}
    fold_total = 0
    for name, deals in by_class.items():
        value = sum(ho.outcome_net(t_, r_, i) * n for t_, r_, i, n in deals)
        total = sum(n for *_x, n in deals)
        play = name not in folds if simple else value > -total
        if not play:
            fold_total += total
            continue
        for t_, r_, i, n in deals:
            outcomes[(t_, r_, i)] = outcomes.get((t_, r_, i), 0) + n
    return {k: v for k, v in outcomes.items() if v}, fold_total


def _nonzero(d: dict[tuple[int, int, int], int]) -> dict[tuple[int, int, int], int]:
    return {k: v for k, v in d.items() if v}


@pytest.fixture(scope="module")
def sol10() -> ho.Solution:
    return ho.solve(DECK10, isomorphism=False)


@pytest.mark.parametrize("rule", ho.RULES)
def test_optimal_matches_brute_force(sol10: ho.Solution, rule: str) -> None:
    play = ho.evaluate(sol10, rule)
    expected, folds = brute_force(DECK10, rule)
    assert _nonzero(play.outcomes) == expected
    assert play.folds == folds
    assert play.total == 45 * sol10.endings_per_hole == sum(expected.values()) + folds


@pytest.mark.parametrize("rule", ho.RULES)
def test_simple_strategy_matches_brute_force(sol10: ho.Solution, rule: str) -> None:
    folds = frozenset({"TJo", "TQo"})
    play = ho.evaluate(sol10, rule, simple=True, fold_classes=folds)
    expected, fold_total = brute_force(DECK10, rule, simple=True, folds=folds)
    assert _nonzero(play.outcomes) == expected
    assert play.folds == fold_total


def test_optimal_beats_simple_and_common_beats_source(sol10: ho.Solution) -> None:
    def ev(p: ho.Play) -> int:
        return sum(ho.outcome_net(*k) * v for k, v in p.outcomes.items()) - p.folds

    src, com = ho.evaluate(sol10, "source"), ho.evaluate(sol10, "common")
    assert ev(com) >= ev(src)  # the common rule only adds an option
    for rule, opt in (("source", src), ("common", com)):
        assert ev(opt) >= ev(ho.evaluate(sol10, rule, simple=True, fold_classes=frozenset()))


def test_suit_isomorphism_is_exact() -> None:
    flops, weights = ho.canonical_flops(DECK12)
    assert weights.sum() == math.comb(12, 3) and len(flops) < math.comb(12, 3)
    iso = ho.solve(DECK12, isomorphism=True)
    full = ho.solve(DECK12, isomorphism=False)
    for rule in ho.RULES:
        for simple in (False, True):
            a = ho.evaluate(iso, rule, simple, frozenset())
            b = ho.evaluate(full, rule, simple, frozenset())
            assert a.outcomes == b.outcomes and a.folds == b.folds
            assert a.class_value == b.class_value


def test_full_deck_flop_classes() -> None:
    flops, weights = ho.canonical_flops(ho.FULL_DECK)
    assert len(flops) == 1755 and weights.sum() == 22100


def test_state_counts_agree_with_the_kernel(sol10: ho.Solution) -> None:
    """Direct enumeration of one decision point equals the kernel's per-(flop, hole) counts."""
    t = tables()
    deck = np.array(DECK10, np.int64)
    index = {tuple(f): i for i, f in enumerate(sol10.flops.tolist())}
    pc = ho.pair_cards()
    for fi, flop in enumerate(list(index)[:12]):
        for p in np.flatnonzero(sol10.valid[fi])[:5]:
            hole = pc[p]
            if not (set(hole.tolist()) <= set(DECK10)):
                continue
            rows = state_counts(hole, np.array(flop), 3, deck, t.noflush, t.flush, t.card_keys)
            got = sol10.counts[fi, p]
            assert rows.sum(axis=0).tolist() == got[:4].tolist()
            bet_rows = rows[rows[:, 0] > rows[:, 3]]
            assert bet_rows.sum(axis=0).tolist() == got[4:8].tolist()


def test_outcome_nets_are_the_games_payout() -> None:
    """`outcome_net` equals the game's own main-bet settlement for every bet pattern."""
    from qipai.games.holdem_bonus.hands import PokerHand
    from qipai.games.holdem_bonus.payout import BoxPlay, main_nets
    from qipai.poker import Category

    hole = (Card.from_id(0), Card.from_id(1))
    low = PokerHand(1 << 12, Category.PAIR, ())
    high = PokerHand(4 << 12, Category.STRAIGHT, ())
    lower = PokerHand(5, Category.HIGH_CARD, ())
    for turn in (0, 1):
        for river in (0, 1):
            play = BoxPlay("1", "p", hole, 1, flop=True, turn=bool(turn), river=bool(river))
            cases = [(low, lower, 0), (high, lower, 1), (low, low, 2), (lower, low, 3)]
            for mine, dealer, result in cases:
                _o, nets = main_nets(play, mine, dealer)
                assert sum(nets.values()) == ho.outcome_net(turn, river, result)
