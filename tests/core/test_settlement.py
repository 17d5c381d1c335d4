from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.errors import InvalidInput
from qipai.core.settlement import settle_banker_game


def test_source_example_stack_80_three_losers_owing_300() -> None:
    # paigow source (防以小博大): bring 80, three losers would owe 300 → win only 80.
    result = settle_banker_game(
        "B", {"P1": -100, "P2": -100, "P3": -100}, {"B": 80, "P1": 500, "P2": 500, "P3": 500}, 0
    )
    assert result.seats["B"].gross == 80
    assert sorted(result.seats[p].gross for p in ("P1", "P2", "P3")) == [-27, -27, -26]
    assert result.capped


def test_niuniu_source_example() -> None:
    # swap-niuniu source: 出 −600, 川 −900, 尾 +1,152, banker +288 (4 % commission).
    stacks = {"莊": 10**6, "出": 10**6, "川": 10**6, "尾": 10**6}
    result = settle_banker_game("莊", {"出": -600, "川": -900, "尾": 1200}, stacks, "0.04")
    assert result.nets() == {"莊": 288, "出": -600, "川": -900, "尾": 1152}
    assert result.commission == 12 + 48
    assert not result.capped


def test_player_capped_at_own_stack_and_banker_scaled() -> None:
    # P1 brings 50 but would win 300: capped at 50. The banker brings 100 and would lose
    # 50 + 200 = 250 > 100 → winners scaled so it loses exactly 100.
    result = settle_banker_game("B", {"P1": 300, "P2": 200}, {"B": 100, "P1": 50, "P2": 1000}, 0)
    assert result.seats["B"].gross == -100
    assert result.seats["P1"].gross + result.seats["P2"].gross == 100
    assert result.seats["P1"].gross == 20 and result.seats["P2"].gross == 80


def test_mixed_results_banker_cap_counts_the_losers_too() -> None:
    # Banker stack 100: wins 60 from P2, owes 300 to P1 → may lose only 100, so P1 gets 160.
    result = settle_banker_game("B", {"P1": 300, "P2": -60}, {"B": 100, "P1": 1000, "P2": 1000}, 0)
    assert result.nets() == {"B": -100, "P1": 160, "P2": -60}


def test_bad_input() -> None:
    with pytest.raises(InvalidInput, match="no stack"):
        settle_banker_game("B", {"P1": 1}, {"B": 1}, 0)
    with pytest.raises(InvalidInput, match="cannot also be a player"):
        settle_banker_game("B", {"B": 1}, {"B": 1}, 0)
    with pytest.raises(InvalidInput, match="negative stack"):
        settle_banker_game("B", {"P1": 1}, {"B": 1, "P1": -1}, 0)


players = st.lists(
    st.tuples(st.integers(-5000, 5000), st.integers(0, 3000)), min_size=1, max_size=6
)


@settings(deadline=None)  # CPU shared with other work: a timed deadline flakes
@given(players, st.integers(0, 5000), st.sampled_from(["0", "0.04", "0.05", "0.1"]))
def test_settlement_properties(seats: list[tuple[int, int]], banker_stack: int, rate: str) -> None:
    raw = {f"P{i}": r for i, (r, _) in enumerate(seats)}
    stacks = {"B": banker_stack, **{f"P{i}": s for i, (_, s) in enumerate(seats)}}
    result = settle_banker_game("B", raw, stacks, rate)
    # Money is conserved: results + commission + rounding = 0.
    assert sum(result.nets().values()) + result.commission + result.rounding == 0
    assert sum(s.gross for s in result.seats.values()) == 0
    for seat, s in result.seats.items():
        # Nobody wins or loses more than the stack brought into the round.
        assert abs(s.gross) <= stacks[seat]
        # No commission on a loss; commission is the rate of the net win, rounded down.
        if s.gross <= 0:
            assert s.commission == 0 and s.rounding == 0 and s.net == s.gross
        else:
            assert s.commission == int(s.gross * Fraction(rate))
            assert s.net + s.commission + s.rounding == s.gross
        if seat != "B":
            # Caps only ever shrink a result toward zero, never flip its sign.
            assert s.gross * raw[seat] >= 0 and abs(s.gross) <= abs(raw[seat])
    banker = result.seats["B"].gross
    uncapped = -sum(max(-stacks[p], min(stacks[p], r)) for p, r in raw.items())
    if abs(uncapped) <= banker_stack:
        assert banker == uncapped  # no banker cap needed: players' capped results stand
    else:
        assert abs(banker) == banker_stack
