"""Money in integer minor units: rates, rounding down with a reported remainder, exact shares.

docs/rules/common.md#rounding (Decision, rounding): a payout that is not a whole number of minor units is rounded down;
the fraction goes to the house "rounding" account, so every round balances to the last unit.
Floats are refused everywhere: a rate is a `Fraction`, a `Decimal`, an int or a decimal string.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from qipai.core.errors import InvalidInput

Rate = Fraction | Decimal | int | str

# ----- the money range (docs/operators.md) -------------------------------------------------------------
# The ledger stores amounts and balances as 64-bit signed integers (SQL BIGINT).
MAX_MONEY = 2**63 - 1
# The most any money *setting* or single bet may be: a base, a table limit, a fixed stake, a
# jackpot seed (10^12 minor units = 10^10 in a currency of cents). With the pay limits of the
# config models (at most 1000:1 on one bet, 16 bets a seat, 7 boxes, multiples of 5 x 5 x 5)
# the largest amount one round can move is below 10^17, 1/90 of MAX_MONEY, so no settlement can
# overflow the ledger (tests/core/test_bounds.py derives it for every game).
MAX_STAKE = 10**12
# The most a table stack may hold (a template's maximum buy-in is bounded by it): the capped
# games (Pai Gow, Niu Niu, Tien Gow) move at most the stacks at the table, so four stacks of
# MAX_BUY_IN plus the players' wallets stay far below MAX_MONEY.
MAX_BUY_IN = 10**15
# Whatever one round may move in total, by the bounds above (a conservative product).
MAX_ROUND_MOVE = 10**17


def to_rate(value: Rate) -> Fraction:
    """An exact rational from a Fraction, Decimal, int or decimal string; floats are refused."""
    if isinstance(value, bool | float):
        raise InvalidInput(f"rate {value!r}: give a decimal string like '0.05', never a float")
    if isinstance(value, Fraction | int):
        return Fraction(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise InvalidInput(f"rate {value!r} is not finite")
        return Fraction(value)
    if isinstance(value, str):
        try:
            dec = Decimal(value.strip())
        except InvalidOperation:
            raise InvalidInput(f"rate {value!r} is not a decimal number") from None
        if not dec.is_finite():
            raise InvalidInput(f"rate {value!r} is not finite")
        return Fraction(dec)
    raise InvalidInput(f"rate {value!r} has unsupported type {type(value).__name__}")


def require_amount(value: object, what: str = "amount", *, positive: bool = False) -> int:
    """An integer count of minor units (bools and floats refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{what} must be an integer number of minor units, got {value!r}")
    if value < 0 or (positive and value == 0):
        raise InvalidInput(f"{what} must be {'positive' if positive else 'non-negative'}: {value}")
    return value


@dataclass(frozen=True)
class Rounded:
    """`value` rounded down to a minor unit, and the fraction that was cut off (0 <= rest < 1)."""

    value: int
    rest: Fraction


def round_down(amount: Fraction | int) -> Rounded:
    """Floor to the minor unit, reporting the cut-off fraction (for the rounding account)."""
    value = amount.numerator // amount.denominator if isinstance(amount, Fraction) else amount
    return Rounded(value, Fraction(amount) - value)


def scale(amount: int, rate: Rate) -> Rounded:
    """amount × rate, rounded down, with the remainder (e.g. a 0.95:1 payout)."""
    return round_down(amount * to_rate(rate))


@dataclass(frozen=True)
class CommissionSplit:
    """How a gross win divides: the winner's `net`, the house's `commission`, and `rounding`."""

    gross: int
    net: int
    commission: int
    rounding: int


def take_commission(gross_win: int, rate: Rate) -> CommissionSplit:
    """Split a gross win: the winner gets gross × (1 − rate) rounded down, the house
    commission is gross × rate rounded down, and the unit left over (if any) is rounding.

    No commission is ever taken on a loss or a zero result.
    """
    r = to_rate(rate)
    if not 0 <= r < 1:
        raise InvalidInput(f"commission rate {r} must be in [0, 1)")
    if gross_win <= 0:
        return CommissionSplit(gross_win, gross_win, 0, 0)
    net = round_down(gross_win * (1 - r)).value
    commission = round_down(gross_win * r).value
    return CommissionSplit(gross_win, net, commission, gross_win - net - commission)


def largest_remainder(total: int, weights: Sequence[int]) -> list[int]:
    """Divide `total` in proportion to non-negative `weights`, summing exactly to `total`.

    Each share is floor(total·w/W); the units left go one each to the largest remainders, ties to
    the earlier weight — deterministic, so a settlement replays to the same unit.
    """
    if total < 0:
        raise InvalidInput("largest_remainder divides a non-negative total")
    if any(w < 0 for w in weights):
        raise InvalidInput("weights must be non-negative")
    weight_sum = sum(weights)
    if weight_sum == 0:
        if total:
            raise InvalidInput("cannot divide a positive total by zero weights")
        return [0] * len(weights)
    shares = [total * w // weight_sum for w in weights]
    remainders = [total * w % weight_sum for w in weights]
    left = total - sum(shares)
    order = sorted(range(len(weights)), key=lambda i: (-remainders[i], i))
    for i in order[:left]:
        shares[i] += 1
    return shares


def format_minor(amount: int, decimals: int = 2) -> str:
    """`12345` → `123.45` for display (decimals=0 prints the integer)."""
    if decimals == 0:
        return str(amount)
    sign = "-" if amount < 0 else ""
    whole, frac = divmod(abs(amount), 10**decimals)
    return f"{sign}{whole}.{frac:0{decimals}d}"
