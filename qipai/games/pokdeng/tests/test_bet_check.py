"""The round's one-pass bet check agrees with the check as first written.

`_check_bets` checks each spot's limits on the running totals as chips are read and names a
fault only after a second look; the reference below is the original two-pass check (all chips,
then every touched spot's final total, then the balance). For any chips — repeated spots,
earlier bets, malformed chips, wrong types — both accept the same bets (same totals, same stake
+ hold) or refuse with the same error. Malformed chips are refused by the typed action
(`PokDengRound.parse_action`) before either check sees them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.errors import GameError, IllegalAction, InsufficientStack
from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.games.pokdeng import PokDengConfig, PokDengRound
from qipai.games.pokdeng.config import Limits

CONFIGS = {
    "classic": PokDengConfig(),
    "banker-player": PokDengConfig(mode="banker-player"),
    "narrow": PokDengConfig(
        mode="banker-player",
        limits={"player": Limits(100, 300), "banker": Limits(50, 500), "pair": Limits(20, 40)},
    ),
}


def parsed_chips(raw: list[Any]) -> list[tuple[str, int]]:
    action = PokDengRound.parse_action({"type": "bets", "bets": raw})
    return [(chip.spot, chip.amount) for chip in action.bets]


def reference_check(round_: PokDengRound, seat: str, raw: list[Any]) -> tuple[int, dict[str, int]]:
    """The two-pass check: every chip, then each touched spot's final total, then the balance."""
    bounds = round_.config.spot_bounds
    earlier = {spot: amount for (player, spot), amount in round_._bets.items() if player == seat}
    totals: dict[str, int] = {}
    need = 0
    for spot, amount in parsed_chips(raw):
        if spot not in bounds:
            raise IllegalAction(f"spot {spot!r} is not on a {round_.config.mode} table")
        totals[spot] = totals.get(spot, earlier.get(spot, 0)) + amount
        need += bounds[spot][0] * amount
    for spot, total in totals.items():
        _, least, most = bounds[spot]
        if total < least:
            raise IllegalAction(f"{spot}: {total} is under the table minimum {least}")
        if total > most:
            raise IllegalAction(f"{spot}: {total} is over the table maximum {most}")
    available = round_.available(seat)
    if need > available:
        raise InsufficientStack(
            f"the bet needs {need} (stake + hold) but only {available} is available"
        )
    return need, totals


class StrSpot(str):
    """A str subclass: not the plain type the fast check expects."""


spot = st.one_of(
    st.sampled_from(["P1", "P2", "P5", "B1", "B3", "P1 pair", "B pair", "P9", "p1", 7, None]),
    st.sampled_from(["P2", "B pair"]).map(StrSpot),
    st.just(["P1"]),  # unhashable
)
amount = st.one_of(
    st.integers(-50, 700),
    st.sampled_from([100, 200, 40, 20, 0, True, 100.0, "100", None]),
)
chip = st.one_of(
    st.fixed_dictionaries({"spot": spot, "amount": amount}),
    st.fixed_dictionaries({"spot": spot, "amount": amount, "note": st.just("x")}),
    st.fixed_dictionaries({"spot": spot}),
    st.just(["P1", 100]),
    st.just("P1"),
)
good_chip = st.fixed_dictionaries(
    {
        "spot": st.sampled_from(["P1", "P3", "P1 pair", "P2 pair", "B2"]),
        "amount": st.sampled_from([20, 40, 100, 200, 300, 1000]),
    }
)


def outcome(check: Any) -> tuple[str, Any]:
    try:
        need, totals = check()
    except GameError as error:
        return type(error).__name__, str(error)
    return "ok", (need, list(totals.items()), [type(k) for k in totals])


@settings(max_examples=300, deadline=None)
@given(
    config=st.sampled_from(sorted(CONFIGS)),
    stack=st.sampled_from([0, 150, 1_000, 10**9]),
    earlier=st.lists(good_chip, max_size=3),
    chips=st.lists(st.one_of(chip, good_chip), max_size=7),
)
def test_one_pass_check_agrees_with_the_two_pass_check(
    config: str, stack: int, earlier: list[Mapping[str, Any]], chips: list[Any]
) -> None:
    round_ = PokDengRound.start(CONFIGS[config], [Seat("a", stack), Seat("b", 10)], Rng(bytes(32)))
    for earlier_chip in earlier:  # chips down already, where the table allows them
        with contextlib.suppress(GameError):
            round_.act("a", {"type": "bet", **earlier_chip})
    fast = outcome(lambda: round_._check_bets("a", parsed_chips(chips))[1:])
    assert fast == outcome(lambda: reference_check(round_, "a", chips))
