"""The poker evaluator: exhaustive category counts, a peer cross-check, and properties."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from phevaluator import evaluate_cards

from qipai.core.cards import Card, parse_cards
from qipai.core.errors import InvalidInput
from qipai.poker import (
    FIVE_CARD_COUNTS,
    SEVEN_CARD_COUNTS,
    Category,
    best_five,
    category_counts,
    category_of,
    evaluate,
    evaluate_batch,
    hand_classes,
)
from qipai.poker.categories import CLASS_COUNTS

hands_of = st.lists(st.integers(0, 51), unique=True, min_size=5, max_size=7)


def random_hands(n: int, k: int, seed: int) -> np.ndarray:
    """n random hands of k distinct cards each (numpy's generator: test data, not a deal)."""
    gen = np.random.default_rng(seed)
    return np.argsort(gen.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


def test_five_card_category_counts() -> None:
    counts = category_counts(5)
    assert counts == FIVE_CARD_COUNTS
    assert sum(counts.values()) == 2_598_960
    assert counts[Category.STRAIGHT_FLUSH] + counts[Category.ROYAL_FLUSH] == 40


@pytest.mark.slow
def test_seven_card_category_counts() -> None:
    counts = category_counts(7)
    assert counts == SEVEN_CARD_COUNTS
    assert sum(counts.values()) == 133_784_560


def test_there_are_7462_hand_classes_laid_out_by_category() -> None:
    classes = hand_classes()
    assert len(classes) == 7462
    for cat, n in CLASS_COUNTS.items():
        members = classes[(classes >> 12) == cat]
        # Each category's indices run 0..n-1 with no gap.
        assert list(members & 0xFFF) == list(range(n))


def _ordinal(strengths: np.ndarray) -> np.ndarray:
    return np.searchsorted(hand_classes(), strengths)


@pytest.mark.parametrize("k", [5, 6, 7])
def test_matches_phevaluator_rank_for_random_hands(k: int) -> None:
    """phevaluator ranks 1 (royal) .. 7462 (7-5-4-3-2): our ordinal must be 7462 minus it."""
    hands = random_hands(20_000, k, seed=k)
    ours = _ordinal(evaluate_batch(hands))
    theirs = np.array([evaluate_cards(*map(int, h)) for h in hands])
    assert np.array_equal(ours, 7462 - theirs)


@pytest.mark.slow
def test_matches_phevaluator_on_every_five_card_hand() -> None:
    hands = np.array(list(combinations(range(52), 5)), dtype=np.uint8)
    ours = _ordinal(evaluate_batch(hands))
    theirs = np.fromiter((evaluate_cards(*h) for h in hands.tolist()), dtype=np.int64)
    assert np.array_equal(ours, 7462 - theirs)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("As Ks Qs Js Ts", Category.ROYAL_FLUSH),
        ("5d 4d 3d 2d Ad", Category.STRAIGHT_FLUSH),
        ("9c 9d 9h 9s 2c", Category.FOUR_OF_A_KIND),
        ("Kc Kd Kh 2s 2c", Category.FULL_HOUSE),
        ("Ah 9h 7h 4h 2h", Category.FLUSH),
        ("Ac 2d 3h 4s 5c", Category.STRAIGHT),
        ("Tc Jd Qh Ks Ac", Category.STRAIGHT),
        ("7c 7d 7h Ks 2c", Category.THREE_OF_A_KIND),
        ("7c 7d Kh Ks 2c", Category.TWO_PAIR),
        ("7c 7d Ah Ks 2c", Category.PAIR),
        ("Ac Kd 9h 4s 2c", Category.HIGH_CARD),
        ("Qc Kd Ah 2s 3c", Category.HIGH_CARD),  # no wrap-around straight
        # Seven cards: the best five counts.
        ("As Ks Qs Js Ts 9s 8s", Category.ROYAL_FLUSH),
        ("2c 2d 2h 3s 3c 3d Ah", Category.FULL_HOUSE),
        ("2c 2d 3h 3s 4c 4d 5h", Category.TWO_PAIR),
        ("2c 3d 4h 5s 6c 7d 8h", Category.STRAIGHT),
        ("2h 3h 4h 5h 9h 6c 6d", Category.FLUSH),
    ],
)
def test_categories_of_known_hands(text: str, category: Category) -> None:
    assert category_of(evaluate(parse_cards(text))) is category


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("2c 3d 4h 5s 6c", "Ac 2d 3h 4s 5c"),  # six-high straight beats the wheel
        ("Ac Ad Kh Ks 3c", "Ac Ad Qh Qs Kc"),  # two pair: second pair before kicker
        ("Ac Ad Kh Ks Qc 2d 3h", "Ac Ad Kh Ks 3c 3d 2h"),  # kicker Q beats third pair 3s
        ("Kc Kd Kh Qs Qc", "Qc Qd Qh As Ac"),  # full house: trips first
        ("Ah Kh Qh Jh 9h", "Ac Kd Qh Js Tc"),
        ("9c 9d 9h 9s Ac", "9c 9d 9h 9s Kc"),  # quads kicker
    ],
)
def test_order_of_known_hands(better: str, worse: str) -> None:
    assert evaluate(parse_cards(better)) > evaluate(parse_cards(worse))


