"""Main bets, bonus and postings of a settled round (docs/rules/holdem-bonus.md#main-payout)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.cards import Card, parse_cards, standard_deck
from qipai.core.protocol import HOUSE, JACKPOT, RoundResult
from qipai.games.holdem_bonus.config import HoldemBonusConfig
from qipai.games.holdem_bonus.payout import BoxPlay, PoolSettings, settle_round

CFG = HoldemBonusConfig()
POOL = PoolSettings(CFG.pool_rates, Fraction(1, 2), 500_000)


def play(hole: str, ante: int = 100, **kw: object) -> BoxPlay:
    a, b = parse_cards(hole)
    return BoxPlay("1", "p", (a, b), ante, **kw)  # type: ignore[arg-type]


def settle(p: BoxPlay, dealer: str, board: str, table: str = "source"):  # type: ignore[no-untyped-def]
    return settle_round([p], parse_cards(dealer), parse_cards(board), table, POOL, 1_000_000)  # type: ignore[arg-type]


ALL_IN = {"flop": True, "turn": True, "river": True}


def test_win_with_straight_or_better_pays_every_main_bet() -> None:
    s = settle(play("9c Td", **ALL_IN), "2c 2d", "Jh Qs Kc 4d 3s")
    r = s.boxes[0]
    assert r.outcome == "win" and r.hand.category.key == "straight"
    assert r.nets == {"ante": 100, "flop": 200, "turn": 100, "river": 100, "bonus": 0, "pool": 0}


def test_win_with_less_pushes_the_ante() -> None:
    s = settle(play("Ac Ad", **ALL_IN), "Kc Kd", "2h 7s 9c 4d 3s")
    r = s.boxes[0]
    assert r.outcome == "win" and r.hand.category.key == "pair"
    assert r.nets == {"ante": 0, "flop": 200, "turn": 100, "river": 100, "bonus": 0, "pool": 0}


def test_dealer_wins_takes_every_main_bet() -> None:
    s = settle(play("Kc Kd", flop=True, turn=True), "Ac Ad", "2h 7s 9c 4d 3s")
    assert s.boxes[0].outcome == "lose"
    assert s.boxes[0].nets == {
        "ante": -100,
        "flop": -200,
        "turn": -100,
        "river": 0,
        "bonus": 0,
        "pool": 0,
    }


def test_tie_returns_every_main_bet() -> None:
    # The board plays for both: a broadway straight.
    s = settle(play("2c 3d", **ALL_IN), "4h 5s", "Ah Ks Qc Jd Ts")
    assert s.boxes[0].outcome == "tie"
    assert s.boxes[0].net == 0


def test_fold_loses_the_ante_only_and_bonus_still_pays() -> None:
    s = settle(play("Ac Ad", bonus=100), "Kc Kd", "2h 7s 9c 4d 3s")
    r = s.boxes[0]
    assert r.outcome == "fold"
    assert r.nets == {"ante": -100, "flop": 0, "turn": 0, "river": 0, "bonus": 3000, "pool": 0}


def test_bonus_aces_against_dealer_aces_pays_1000() -> None:
    s = settle(play("As Ad", bonus=100, flop=True), "Ac Ah", "2h 7s 9c 4d 3s")
    assert s.boxes[0].nets["bonus"] == 100_000
    assert s.boxes[0].outcome == "tie"


def test_lost_bonus_and_small_pair_preset() -> None:
    assert (
        settle(play("7c 7d", bonus=100), "Kc Kd", "2h 8s 9c 4d 3s").boxes[0].nets["bonus"] == -100
    )
    with_small = settle(play("7c 7d", bonus=100), "Kc Kd", "2h 8s 9c 4d 3s", "with-small-pairs")
    assert with_small.boxes[0].nets["bonus"] == 300


def test_pool_counts_even_after_a_fold_and_postings_balance() -> None:
    s = settle_round(
        [BoxPlay("3", "alice", tuple(parse_cards("9h Th")), 100, pool=100)],  # type: ignore[arg-type]
        parse_cards("2c 2d"),
        parse_cards("Jh Qh Kh 4d 3s"),
        "source",
        POOL,
        1_000_000,
    )
    r = s.boxes[0]
    assert r.pool_hand.category.key == "straight_flush"
    assert r.nets["pool"] == 500_000 - 100
    result = RoundResult(s.postings)
    assert result.net("alice") == r.net
    assert result.net(JACKPOT) == -500_000
    assert result.net(HOUSE) == -(r.net) + 500_000


@st.composite
def deals(draw: st.DrawFn) -> tuple[list[BoxPlay], list[Card], list[Card]]:
    n = draw(st.integers(1, 7))
    cards = draw(st.permutations(standard_deck()))
    plays = []
    for i in range(n):
        flop = draw(st.booleans())
        turn = flop and draw(st.booleans())
        river = turn and draw(st.booleans())
        ante = draw(st.integers(1, 1000))
        plays.append(
            BoxPlay(
                str(i + 1),
                f"p{i % 3}",
                (cards[2 * i], cards[2 * i + 1]),
                ante,
                bonus=draw(st.sampled_from([0, ante])),
                pool=draw(st.sampled_from([0, 1, 100, 101])),
                flop=flop,
                turn=turn,
                river=river,
            )
        )
    return plays, cards[14:16], cards[16:21]


@settings(max_examples=200, deadline=None)
@given(deals(), st.integers(0, 3_000_000), st.sampled_from(["0", "0.3", "0.5", "1"]))
def test_any_round_balances_and_nets_match_postings(
    deal: tuple[list[BoxPlay], list[Card], list[Card]], opening: int, rate: str
) -> None:
    plays, dealer, board = deal
    pool = PoolSettings(CFG.pool_rates, Fraction(rate), 500_000)
    s = settle_round(plays, dealer, board, "source", pool, opening)
    result = RoundResult(s.postings)  # raises unless the postings sum to zero
    for player in {p.player for p in plays}:
        assert result.net(player) == sum(r.net for r in s.boxes if r.play.player == player)
    for r in s.boxes:
        main = r.nets["ante"] + r.nets["flop"] + r.nets["turn"] + r.nets["river"]
        if r.outcome == "fold":
            assert main == -r.play.ante
        if r.outcome == "tie":
            assert main == 0
        assert r.nets["pool"] >= -r.play.pool
    if s.pool is not None:
        assert s.pool.closing >= 500_000
        assert result.net(JACKPOT) == s.pool.closing - opening


@pytest.mark.parametrize("table", ["source", "with-small-pairs"])
def test_bonus_without_a_bet_is_zero(table: str) -> None:
    assert settle(play("As Ad"), "Ac Ah", "2h 7s 9c 4d 3s", table).boxes[0].nets["bonus"] == 0
