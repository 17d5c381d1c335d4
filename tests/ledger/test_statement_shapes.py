"""PostgreSQL statement texts kept per batch shape (`execute_pg._Sql`): a batch of a shape seen
before sends the kept text with its own parameters, and the check the tests run with
(`VERIFY_TEXTS`, turned on in `tests/conftest.py` for every test) catches a kept text that differs from a fresh one."""

from __future__ import annotations

import os
from typing import Any

import pytest

from qipai.core.protocol import HOUSE, Posting, RoundResult, Seat
from qipai.ledger import Ledger, execute, execute_pg

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg(backend: str, funded: Ledger) -> Ledger:
    if backend != "postgresql":
        pytest.skip("PostgreSQL statements")
    return funded


def play(ledger: Ledger, n: int) -> None:
    for _ in range(n):
        rid = ledger.open_round(
            table_id="t1",
            game="g",
            config={},
            seats=[Seat("P1", 0), Seat("P2", 0)],
            players={"P1": "alice", "P2": "bob"},
            seed=os.urandom(32),  # a new deal unit each round: every settlement reveals
            holds={"P1": 10, "P2": 20},
        )
        ledger.settle_round(
            rid,
            RoundResult((Posting("P1", 10), Posting("P2", -20), Posting(HOUSE, 10))),
        )


def test_a_shape_seen_before_sends_the_kept_text(
    pg: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(execute_pg, "VERIFY_TEXTS", False)  # the production path
    sent: list[str] = []
    real = execute.Raw.native_rows

    def spy(self: execute.Raw, sql: str, params: Any, **kw: Any) -> Any:
        sent.append(sql)
        return real(self, sql, params, **kw)

    monkeypatch.setattr(execute.Raw, "native_rows", spy)
    play(pg, 2)  # the cache learns the rounds' shapes
    sent.clear()
    play(pg, 3)
    opens, settles = sent[0::2], sent[1::2]
    assert len(opens) == len(settles) == 3
    assert all(s is opens[0] for s in opens)  # the same kept text, not a new one built
    assert all(s is settles[0] for s in settles)
    assert opens[0] != settles[0]
    assert pg.audit(replay=False).ok


def test_a_kept_text_that_differs_from_a_fresh_one_is_caught(
    pg: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    play(pg, 1)

    class Stale(dict[tuple[Any, ...], str]):
        def get(self, key: Any, default: Any = None) -> Any:
            return "WITH stale AS (SELECT 1) SELECT 1"

    monkeypatch.setattr(execute_pg, "_TEXTS", Stale())
    with pytest.raises(AssertionError, match="two statements of shape"):
        play(pg, 1)