def test_ties_are_equal_strengths() -> None:
    # Same ranks, different suits; and a board that plays for both.
    assert evaluate(parse_cards("Ac Kd 9h 4s 2c")) == evaluate(parse_cards("Ad Kc 9s 4h 2d"))
    board = "Ac Kc Qd Jh Ts"
    assert evaluate(parse_cards(board + " 2c 3d")) == evaluate(parse_cards(board + " 4h 4s"))


@settings(max_examples=300, deadline=None)
@given(hands_of, st.randoms(use_true_random=False))
def test_order_of_cards_does_not_matter(cards: list[int], rnd: object) -> None:
    shuffled = list(cards)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert evaluate(cards) == evaluate(shuffled)


@settings(max_examples=300, deadline=None)
@given(hands_of)
def test_best_of_n_is_the_best_five_subset(cards: list[int]) -> None:
    assert evaluate(cards) == max(evaluate(five) for five in combinations(cards, 5))


@settings(max_examples=200, deadline=None)
@given(hands_of)
def test_batch_agrees_with_single(cards: list[int]) -> None:
    batch = evaluate_batch(np.array([cards, cards[::-1]], dtype=np.int64))
    assert list(batch) == [evaluate(cards)] * 2


@settings(max_examples=200, deadline=None)
@given(hands_of)
def test_best_five_has_the_hand_strength(cards: list[int]) -> None:
    hand = [Card.from_id(c) for c in cards]
    strength, five = best_five(hand)
    assert strength == evaluate(hand)
    assert len(five) == 5 and set(five) <= set(hand)
    assert evaluate(five) == strength


def test_best_five_display_order() -> None:
    _, five = best_five(parse_cards("Ah 2c 3d 4s 5h Kd Kc"))
    assert [str(c) for c in five] == ["5h", "4s", "3d", "2c", "Ah"]
    _, five = best_five(parse_cards("2c 2d 7h 7s 7c Kd 9c"))
    assert [str(c) for c in five] == ["7s", "7h", "7c", "2d", "2c"]


def test_batched_accepts_every_integer_dtype() -> None:
    hands = random_hands(1000, 7, seed=9)
    expected = evaluate_batch(hands)
    for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint16):
        assert np.array_equal(evaluate_batch(hands.astype(dtype)), expected)


@pytest.mark.parametrize(
    "cards",
    [
        [0, 1, 2, 3],  # too few
        [0, 1, 2, 3, 4, 5, 6, 7],  # too many
        [0, 1, 2, 3, 3],  # duplicate
        [0, 1, 2, 3, 52],  # out of range
        [0, 1, 2, 3, True],
    ],
)
def test_bad_hands_are_refused(cards: list[int]) -> None:
    with pytest.raises(InvalidInput):
        evaluate(cards)


def test_bad_batches_are_refused() -> None:
    with pytest.raises(InvalidInput):
        evaluate_batch(np.zeros((3, 4), dtype=np.int64))
    with pytest.raises(InvalidInput):
        evaluate_batch(np.full((3, 7), 52, dtype=np.int64))
    with pytest.raises(InvalidInput):
        evaluate_batch(np.zeros((3, 7), dtype=np.float64))


@pytest.mark.slow
def test_every_six_card_hand_is_the_best_of_its_five_card_subsets() -> None:
    """The 6-card table against the (exhaustively checked) 5-card one, on all 20,358,520 hands."""
    from numba import njit

    from qipai.poker.kernels import compact5, compact6
    from qipai.poker.tables import tables

    @njit(cache=False)
    def mismatches(compact, offsets, flush, keys, subsets):  # type: ignore[no-untyped-def]
        bad = 0
        c = np.zeros(6, dtype=np.int64)
        for a in range(52):
            for b in range(a + 1, 52):
                for d in range(b + 1, 52):
                    for e in range(d + 1, 52):
                        for f in range(e + 1, 52):
                            for g in range(f + 1, 52):
                                c[0], c[1], c[2], c[3], c[4], c[5] = a, b, d, e, f, g
                                best = 0
                                for k in range(6):
                                    r = subsets[k]
                                    s = compact5(
                                        c[r[0]],
                                        c[r[1]],
                                        c[r[2]],
                                        c[r[3]],
                                        c[r[4]],
                                        compact,
                                        offsets,
                                        flush,
                                        keys,
                                    )
                                    best = max(best, s)
                                six = compact6(a, b, d, e, f, g, compact, offsets, flush, keys)
                                bad += six != best
        return bad

    t = tables()
    subsets = np.array([[i for i in range(6) if i != skip] for skip in range(6)])
    assert mismatches(t.compact, t.offsets, t.flush, t.card_keys, subsets) == 0
