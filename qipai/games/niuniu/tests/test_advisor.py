"""The exact swap advisor against brute-force enumeration of actual card subsets."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations, pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from qipai.cli import app
from qipai.core.cards import Card, parse_cards, standard_deck
from qipai.core.errors import InvalidInput
from qipai.games.niuniu.advisor import (
    Objective,
    SwapChoice,
    advise,
    advise_command,
    best_swap,
    fifth_card_counts,
    hint,
)
from qipai.games.niuniu.hands import HandType, keys_of


def brute_force(keep: tuple[Card, ...], unseen: list[Card]) -> tuple[int, list[int]]:
    """Every (5 − len(keep))-subset of the unseen cards, classified by the hand table."""
    need = 5 - len(keep)
    subsets = np.array(list(combinations([c.id for c in unseen], need)), dtype=np.int64)
    kept = np.array([c.id for c in keep], dtype=np.int64).reshape(1, -1)
    hands = np.hstack([np.repeat(kept, len(subsets), axis=0), subsets])
    kinds = keys_of(hands) // 64
    return len(subsets), [int(n) for n in np.bincount(kinds, minlength=15)]


def check_against_brute_force(hand: list[Card], seen: list[Card], max_new: int) -> None:
    unseen = [c for c in standard_deck() if c not in set(hand) | set(seen)]
    choices = advise(hand, seen)
    assert len(choices) == 16
    assert len({c.discard for c in choices}) == 16
    for choice in choices:
        assert set(choice.discard) | set(choice.keep) == set(hand)
        if len(choice.discard) + 1 > max_new:
            continue
        total, counts = brute_force(choice.keep, unseen)
        assert choice.outcomes == total
        assert list(choice.counts) == counts


hands4 = st.lists(st.sampled_from(standard_deck()), min_size=4, max_size=12, unique=True)


@settings(max_examples=6, deadline=None)
@given(hands4)
def test_advisor_equals_full_enumeration_of_card_subsets(cards: list[Card]) -> None:
    # Up to two swapped cards plus the fifth (≤ 17,296 subsets each) in the default suite.
    check_against_brute_force(cards[:4], cards[4:], max_new=3)


@pytest.mark.slow
def test_advisor_equals_full_enumeration_for_every_choice() -> None:
    # All 16 choices, up to 1,712,304 subsets for "swap all four".
    for text, seen in [("Ks Qh 5c 6d", ""), ("Ac 2d 3h 4s", "5c 5d Kh"), ("Tc Jd Qh Ks", "")]:
        check_against_brute_force(parse_cards(text), parse_cards(seen), max_new=5)


def test_exact_figures_by_hand() -> None:
    # K Q 5 6 kept: 牛牛 needs a 9 as the fifth card (5+6+9 = 20, K+Q = 20): 4 of 48.
    keep_all = fifth_card_counts(parse_cards("Ks Qh 5c 6d"))
    assert keep_all.outcomes == 48
    assert keep_all.probability(HandType.BULL_BULL) == Fraction(4, 48)
    # A 10/J/Q/K (4 + 4 + 3 + 3 unseen) makes K+Q+x a bull with 5+6 = 11 → 牛一; a 5 gives K+5+5,
    # Q+6 → 牛六 (3 cards); a 4 gives K+6+4, Q+5 → 牛五 (4 cards); the other 23 cards no bull.
    assert keep_all.probability(HandType.BULL_1) == Fraction(14, 48)
    assert keep_all.probability(HandType.BULL_6) == Fraction(3, 48)
    assert keep_all.probability(HandType.BULL_5) == Fraction(4, 48)
    assert keep_all.probability(HandType.NO_BULL) == Fraction(23, 48)
    assert keep_all.expected_multiplier == Fraction(4 * 3 + 44, 48)


def test_swapping_all_four_is_a_random_hand() -> None:
    # With nothing else seen, "swap all four" is five random cards from the 48 unseen.
    choice = next(c for c in advise(parse_cards("Ac 2d 3h 4s")) if len(c.discard) == 4)
    assert choice.outcomes == 1_712_304
    assert sum(choice.probabilities().values()) == 1


@pytest.mark.parametrize("by", ["money", "multiplier"])
def test_ranking_and_tie_break(by: Objective) -> None:
    choices = advise(parse_cards("Ks Qh 5c 6d"), by=by)
    expected = [c.expected_net if by == "money" else c.expected_multiplier for c in choices]
    assert expected == sorted(expected, reverse=True)
    if by == "money":
        assert best_swap(parse_cards("Ks Qh 5c 6d")) == choices[0]
    for (a, b), (ea, eb) in zip(pairwise(choices), pairwise(expected), strict=True):
        if ea == eb:
            assert len(a.discard) <= len(b.discard)
    # K Q J J kept: 8 royals and 4 tens give ×4, A–6 give 牛一–牛六 ×1, 7–9 give ×2: 96/48.
    royal = advise(parse_cards("Kc Qd Jh Js"))[0]
    assert royal.discard == ()
    assert royal.expected_multiplier == 2


def test_hint_is_json_ready() -> None:
    data = hint(parse_cards("Ks Qh 5c 6d"))
    json.dumps(data)
    assert len(data["choices"]) == 16
    assert data["best"]["discard"] == ["5c", "6d"]


@pytest.mark.parametrize(
    ("cards", "seen"),
    [("As Kd 5c", ""), ("As Kd 5c 5c", ""), ("As Kd 5c 6h", "As"), ("As Kd 5c 6h", "Zz")],
)
def test_bad_input(cards: str, seen: str) -> None:
    with pytest.raises(InvalidInput):
        advise(parse_cards(cards), parse_cards(seen))


def test_choice_json() -> None:
    choice: SwapChoice = advise(parse_cards("Ks Qh 5c 6d"))[0]
    data = choice.to_json()
    exact = data["expected_multiplier_exact"]
    assert Fraction(exact["numerator"], exact["denominator"]) == choice.expected_multiplier
    net = data["expected_net_exact"]
    assert Fraction(net["numerator"], net["denominator"]) == choice.expected_net
    assert isinstance(data["expected_net"], float)
    assert sum(v["count"] for v in data["types"].values()) == choice.outcomes


def test_cli_advise() -> None:
    # In-process (typer's CliRunner); the real-subprocess CLI test is in test_settle.py.
    runner = CliRunner()
    out = runner.invoke(app, ["advise", "niuniu", "Ks", "Qh", "5c", "6d"])
    assert out.exit_code == 0, out.stderr
    rows = [line for line in out.stdout.splitlines() if line[:2].strip().isdigit()]
    assert len(rows) == 16
    assert rows[0].split()[1:3] == ["5♣", "6♦"]
    bad = runner.invoke(app, ["advise", "niuniu", "Ks", "Qh", "5c"])
    assert bad.exit_code == 2 and bad.stderr.startswith("error:")
    assert bad.stderr.count("\n") == 1 and bad.stdout == ""


def test_advise_command_json_and_errors() -> None:
    data = json.loads(advise_command("Ks Qh 5c 6d", "", as_json=True))
    assert len(data["choices"]) == 16
    assert data["choices"][0]["discard"] == ["5c", "6d"]
    assert "unseen" in advise_command("Ks Qh 5c 6d", "Ah 2h")
    with pytest.raises(InvalidInput):
        advise_command("Ks Qh 5c 6d", "Ks")


@pytest.mark.slow
def test_advisor_predicts_real_rounds() -> None:
    """The docstring's claim, checked in play: while the other seats swap at random, the final
    hand of a seat following the advisor has the advisor's type distribution. Over many deals,
    observed type counts and the total multiplier stay within 4 standard deviations of the sum
    of the advisor's exact predictions."""
    from qipai.core.protocol import Seat
    from qipai.core.rng import Rng
    from qipai.games.niuniu import NiuniuConfig, NiuniuRound
    from qipai.games.niuniu.hands import evaluate

    rounds = 1000
    expected = np.zeros(15)
    variance = np.zeros(15)
    observed = np.zeros(15)
    mult_mean = mult_var = 0.0
    mult_seen = 0
    others = Rng(b"other-seats-swap-at-random-00001")
    for n in range(rounds):
        seats = [Seat(f"p{i}", 10**6) for i in range(5)]
        r = NiuniuRound.start(NiuniuConfig(hints=False), seats, Rng(n.to_bytes(4, "big") * 8))
        for seat in ("p1", "p2", "p3", "p4"):  # earlier and later seats both draw from the deck
            cards = [str(c) for c in r.cards[seat] if others.randbelow(2)]
            r.act(seat, {"type": "swap", "cards": cards})
        choice = best_swap(r.cards["p0"])
        r.act("p0", {"type": "swap", "cards": [str(c) for c in choice.discard]})
        r.expire()  # no bids
        r.expire()  # minimum bets; the fifth cards are dealt
        assert r.finished
        kind = evaluate(r.cards["p0"]).type
        p = np.array([float(x) for x in choice.probabilities().values()])
        expected += p
        variance += p * (1 - p)
        observed[kind] += 1
        m = np.array([HandType(t).multiplier for t in range(15)], dtype=float)
        mean = float((p * m).sum())
        mult_mean += mean
        mult_var += float((p * m * m).sum()) - mean**2
        mult_seen += kind.multiplier
    z = (observed - expected) / np.sqrt(np.maximum(variance, 1e-9))
    assert np.all(np.abs(z) < 4), z
    assert abs(mult_seen - mult_mean) / mult_var**0.5 < 4
