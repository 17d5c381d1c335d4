"""The one banker-bid rule of Pai Gow and Niu Niu (qipai.core.banker)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.banker import choose_banker
from qipai.core.errors import InvalidInput
from qipai.core.rng import Rng


def test_the_highest_bid_banks_at_its_multiple() -> None:
    choice = choose_banker({"A": 1, "B": 3, "C": 2}, {"A": 9, "B": 1, "C": 9}, Rng(bytes(32)), 1)
    assert (choice.seat, choice.multiple, choice.how, choice.tied) == ("B", 3, "highest", ("B",))


def test_a_tie_is_drawn_weighted_by_stack() -> None:
    picks = {
        choose_banker({"A": 2, "B": 2, "C": 1}, {"A": 0, "B": 5, "C": 99}, Rng(bytes([i]) * 32), 1)
        for i in range(40)
    }
    assert {(c.seat, c.how, c.tied) for c in picks} == {("B", "tie", ("A", "B"))}
    seats = {
        choose_banker({"A": 2, "B": 2}, {"A": 1, "B": 1}, Rng(bytes([i]) * 32), 1).seat
        for i in range(40)
    }
    assert seats == {"A", "B"}


def test_nobody_bids_a_random_seat_banks_at_the_smallest_multiple() -> None:
    seats = set()
    for i in range(40):
        choice = choose_banker({"A": 0, "B": 0, "C": 0}, {}, Rng(bytes([i]) * 32), 3)
        assert (choice.multiple, choice.how, choice.tied) == (3, "nobody", ())
        seats.add(choice.seat)
    assert seats == {"A", "B", "C"}
    with pytest.raises(InvalidInput):
        choose_banker({}, {}, Rng(bytes(32)), 1)


@settings(deadline=None)
@given(st.dictionaries(st.sampled_from("ABCDE"), st.integers(0, 4), min_size=1), st.binary())
def test_the_banker_bid_the_most_and_the_draw_replays(bids: dict[str, int], seed: bytes) -> None:
    stacks = dict.fromkeys(bids, 10)
    choice = choose_banker(bids, stacks, Rng(seed.ljust(32, b"x")), 1)
    assert bids[choice.seat] == max(bids.values())
    assert choose_banker(bids, stacks, Rng(seed.ljust(32, b"x")), 1) == choice


def test_a_multiple_choice_waits_checks_records_and_defaults() -> None:
    from qipai.core.banker import MultipleChoice
    from qipai.core.errors import IllegalAction

    bids = MultipleChoice("bid", ["A", "B", "C"])
    assert bids.awaiting() == ["A", "B", "C"] and bids.made() == {}
    assert bids.legal([0, 1, 2]).to_json() == {"type": "bid", "choices": [0, 1, 2]}
    with pytest.raises(IllegalAction, match=r"choose one of \[0, 1, 2\]"):
        bids.check(3, [0, 1, 2])
    assert bids.chosen == {"A": None, "B": None, "C": None}  # a refusal records nothing
    event = bids.record("B", bids.check(2, [0, 1, 2]))
    assert event.to_json() == {"type": "bid", "seat": "B", "multiple": 2}
    defaults = bids.default(0)
    assert [e.to_json() for e in defaults] == [
        {"type": "bid", "seat": "A", "multiple": 0, "default": True},
        {"type": "bid", "seat": "C", "multiple": 0, "default": True},
    ]
    assert bids.awaiting() == [] and bids.made() == {"A": 0, "B": 2, "C": 0}
