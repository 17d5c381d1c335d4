"""The Hold'em Bonus strategy lookup (`qipai.games.holdem_bonus.strategy`): input checks, plain
enumeration, the full enumeration's kernel and its fold table."""

from __future__ import annotations

import itertools
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest

from qipai.core.cards import parse_cards
from qipai.core.errors import InvalidInput
from qipai.games.holdem_bonus import HoldemBonusRound, strategy
from qipai.games.holdem_bonus import analysis_kernels as k
from qipai.games.holdem_bonus.tests.helpers import bet_all, round_with
from qipai.poker import evaluate_batch
from qipai.poker.tables import tables
from tests.conftest import require_service

PERMS = np.array(list(itertools.permutations(range(4))), np.int64)
INVERSE = np.argsort(PERMS, axis=1).astype(np.int64)


def test_flop_decisions() -> None:
    assert strategy.flop_decision(parse_cards("7c 2d")) is False
    assert strategy.flop_decision(parse_cards("7c 2c")) is True  # suited plays
    assert strategy.flop_decision(parse_cards("8c 2d")) is True
    assert strategy.flop_decision(parse_cards("As Ad"), "common") is True
    assert strategy.advise(parse_cards("3h 2s")) == "fold"


@pytest.mark.parametrize(
    "bad",
    [
        lambda: strategy.flop_decision(parse_cards("As As")),
        lambda: strategy.flop_decision(parse_cards("As")),
        lambda: strategy.turn_decision(parse_cards("As Kd"), parse_cards("As 2c 3d")),
        lambda: strategy.river_decision(parse_cards("As Kd"), parse_cards("2c 3d 4h")),
        lambda: strategy.advise(parse_cards("As Kd"), parse_cards("2c 3d 4h 5h 6h")),
        lambda: strategy.turn_decision(parse_cards("As Kd"), parse_cards("2c 3d 4h"), "x"),  # type: ignore[arg-type]
    ],
)
def test_bad_input_is_refused(bad: object) -> None:
    with pytest.raises(InvalidInput):
        bad()  # type: ignore[operator]


def test_river_decision_against_plain_enumeration() -> None:
    hole, board = parse_cards("Ts 8d"), parse_cards("Tc 7h 2d 2s")
    used = {c.id for c in hole + board}
    rest = [c for c in range(52) if c not in used]
    ids = [c.id for c in board]
    player_rows, dealer_rows, owner = [], [], []
    for i, r in enumerate(rest):
        player_rows.append([c.id for c in hole] + [*ids, r])
        for pair in combinations([c for c in rest if c != r], 2):
            dealer_rows.append([*pair, *ids, r])
            owner.append(i)
    ps = evaluate_batch(np.array(player_rows)).astype(np.int64)[np.array(owner)]
    ds = evaluate_batch(np.array(dealer_rows)).astype(np.int64)
    w = int((ps > ds).sum())
    ws = int(((ps > ds) & (ps >> 12 >= 4)).sum())
    ties = int((ps == ds).sum())
    lo = int((ps < ds).sum())
    d = strategy.river_decision(hole, board, turn_bet=True)
    n = w + ties + lo
    assert n == 46 * 990
    check = Fraction(2 * w + ws - 3 * lo + (w - lo), n)
    assert d.ev_check == check and d.ev_bet == check + Fraction(w - lo, n)
    assert d.bet is (w > lo) is True  # top pair bets
    assert strategy.advise(hole, board) == "bet"
    draw = strategy.river_decision(parse_cards("9s 8d"), board)
    assert not draw.bet and strategy.advise(parse_cards("9s 8d"), board) == "check"


def test_turn_decisions_obvious_cases() -> None:
    strong = strategy.turn_decision(parse_cards("As Ad"), parse_cards("Ac Kd 7h"))
    assert strong.bet and strong.ev_bet > strong.ev_check > 0
    weak = strategy.turn_decision(parse_cards("3c 2d"), parse_cards("Ac Kd 9h"))
    assert not weak.bet and weak.ev_check < 0
    # the common rule keeps the river open, so checking is never worth less there
    for rule in ("source", "common"):
        d = strategy.turn_decision(parse_cards("9s 8d"), parse_cards("Tc 7h 2d"), rule)
        assert d.bet == (d.ev_bet > d.ev_check)
    src = strategy.turn_decision(parse_cards("9s 8d"), parse_cards("Tc 7h 2d"), "source")
    com = strategy.turn_decision(parse_cards("9s 8d"), parse_cards("Tc 7h 2d"), "common")
    assert com.ev_check >= src.ev_check and com.ev_bet == src.ev_bet


