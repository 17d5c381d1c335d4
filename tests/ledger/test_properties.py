"""Hypothesis: any transfer either applies exactly (balanced, nothing negative) or is refused and
changes nothing; the books always audit clean (SQLite; the examples share one database)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qipai.ledger import Ledger, LedgerError

ACCOUNTS = ("stack:a:t1", "stack:b:t1", "wallet:a", "house", "jackpot:t1", "rounding")
NEGATIVE_OK = {"house", "external"}

legs = st.lists(
    st.tuples(st.sampled_from(ACCOUNTS), st.integers(min_value=-300, max_value=300)),
    min_size=1,
    max_size=5,
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.lists(st.tuples(legs, st.booleans()), min_size=1, max_size=10))
def test_transfers_apply_exactly_or_not_at_all(
    prop_ledger: Ledger, batch: list[tuple[list[tuple[str, int]], bool]]
) -> None:
    ledger = prop_ledger
    model = ledger.balances()  # examples share one database; each starts from its balances
    run = uuid.uuid4().hex
    for i, (lines, balance_it) in enumerate(batch):
        if balance_it:  # make it sum to zero through the house
            lines = [*lines, ("house", -sum(a for _, a in lines))]
        net: dict[str, int] = {}
        for name, amount in lines:
            net[name] = net.get(name, 0) + amount
        expected = {k: model.get(k, 0) + net.get(k, 0) for k in set(model) | set(net)}
        should_work = (
            sum(net.values()) == 0
            and any(net.values())
            and all(v >= 0 for k, v in expected.items() if k not in NEGATIVE_OK)
        )
        try:
            tx = ledger.transfer(dict(net), key=f"{run}-{i}")
        except LedgerError:
            assert not should_work
        else:
            assert should_work
            assert sum(e.amount for e in tx.entries) == 0
            model = expected
        actual = ledger.balances()
        assert {k: v for k, v in actual.items() if v} == {k: v for k, v in model.items() if v}
    assert ledger.audit(replay=False).ok


@pytest.fixture(scope="module")
def prop_ledger(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ledger]:
    ledger = Ledger.open(str(tmp_path_factory.mktemp("prop") / "p.sqlite3"))
    for user in ("a", "b"):
        ledger.create_user(user)
    ledger.deposit("a", 1_000, "d")
    ledger.buy_in("a", "t1", 500, "b")
    yield ledger
    ledger.close()
