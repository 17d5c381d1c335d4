"""Pai Gow in the operator's reports: turnover is each seat's valid bet, |result| after the cap
and before commission (docs/rules/paigow.md#valid-bet), the banker's included — over random
rounds played by the engine and the source's cap example."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.games import settle_document
from qipai.games.paigow.spec import SPEC

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_the_cap_example_counts_what_each_seat_settled() -> None:
    out = settle_document(json.loads((EXAMPLES / "cap-example.json").read_text("utf-8")))
    assert sorted(SPEC.turnover_of({}, out)) == [("S1", 80), ("S2", 27), ("S3", 27), ("S4", 26)]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    stacks=st.lists(st.sampled_from([100, 1_000, 25_000, 10**6]), min_size=4, max_size=4),
)
def test_turnover_is_every_seats_result_before_commission(seed: bytes, stacks: list[int]) -> None:
    config = SPEC.parse_config(None)
    seats = [Seat(s, stack) for s, stack in zip(SPEC.seat_ids, stacks, strict=False)]
    round_ = SPEC.round_type.start(config, seats, Rng(seed))
    for _ in range(200):
        if round_.finished:
            break
        round_.expire()  # the rules' defaults on silence: bids, bets and arrangements
    assert round_.finished
    details = round_.result().details
    gross = {s: abs(int(row["gross"])) for s, row in details["seats"].items()}
    turnover = dict(SPEC.turnover_of(config.to_json(), details))
    assert turnover == {s: g for s, g in gross.items() if g}
