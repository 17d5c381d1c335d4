"""The bets a settled San Gong round reports (reports.py, the spec's `stakes`), from the round's
recorded result; its turnover is those stakes."""

from __future__ import annotations

import doctest

from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.core.spec import StakedBet
from qipai.games.sangong import reports
from qipai.games.sangong.config import SangongConfig
from qipai.games.sangong.round import SangongRound
from qipai.games.sangong.spec import SPEC


def test_each_player_stakes_base_times_the_two_multiples() -> None:
    config = SangongConfig(base=50)
    r = SangongRound.start(config, [Seat(s, 1_000_000) for s in "ABCD"], Rng(b"r" * 32))
    r.act("B", {"type": "bid", "multiple": 3})
    r.expire()
    r.act("A", {"type": "bet", "multiple": 4})
    r.expire()
    r.expire()
    result = r.result().to_json()
    out = reports.stakes(config.to_json(), result["details"])
    assert SPEC.bets_of(config.to_json(), result["details"]) == out
    assert SPEC.turnover_of(config.to_json(), result["details"]) == [
        (b.seat, b.staked) for b in out
    ]
    assert [(b.seat, b.staked) for b in out] == [("A", 600), ("C", 150), ("D", 150)]
    nets = {p["account"]: p["amount"] for p in result["postings"]}
    assert {b.seat: b.net for b in out} == {s: nets[s] for s in "ACD"}
    assert all(isinstance(b, StakedBet) and b.kind == "player" for b in out)


def test_doctest() -> None:
    result = doctest.testmod(reports)
    assert result.attempted > 0 and result.failed == 0
