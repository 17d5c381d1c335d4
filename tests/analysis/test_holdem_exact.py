"""Hold'em Bonus exact analysis: kernels against brute force, payoffs against the game's own
settlement, bonus and pool figures, and (slow) the full result against published figures."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from qipai.analysis import holdem_kernels as k
from qipai.analysis.holdem_report import bonus_figures, pool_table, simple_strategy
from qipai.analysis.holdem_strategy_exact import cache_path, load_or_compute, start_classes
from qipai.core.cards import parse_cards
from qipai.games.holdem_bonus.hands import PokerHand
from qipai.games.holdem_bonus.payout import BoxPlay, main_nets
from qipai.poker.categories import Category
from qipai.poker.evaluator import evaluate_batch
from qipai.poker.tables import tables
from tests.conftest import require_service

PERMS = np.array(list(itertools.permutations(range(4))), np.int64)
INVERSE = np.argsort(PERMS, axis=1).astype(np.int64)


def _brute(board: list[int], hole: tuple[int, int]) -> tuple[int, int, int]:
    """(wins − losses, ante: wins with straight+ − losses, wins + losses) over all dealer hands."""
    rest = [c for c in range(52) if c not in board and c not in hole]
    deals = np.array([[*board, a, b] for a, b in itertools.combinations(rest, 2)])
    dealer = evaluate_batch(deals).astype(np.int64)
    mine = int(evaluate_batch(np.array([[*board, *hole]]))[0])
    wins = int((mine > dealer).sum())
    losses = int((mine < dealer).sum())
    return wins - losses, (wins if mine >= k.STRAIGHT else 0) - losses, wins + losses


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_board_outcomes_match_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    cards = rng.permutation(52)[:9].tolist()
    board, holes = cards[:5], [(cards[5], cards[6]), (cards[7], cards[8])]
    t = tables()
    o = np.zeros((52, 52), np.int64)
    a = np.zeros((52, 52), np.int64)
    q = np.zeros((52, 52), np.int64)
    k.board_outcomes(np.array(board, np.int64), t.noflush, t.flush, t.card_keys, o, a, q)
    for x, y in holes:
        assert (int(o[x, y]), int(a[x, y]), int(q[x, y])) == _brute(board, (x, y))


def _canonical(board: list[int]) -> list[int]:
    images = []
    for p in PERMS:
        images.append(sorted((c & ~3) | int(p[c & 3]) for c in board))
    return min(images, key=lambda img: sum(_comb(c, i + 1) for i, c in enumerate(img)))


def _comb(n: int, r: int) -> int:
    from math import comb

    return comb(n, r)


@pytest.mark.slow
def test_river_sums_match_brute_force() -> None:
    """R(h, B4) from the scatter over suit images equals Σ over rivers by brute force."""
    four = [c.id for c in parse_cards("Ah Td 7c 2s")]
    boards = {tuple(_canonical([*four, r])) for r in range(52) if r not in four}
    classes = np.array([c.cards for c in start_classes()], np.int64)
    t = tables()
    acc = k.river_sums(
        np.array(sorted(boards), np.int64),
        PERMS,
        INVERSE,
        classes,
        t.noflush,
        t.flush,
        t.card_keys,
        1,
    )
    idx = sum(_comb(c, i + 1) for i, c in enumerate(sorted(four)))
    for h in (0, 1, 2, 40, 168):
        hole = tuple(int(c) for c in classes[h])
        if set(hole) & set(four):
            continue
        total = np.zeros(3, np.int64)
        for r in range(52):
            if r in four or r in hole:
                continue
            total += np.array(_brute([*four, r], hole))  # type: ignore[arg-type]
        assert tuple(int(v) for v in acc[idx, h]) == tuple(int(v) for v in total)


@pytest.mark.slow
def test_canonical_board_count() -> None:
    """5-card boards up to suit permutation: 134,459 classes."""
    assert k.canonical_boards(PERMS).shape[0] == 134_459


@pytest.mark.parametrize(
    ("turn", "river"), [(False, False), (True, False), (True, True), (False, True)]
)
def test_kernel_nets_are_the_game_settlement(turn: bool, river: bool) -> None:
    """Win with straight+: 1 + k; win with less: k; tie: 0; loss: −(1 + k), k = 2 + bets —
    the nets the kernels count — are exactly what the game's `main_nets` pays per ante."""
    hole = tuple(parse_cards("As Kd"))
    play = BoxPlay("1", "p", hole, 100, flop=True, turn=turn, river=river)  # type: ignore[arg-type]
    k_bets = 2 + turn + river
    straight = PokerHand(Category.STRAIGHT << 12, Category.STRAIGHT, ())
    pair = PokerHand(Category.PAIR << 12, Category.PAIR, ())
    weak = PokerHand(0, Category.HIGH_CARD, ())
    cases = [
        (straight, weak, 1 + k_bets),
        (pair, weak, k_bets),
        (pair, pair, 0),
        (weak, pair, -1 - k_bets),
    ]
    for mine, dealer, net in cases:
        _, nets = main_nets(play, mine, dealer)
        assert sum(nets.values()) == net * 100


