"""Pok Deng payouts: both modes against the independent oracle, rounding, the rule tables."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.cards import parse_card
from qipai.games.pokdeng.config import SPOTS, PokDengConfig
from qipai.games.pokdeng.hands import Hand, evaluate
from qipai.games.pokdeng.payout import Bet, settle_bet, settle_bets
from qipai.games.pokdeng.tests.oracle import (
    ALL_CARDS,
    allowed_returns,
    oracle_hand,
    oracle_returned,
)

HANDS = ("P1", "P2", "P3", "P4", "P5", "B")


def _hands(text: str) -> dict[str, Hand]:
    """'P1=Ac,7h B=Ad,4h' → evaluated hands."""
    out = {}
    for part in text.split():
        name, cards = part.split("=")
        a, b = (parse_card(c) for c in cards.split(","))
        out[name] = evaluate(a, b)
    return out


def _settle(mode: str, spot: str, amount: int, hands: str) -> tuple[int, int, int]:
    config = PokDengConfig(mode=mode)  # type: ignore[arg-type]
    o = settle_bet(config, Bet("1", "p", spot, amount), _hands(hands))
    return o.taken, o.returned, o.rounding


def test_classic_banker_zero_or_six_caps_double_win_unless_eight_or_nine() -> None:
    # docs/rules/pokdeng.md#classic-payouts: banker rank 0 or 6 → a double win pays 1:1, except a player 8 or 9.
    assert _settle("classic", "P1", 100, "P1=2d,5d B=6s,Kh") == (200, 300, 0)  # 7 suited v 6
    assert _settle("classic", "P1", 100, "P1=2d,5d B=5s,Kh") == (200, 400, 0)  # 7 suited v 5
    assert _settle("classic", "P1", 100, "P1=4d,4h B=6s,4h") == (200, 400, 0)  # 8 pair v 0: b)
    assert _settle("classic", "P1", 100, "P1=3d,3h B=6s,4h") == (200, 300, 0)  # 6 pair v 0: a)
    assert _settle("classic", "P1", 100, "P1=Ad,8d B=6s,4h") == (200, 400, 0)  # 9 suited v 0
    # Banker 7.1 (suited zero, not rank 0) does not cap a double win.
    assert _settle("classic", "P1", 100, "P1=Ad,Kd B=4s,6s") == (200, 400, 0)


def test_banker_player_rates_round_down_with_a_rounding_unit() -> None:
    # 0.95 × 101 = 95.95 → 95 paid, one unit to rounding.
    assert _settle("banker-player", "P1", 101, "P1=Ac,7h B=Ad,4h") == (202, 297, 1)
    # 1.9 × 101 = 191.9 → 191 (P1 9 suited).
    assert _settle("banker-player", "P1", 101, "P1=Ad,8d B=Ad,4h") == (202, 393, 1)
    assert _settle("banker-player", "P1", 100, "P1=Ad,8d B=6s,4h") == (200, 390, 0)  # no 0/6 rule
    # Bn: the banker's side. Banker 7.4 beats P1 1 and is double: B1 wins 1.9.
    assert _settle("banker-player", "B1", 100, "P1=Kd,Ah B=Tc,Td") == (200, 390, 0)
    # Bn loses 2x when the winning position hand is double.
    assert _settle("banker-player", "B1", 100, "P1=3d,2d B=3d,Ah") == (200, 0, 0)
    assert _settle("banker-player", "B pair", 100, "B=Tc,Td") == (100, 1200, 0)


hand_st = st.tuples(st.sampled_from(ALL_CARDS), st.sampled_from(ALL_CARDS))


@settings(max_examples=300, deadline=None)
@given(
    mode=st.sampled_from(["classic", "banker-player"]),
    cards=st.fixed_dictionaries({h: hand_st for h in HANDS}),
    amount=st.integers(1, 10**7),
    data=st.data(),
)
def test_every_bet_matches_the_oracle(
    mode: str, cards: dict[str, tuple[str, str]], amount: int, data: st.DataObject
) -> None:
    config = PokDengConfig(mode=mode)  # type: ignore[arg-type]
    spot = data.draw(st.sampled_from(sorted(SPOTS[mode])))  # type: ignore[index]
    hands = {h: evaluate(parse_card(a), parse_card(b)) for h, (a, b) in cards.items()}
    oracle = {h: oracle_hand(a, b) for h, (a, b) in cards.items()}
    outcome = settle_bet(config, Bet("1", "p", spot, amount), hands)
    assert outcome.returned == oracle_returned(mode, spot, amount, oracle)
    assert outcome.returned in allowed_returns(mode, spot, amount)
    assert outcome.taken == (amount if spot.endswith("pair") else 2 * amount)
    # Rounding is one unit exactly when the paid win was cut.
    exact = outcome.returned - outcome.taken
    assert outcome.rounding in (0, 1)
    if mode == "classic" or outcome.outcome != "win" or spot.endswith("pair"):
        assert outcome.rounding == 0
    else:
        rate = 19 if outcome.multiple == 2 else 95
        den = 10 if outcome.multiple == 2 else 100
        assert outcome.rounding == (1 if amount * rate % den else 0)
        assert exact == amount * rate // den


@settings(max_examples=150, deadline=None)
@given(
    mode=st.sampled_from(["classic", "banker-player"]),
    cards=st.fixed_dictionaries({h: hand_st for h in HANDS}),
    bets=st.lists(
        st.tuples(st.sampled_from(["a", "b", "c"]), st.integers(0, 15), st.integers(1, 10**6)),
        max_size=12,
    ),
)
def test_the_round_tables_settle_like_each_bet_alone(
    mode: str, cards: dict[str, tuple[str, str]], bets: list[tuple[str, int, int]]
) -> None:
    config = PokDengConfig(mode=mode)  # type: ignore[arg-type]
    spots = sorted(config.spots)
    hands = {h: evaluate(parse_card(a), parse_card(b)) for h, (a, b) in cards.items()}
    bet_list = [Bet(str(i), p, spots[k % len(spots)], amt) for i, (p, k, amt) in enumerate(bets)]
    settlement = settle_bets(config, bet_list, hands)
    single = [settle_bet(config, b, hands) for b in bet_list]
    assert list(settlement.outcomes()) == single
    assert settlement.bet_nets == [o.net for o in single]
    assert settlement.rounding == sum(o.rounding for o in single)
    postings = settlement.postings()
    assert sum(p.amount for p in postings) == 0
    for player in {b.player for b in bet_list}:
        assert settlement.nets[player] == sum(o.net for o in single if o.bet.player == player)