def test_optimal_strategy_plays_a_bot() -> None:
    """`optimal_strategy` has the bots' `Strategy` signature and answers as the lookups do; a
    `SensibleBot` playing it finishes a round."""
    from qipai.games.holdem_bonus.bots import SensibleBot, Strategy
    from qipai.games.holdem_bonus.tests.test_bots import play_round

    fn: Strategy = strategy.optimal_strategy("common")
    assert fn("flop", parse_cards("7c 2d"), []) is False
    assert fn("flop", parse_cards("8c 2d"), []) is True
    hole, flop, board = parse_cards("9s 8d"), parse_cards("Tc 7h 2d"), parse_cards("Tc 7h 2d 2s")
    assert fn("turn", hole, flop) is strategy.turn_decision(hole, flop, "common").bet
    assert fn("river", hole, board) is strategy.river_decision(hole, board).bet
    with pytest.raises(InvalidInput):
        fn("showdown", hole, board)
    r = play_round({"1": SensibleBot(strategy=strategy.optimal_strategy())}, seed=5)
    assert "1" in r.result().details["boxes"]


# ---------------------------------------------------------------------------------------------
# The on-demand lookup against the full enumeration's kernel, and the fold table (slow).


def _colex(cards: list[int]) -> int:
    return sum(comb(c, i + 1) for i, c in enumerate(sorted(cards)))


def _canonical(board: list[int]) -> tuple[int, ...]:
    """The least (colex) image of a board under the 24 suit permutations."""
    images = [tuple(sorted((c & ~3) | int(p[c & 3]) for c in board)) for p in PERMS]
    return min(images, key=lambda img: _colex(list(img)))


@pytest.mark.parametrize(
    ("hole", "flop"),
    [("9s 8d", "Tc 7h 2d"), ("Ah 5h", "Kh 9h 2c"), ("3c 2d", "Ac Kd 9h"), ("Qs Qd", "Qc 4c 4s")],
)
def test_turn_lookup_equals_the_enumeration_kernel(hole: str, flop: str) -> None:
    """The lookup's per-turn-card counts (`decision_counts`, a direct enumeration) equal the
    full enumeration's river sums R(hole, flop + turn) (`river_sums`: canonical five-card boards
    scattered over their suit images), and its turn decision is the full enumeration's rule:
    source — bet iff Σ_t R + max(0, R) > 0; common — bet iff Σ_t R > 0."""
    h = [c.id for c in parse_cards(hole)]
    f = [c.id for c in parse_cards(flop)]
    rest = [c for c in range(52) if c not in h and c not in f]
    boards = sorted({_canonical([*f, t, r]) for t, r in combinations(rest, 2)})
    t = tables()
    acc = k.river_sums(
        np.array(boards, np.int64),
        PERMS,
        INVERSE,
        np.array([h], np.int64),
        t.noflush,
        t.flush,
        t.card_keys,
        1,
    )
    rows = strategy._counts(tuple(h), tuple(f))
    r_values = []
    for row, turn in zip(rows.tolist(), rest, strict=True):
        w, ws, _ties, lo = row
        r = acc[_colex([*f, turn]), 0].tolist()
        assert r == [w - lo, ws - lo, w + lo], turn
        r_values.append(r[0])
    source = sum(r + max(r, 0) for r in r_values) > 0
    common = sum(r_values) > 0
    assert strategy.turn_decision(h, f, "source").bet is source
    assert strategy.turn_decision(h, f, "common").bet is common


