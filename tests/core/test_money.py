from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qipai.core.errors import InvalidInput
from qipai.core.money import (
    format_minor,
    largest_remainder,
    require_amount,
    round_down,
    scale,
    take_commission,
    to_rate,
)


def test_rates_are_exact_and_floats_refused() -> None:
    assert to_rate("0.05") == Fraction(1, 20)
    assert to_rate(Decimal("0.95")) == Fraction(19, 20)
    assert to_rate(Fraction(1, 3)) == Fraction(1, 3)
    assert to_rate(2) == 2
    for bad in (0.05, True, "five", "NaN", None):
        with pytest.raises(InvalidInput):
            to_rate(bad)  # type: ignore[arg-type]


def test_round_down_reports_the_remainder() -> None:
    # docs/rules/common.md#rounding Decision (rounding): 0.95 × 105 = 99.75 → 99, 0.75 to the rounding account.
    r = scale(105, "0.95")
    assert (r.value, r.rest) == (99, Fraction(3, 4))
    assert round_down(Fraction(-1, 2)).value == -1
    assert round_down(7).rest == 0


def test_commission_examples_from_the_sources() -> None:
    # Niu Niu source: 1200 less 4 % = 1152; banker 300 less 4 % = 288.
    assert take_commission(1200, "0.04").net == 1152
    assert take_commission(300, "0.04").net == 288
    split = take_commission(1210, "0.04")  # 1161.6 to the winner, 48.4 commission
    assert (split.net, split.commission, split.rounding) == (1161, 48, 1)
    assert take_commission(-500, "0.05").commission == 0


@given(st.integers(min_value=-(10**12), max_value=10**12), st.integers(0, 99))
def test_commission_conserves_money(gross: int, percent: int) -> None:
    split = take_commission(gross, Fraction(percent, 100))
    assert split.net + split.commission + split.rounding == gross
    if gross <= 0:
        assert split.commission == split.rounding == 0
    else:
        assert 0 <= split.rounding <= 1
        assert split.net == gross * (100 - percent) // 100


@given(
    st.integers(min_value=0, max_value=10**9),
    st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=12).filter(any),
)
def test_largest_remainder_is_exact_and_proportional(total: int, weights: list[int]) -> None:
    shares = largest_remainder(total, weights)
    assert sum(shares) == total
    weight_sum = sum(weights)
    for share, weight in zip(shares, weights, strict=True):
        exact = Fraction(total * weight, weight_sum)
        assert abs(share - exact) < 1
        if weight == 0:
            assert share == 0


def test_largest_remainder_ties_go_to_the_earlier_weight() -> None:
    assert largest_remainder(10, [1, 1, 1]) == [4, 3, 3]
    assert largest_remainder(0, [0, 0]) == [0, 0]
    with pytest.raises(InvalidInput):
        largest_remainder(1, [0, 0])


def test_amounts_and_formatting() -> None:
    assert require_amount(5) == 5
    for bad in (1.5, True, "5", -1):
        with pytest.raises(InvalidInput):
            require_amount(bad)
    with pytest.raises(InvalidInput):
        require_amount(0, positive=True)
    assert format_minor(12345) == "123.45"
    assert format_minor(-5) == "-0.05"
    assert format_minor(7, decimals=0) == "7"
