"""Money limits as pure rules (`qipai.authority.limits`) and the password strength rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.authority.errors import WeakPassword


@settings(max_examples=60, deadline=None)
@given(
    steps=st.lists(st.tuples(st.integers(0, 10_000) | st.none(), st.integers(0, 7200)), max_size=8)
)
def test_the_applied_limit_never_rises_before_cooling(
    steps: list[tuple[int | None, int]],
) -> None:
    """Whatever the player asks, the limit that applies never rises sooner than the cooling
    period after the raise was asked (pure: `limits.effective` on the stored row)."""
    from qipai.authority.limits import effective, player_value

    cooling = 3600.0
    row: dict[str, object] = {"player_value": 1_000, "operator_value": None}
    now = 0.0
    for value, wait in steps:
        before = effective(row, now)
        current = player_value(row, now)
        if current is not None and (value is None or value > current):
            row = {
                **row,
                "player_value": current,
                "pending_value": value,
                "pending_from": now + cooling,
            }
        else:
            row = {**row, "player_value": value, "pending_value": None, "pending_from": None}
        after = effective(row, now)
        assert before is None or (after is not None and after <= before)
        now += wait


def test_weak_operator_passwords_are_refused() -> None:
    from qipai.authority.operators import check_new_password

    with pytest.raises(WeakPassword):
        check_new_password("password1234")
    assert check_new_password("a long operator password") == "a long operator password"