@pytest.mark.slow
def test_fold_table_is_the_full_enumerations() -> None:
    """`FOLD_CLASSES` are exactly the classes the full enumeration folds under each rule, and
    the common rule's EVs of 32o … T2o are Wizard of Odds' (wizardofodds.com/texasholdembonus,
    Las Vegas rules, six decimals). Reads the cached sums (`qipai rtp holdem-bonus`)."""
    from qipai.games.holdem_bonus.analysis import preflop_table
    from qipai.games.holdem_bonus.strategy_exact import cache_path, load_or_compute

    require_service(
        cache_path().exists(),
        "the cached exact Hold'em Bonus sums (`qipai rtp holdem-bonus` computes them; .ci/run does)",
    )
    rows = {r[0]: r for r in preflop_table(load_or_compute()).rows}
    assert {n for n, r in rows.items() if r[3] == "FOLD"} == strategy.FOLD_CLASSES["source"]
    assert {n for n, r in rows.items() if r[5] == "FOLD"} == strategy.FOLD_CLASSES["common"]
    published = {
        "32o": "-1.155927",
        "42o": "-1.091604",
        "52o": "-1.019987",
        "62o": "-1.046723",
        "72o": "-1.031301",
        "82o": "-0.896002",
        "92o": "-0.763132",
        "T2o": "-0.613979",
    }
    assert {n: rows[n][4] for n in published} == published


def _two_box_round() -> HoldemBonusRound:
    # Seat 1 plays box 1 (7-2 offsuit: folds); seat 2 plays box 2 (pocket aces: plays).
    r = round_with(["7c 2d", "As Ad"], "3h 4h", "Ac 9s 5d Kh Qd", seats=("1", "2"))
    bet_all(r, {"1": {"box": "1", "ante": 100}, "2": {"box": "2", "ante": 100}})
    return r


def test_hint_advises_only_the_viewers_own_awaiting_boxes() -> None:
    r = _two_box_round()
    assert r.phase == "flop"
    one = strategy.hint(r.view("1"))
    two = strategy.hint(r.view("2"))
    assert one == {
        "rule": "source",
        "boxes": [{"box": "1", "phase": "flop", "action": "fold", "ev": None}],
    }
    assert two is not None and [b["box"] for b in two["boxes"]] == ["2"]
    assert two["boxes"][0]["action"] == "play"
    assert strategy.hint(r.view(None)) is None  # a spectator


def test_hint_at_the_turn_and_river_carries_the_exact_decision() -> None:
    r = _two_box_round()
    r.act("1", {"type": "fold", "box": "1"})
    r.act("2", {"type": "flop", "box": "2"})
    hint = strategy.hint(r.view("2"))
    assert hint is not None
    (box,) = hint["boxes"]
    decision = strategy.turn_decision(parse_cards("As Ad"), parse_cards("Ac 9s 5d"))
    assert box["phase"] == "turn" and box["action"] == decision.action == "bet"
    assert box["ev"] == {
        "bet": round(float(decision.ev_bet), 4),
        "check": round(float(decision.ev_check), 4),
    }
    assert strategy.hint(r.view("1")) is None  # box 1 folded: nothing awaits seat 1
    r.act("2", {"type": "turn", "box": "2"})
    hint = strategy.hint(r.view("2"))
    assert hint is not None and hint["boxes"][0]["phase"] == "river"
    river = strategy.river_decision(parse_cards("As Ad"), parse_cards("Ac 9s 5d Kh"))
    assert hint["boxes"][0]["action"] == river.action


def test_every_hole_maps_to_its_class_representative() -> None:
    """`to_representative` is a suit permutation taking each of the 1,326 hole pairs (either
    order) to its class's representative: the flop keeps its ranks, stays three distinct cards
    off the representative, and the flop's own suit pattern relative to the hole is kept."""
    from qipai.games.holdem_bonus.strategy_exact import class_of, start_classes

    classes = start_classes()
    rng = np.random.default_rng(3)
    seen: dict[int, int] = {}
    for hole in itertools.permutations(range(52), 2):
        rest = [c for c in range(52) if c not in hole]
        flop = tuple(int(c) for c in rng.choice(rest, 3, replace=False))
        cls, mapped = strategy.to_representative(hole, flop)
        rep = classes[cls].cards
        assert classes[cls].name == class_of(*hole)
        seen[cls] = seen.get(cls, 0) + 1
        assert list(mapped) == sorted(mapped) and len(set(mapped)) == 3
        assert not set(mapped) & set(rep)
        assert sorted(c >> 2 for c in mapped) == sorted(c >> 2 for c in flop)
        # one suit permutation carries the hole to the representative and the flop along
        assert any(
            {(c & ~3) | p[c & 3] for c in hole} == set(rep)
            and sorted((c & ~3) | p[c & 3] for c in flop) == list(mapped)
            for p in PERMS.tolist()
        ), (hole, flop)
    assert sorted(seen) == list(range(169))
    assert sum(seen.values()) == 52 * 51


