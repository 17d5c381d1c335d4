"""Hold'em Bonus in the operator's reports: turnover (有效投注額) is every bet a box placed —
ante, bonus, pool, flop, turn and river (docs/rules/holdem-bonus.md#turnover) — counted from
what the players did, over random rounds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.cards import standard_deck
from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.games.holdem_bonus import HoldemBonusConfig, HoldemBonusRound
from qipai.games.holdem_bonus.spec import SPEC

ANTES = (100, 200, 500)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    plays=st.lists(
        st.tuples(
            st.sampled_from(ANTES),
            st.booleans(),  # bonus
            st.booleans(),  # pool
            st.integers(0, 2),  # 0: fold at the flop, 1: check the turn, 2: bet on
            st.booleans(),  # bet the river (when the turn was bet)
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_turnover_is_every_stake(seed: int, plays: list[tuple[int, bool, bool, int, bool]]) -> None:
    config = HoldemBonusConfig()
    seats = list(config.boxes[: len(plays)])
    deck = standard_deck()
    Rng(seed.to_bytes(16, "big")).shuffle(deck)  # the games' own shuffle (no `random`)
    round_ = HoldemBonusRound(config, [Seat(s, 100_000) for s in seats], deck, 1_000_000)
    staked = dict.fromkeys(seats, 0)
    plan = dict(zip(seats, plays, strict=True))
    for seat, (ante, bonus, pool, _, _) in plan.items():
        round_.act(seat, {"type": "bet", "ante": ante, "bonus": ante if bonus else 0, "pool": pool})
        staked[seat] += ante + (ante if bonus else 0) + (config.pool_stake if pool else 0)
    for seat in seats:
        round_.act(seat, {"type": "done"})
    for _ in range(3 * len(seats) + 3):
        if round_.phase == "finished":
            break
        for seat in seats:
            if not any(a.type != "bet" for a in round_.legal_actions(seat)):
                continue
            ante, _, _, go_on, river = plan[seat]
            phase = round_.phase
            if phase == "flop":
                move = "flop" if go_on else "fold"
                staked[seat] += 2 * ante if go_on else 0
            elif phase == "turn":
                move = "turn" if go_on == 2 else "check"
                staked[seat] += ante if go_on == 2 else 0
            else:
                move = "river" if river else "check"
                staked[seat] += ante if river else 0
            round_.act(seat, {"type": move})
    assert round_.phase == "finished"
    turnover: dict[str, int] = {}
    for seat, amount in SPEC.turnover_of(config.to_json(), round_.result().details):
        turnover[seat] = turnover.get(seat, 0) + amount
    assert turnover == {s: v for s, v in staked.items() if v}
