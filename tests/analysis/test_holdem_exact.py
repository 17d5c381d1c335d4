"""Hold'em Bonus exact analysis: kernels against brute force, the decision and accounting
kernel against an independent oracle, payoffs against the game's own settlement, and (slow)
the full result against published figures. Bonus and pool: test_holdem_side_bets.py."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from qipai.core.cards import Card, parse_cards
from qipai.games.holdem_bonus import analysis_kernels as k
from qipai.games.holdem_bonus.analysis import pool_table, simple_strategy
from qipai.games.holdem_bonus.hands import PokerHand
from qipai.games.holdem_bonus.payout import BoxPlay, main_nets
from qipai.games.holdem_bonus.strategy_exact import cache_path, load_or_compute, start_classes
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
    return min(images, key=lambda img: sum(comb(c, i + 1) for i, c in enumerate(img)))


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
    idx = sum(comb(c, i + 1) for i, c in enumerate(sorted(four)))
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


def test_pool_counts_are_the_five_card_counts() -> None:
    table, facts, balance, _notes = pool_table()
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
    from qipai.games.holdem_bonus.analysis import analyse, preflop_table

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


# ---------------------------------------------------------------------------------------------
# Oracle for `flop_values`: the turn/river decisions of all four strategies and the tally of
# nets, turn bets and river bets, recomputed in plain numpy from the same river sums. The sums
# are synthetic (any consistent W, Ws, L per four-card board will do), so the check covers the
# decision logic and the accounting, not the board ranking (tested above against brute force).

_COMB = [[comb(n, r) for r in range(6)] for n in range(53)]


def _synthetic_sums(hole: tuple[int, int], seed: int) -> np.ndarray:
    """acc[B4, 0] = (W − L, Ws − L, W + L) over 46 × 990 endings, random but consistent, with a
    win share rising with the board's ranks so that flops differ in sign."""
    rng = np.random.default_rng(seed)
    acc = np.zeros((k.N_B4, 1, 3), np.int32)
    boards = np.array(list(itertools.combinations(range(52), 4)), np.int64)
    idx = sum(np.array([_COMB[c][i + 1] for c in range(52)])[boards[:, i]] for i in range(4))
    q = rng.integers(0, 46 * 990 + 1, len(boards))
    share = np.clip((boards >> 2).sum(axis=1) / 48 + rng.normal(0, 0.15, len(boards)), 0, 1)
    wins = np.floor(q * share).astype(np.int64)
    losses = q - wins
    ws = (wins * rng.random(len(boards))).astype(np.int64)
    acc[idx, 0, 0] = wins - losses
    acc[idx, 0, 1] = ws - losses
    acc[idx, 0, 2] = q
    return acc


def _oracle(hole: tuple[int, int], acc: np.ndarray) -> tuple[np.ndarray, ...]:
    cards = [Card.from_id(i) for i in range(52)]
    rest = [c for c in range(52) if c not in hole]
    hole_cards = [cards[hole[0]], cards[hole[1]]]
    hist = np.zeros((4, 11), np.int64)
    turns = np.zeros(4, np.int64)
    rivers = np.zeros(4, np.int64)
    simple_river: dict[int, bool] = {}
    optimal_turn: dict[tuple[int, ...], tuple[bool, bool]] = {}
    n_flops = 0
    per_deal = 46 * 990
    for flop in itertools.combinations(rest, 3):
        n_flops += 1
        tcards = [t for t in rest if t not in flop]
        idx = [sum(_COMB[c][i + 1] for i, c in enumerate(sorted((*flop, t)))) for t in tcards]
        o = acc[idx, 0, 0].astype(np.int64)
        a = acc[idx, 0, 1].astype(np.int64)
        q = acc[idx, 0, 2].astype(np.int64)
        for i, t in zip(idx, tcards, strict=True):
            if i not in simple_river:
                board = [cards[c] for c in (*flop, t)]
                simple_river[i] = simple_strategy("river", hole_cards, board)
        s_river = np.array([simple_river[i] for i in idx])
        s_turn = simple_strategy("turn", hole_cards, [cards[c] for c in flop])
        bets = (
            (int((o + np.maximum(o, 0)).sum()) > 0, o > 0, False),  # optimal, source
            (int(o.sum()) > 0, o > 0, True),  # optimal, common
            (s_turn, s_river, False),  # simple, source
            (s_turn, s_river, True),  # simple, common
        )
        optimal_turn[flop] = (bool(bets[0][0]), bool(bets[1][0]))
        wins, losses = (q + o) // 2, (q - o) // 2
        wins_s = a + losses
        for s, (bet_turn, river_rule, common) in enumerate(bets):
            river = river_rule & (bet_turn or common) & np.ones(len(o), bool)
            turns[s] += bet_turn
            rivers[s] += int(river.sum())
            kk = 2 + int(bet_turn) + river.astype(np.int64)
            np.add.at(hist[s], 5 + 1 + kk, wins_s)
            np.add.at(hist[s], 5 + kk, wins - wins_s)
            hist[s, 5] += int((per_deal - q).sum())
            np.add.at(hist[s], 5 - 1 - kk, losses)
    # the turn-bet table, flops in colex order (highest card, then middle, then lowest)
    colex = sorted(optimal_turn, key=lambda f: (f[2], f[1], f[0]))
    table = np.array([optimal_turn[f] for f in colex], np.uint8).T
    return hist, turns, rivers, np.array([n_flops]), table


@pytest.mark.parametrize(
    ("hole", "seed"),
    [
        pytest.param("Kc 9d", 1, marks=pytest.mark.slow),
        ("7h 6h", 2),
    ],  # the first: ~20 s, slow suite
)
def test_flop_values_match_an_independent_oracle(hole: str, seed: int) -> None:
    """`flop_values` (numba) equals a plain re-computation for one hole pair over all 19,600
    flops: every strategy's net histogram, turn-bet and river-bet counts; and the kernel's
    simple rules are the bots' `simple_strategy`."""
    pair = tuple(c.id for c in parse_cards(hole))
    acc = _synthetic_sums(pair, seed)  # type: ignore[arg-type]
    hist, turns, rivers, flops, bets = k.flop_values(
        np.array([pair], np.int64), acc, np.array([0], np.int64)
    )
    o_hist, o_turns, o_rivers, o_flops, o_bets = _oracle(pair, acc)  # type: ignore[arg-type]
    assert flops.tolist() == o_flops.tolist() == [19600]
    assert bets.shape == (1, 2, 19600)
    assert (bets[0] == o_bets).all()  # the turn decision table, indexed by `flop_index`
    assert bets[0].sum(axis=1).tolist() == o_turns[:2].tolist()
    assert turns[0].tolist() == o_turns.tolist()
    assert rivers[0].tolist() == o_rivers.tolist()
    assert hist[0].tolist() == o_hist.tolist()
    # the synthetic sums exercise both turn decisions of both optimal rules
    assert all(0 < t < 19600 for t in o_turns[:2])