def test_flop_index_numbers_the_flops_beside_a_hole() -> None:
    """`holdem_kernels.flop_index` is a bijection from the C(50, 3) flops beside a hole pair
    onto 0 … 19,599, in colex order."""
    for hole in ((0, 1), (48, 1), (50, 51)):
        rest = [c for c in range(52) if c not in hole]
        flops = sorted(itertools.combinations(rest, 3), key=lambda f: (f[2], f[1], f[0]))
        assert [k.flop_index(*hole, *f) for f in flops] == list(range(19600))


def test_turn_bet_falls_back_to_the_exact_computation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the full enumeration's cache `turn_bet` is `turn_decision(...).bet`; it checks
    its input as `turn_decision` does."""
    monkeypatch.setattr(strategy, "_turn_table", lambda: None)
    for hole, flop in (("As Ad", "Ac Kd 7h"), ("3c 2d", "Ac Kd 9h"), ("9s 8d", "Tc 7h 2d")):
        h, f = parse_cards(hole), parse_cards(flop)
        for rule in ("source", "common"):
            assert strategy.turn_bet(h, f, rule) is strategy.turn_decision(h, f, rule).bet  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        strategy.turn_bet(parse_cards("As Kd"), parse_cards("As 2c 3d"))


def test_turn_bet_reads_the_table_through_the_suit_permutation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a table, `turn_bet` reads the bit of (class, rule, flop index of the mapped flop):
    a synthetic table with one flop's bits set answers True there, for every suit image of the
    hole and flop, and False on another flop and under the other rule."""
    from qipai.games.holdem_bonus.strategy_exact import start_classes

    hole, flop = parse_cards("Kh 9c"), parse_cards("Qh 9h 2s")
    cls, mapped = strategy.to_representative(tuple(c.id for c in hole), tuple(c.id for c in flop))
    rep = start_classes()[cls].cards
    table = np.zeros((169, 2, 19600), np.uint8)
    # the flop's images under the suit permutations that fix the representative (the suits off
    # the hole may go either way): the decision is the same on each, as in the real table
    for p in PERMS.tolist():
        if {(c & ~3) | p[c & 3] for c in rep} == set(rep):
            image = sorted((c & ~3) | p[c & 3] for c in mapped)
            table[cls, 1, k.flop_index(*rep, *image)] = 1
    monkeypatch.setattr(strategy, "_turn_table", lambda: np.packbits(table, axis=-1))
    assert strategy.turn_bet(hole, flop, "common") is True
    assert strategy.turn_bet(hole, flop, "source") is False
    for perm in PERMS.tolist():
        h = [(c.id & ~3) | perm[c.id & 3] for c in hole]
        f = [(c.id & ~3) | perm[c.id & 3] for c in flop]
        assert strategy.turn_bet(h, f, "common") is True
        assert strategy.turn_bet(h[::-1], f[::-1], "common") is True
    assert strategy.turn_bet(hole, parse_cards("Qh 9h 3s"), "common") is False


@pytest.mark.slow
def test_turn_table_equals_the_exact_turn_decision() -> None:
    """The full enumeration's turn table (`Sums.turn_bets`, read by `turn_bet`) gives the same
    choice as the exact on-demand `turn_decision` for 300 random (hole, flop) pairs under both
    rules. Reads the cached sums (`qipai rtp holdem-bonus`)."""
    from qipai.games.holdem_bonus.strategy_exact import cache_path

    require_service(
        cache_path().exists(),
        "the cached exact Hold'em Bonus sums (`qipai rtp holdem-bonus` computes them; .ci/run does)",
    )
    strategy._turn_table.cache_clear()
    assert strategy._turn_table() is not None
    rng = np.random.default_rng(11)
    answers: dict[str, set[bool]] = {"source": set(), "common": set()}
    for _ in range(300):
        cards = [int(c) for c in rng.choice(52, 5, replace=False)]
        for rule in ("source", "common"):
            exact = strategy.turn_decision(cards[:2], cards[2:], rule).bet  # type: ignore[arg-type]
            assert strategy.turn_bet(cards[:2], cards[2:], rule) is exact, (cards, rule)  # type: ignore[arg-type]
            answers[rule].add(exact)
    assert answers == {"source": {True, False}, "common": {True, False}}