def test_bonus_figures() -> None:
    """Source table: Σ lines counted by hand; with small pairs, 36 more pairs at 3:1."""
    source = bonus_figures("source")
    # 6/1326 AA (1/1225 of them against dealer AA), 4 AKs, 8 AQs/AJs, 12 AKo, 18 KK/QQ/JJ, 24 AQo/AJo
    ev = (
        Fraction(6, 1326) * (Fraction(1, 1225) * 1000 + Fraction(1224, 1225) * 30)
        + Fraction(4 * 25 + 8 * 20 + 12 * 15 + 18 * 10 + 24 * 5, 1326)
        - Fraction(1326 - 6 - 4 - 8 - 12 - 18 - 24, 1326)
    )
    assert source.ev == ev
    small = bonus_figures("with-small-pairs")
    assert small.ev == ev + Fraction(9 * 6, 1326) * 4  # nine ranks 2..10 × 6 pairs: −1 → +3


def test_pool_counts_are_the_five_card_counts() -> None:
    table, facts, balance = pool_table()
    assert len(balance.rows) >= 5
    counts = {row[0]: row[1] for row in table.rows}
    assert counts == {
        "Royal flush": 4,
        "Straight flush": 36,
        "Four of a kind": 624,
        "Full house": 3744,
        "Flush": 5108,
        "Straight": 10200,
    }
    assert facts["pool: P(any jackpot hand)"] == Fraction(
        4 + 36 + 624 + 3744 + 5108 + 10200, 2598960
    )


def test_simple_strategy_rules() -> None:
    c = parse_cards
    assert not simple_strategy("flop", c("7c 2d"), [])
    assert simple_strategy("flop", c("7c 2c"), [])
    assert simple_strategy("turn", c("Kc 9d"), c("Ks 4h 2c"))  # pair with a hole card
    assert not simple_strategy("turn", c("Kc 9d"), c("5s 5h 2c"))  # board pair only
    assert simple_strategy("river", c("Kc 9d"), c("5c 7c 2c Jh"))  # four to a flush
    assert not simple_strategy("river", c("Kh 9d"), c("5c 7c 2c Jc"))  # board flush draw only


@pytest.mark.slow
def test_full_result_matches_published_figures() -> None:
    """The common (Las Vegas) rule: house edge 2.037 %, element of risk 0.5335 %, and the folds
    2-3 … 2-7 offsuit with the EVs Wizard of Odds publishes (wizardofodds.com/texasholdembonus).
    Uses the cached sums when present (`qipai rtp holdem-bonus` computes them: minutes)."""
    require_service(
        cache_path().exists(),
        "the cached exact Hold'em Bonus sums (`qipai rtp holdem-bonus` computes them; .ci/run does)",
    )
    from qipai.analysis.holdem_report import analyse, preflop_table

    report = analyse("common")[0]
    assert (
        round(float(report.bet("ante, optimal strategy, common rule").house_edge) * 100, 3) == 2.037
    )
    rows = {r[0]: r for r in preflop_table(load_or_compute()).rows}
    assert rows["32o"][4] == "-1.155927"
    assert rows["72o"][4] == "-1.031301"
    assert {name for name, r in rows.items() if r[5] == "FOLD"} == {
        "32o",
        "42o",
        "52o",
        "62o",
        "72o",
    }


@pytest.mark.slow
def test_agrees_exactly_with_the_parallel_implementation() -> None:
    """`holdem_bonus` (per canonical flop, another author) and this module (per canonical
    five-card board) are independent enumerations: their optimal returns and variances must be
    the same Fractions under both rules."""
    from qipai.analysis import holdem_bonus, holdem_optimal
    from qipai.analysis.holdem_report import analyse

    require_service(
        cache_path().exists() and holdem_optimal.cache_path().exists(),
        "both cached exact Hold'em Bonus computations (.ci/run computes them)",
    )
    ours = analyse()[0]
    for rule in ("source", "common"):
        theirs = holdem_bonus.main_report(rule).bets[0]
        mine = ours.bet(f"ante, optimal strategy, {rule} rule")
        assert (theirs.rtp, theirs.variance) == (mine.rtp, mine.variance)
