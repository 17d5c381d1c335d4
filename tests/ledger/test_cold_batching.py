"""Fenced round operations on a cold cache batch together (`book.fenced_chain`): a host that
has just taken tables over knows nothing of their rounds, and their settlements and journal
appends ran one commit each on the first writer lane (docs/scaling.md, "Takeover")."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from qipai.core.protocol import RecordedAction
from qipai.ledger import Ledger, book
from qipai.ledger import chain as chain_mod
from tests.ledger.helpers import play_coin


@pytest.fixture(autouse=True)
def _coin(monkeypatch: pytest.MonkeyPatch) -> None:
    from qipai.games import PACKAGES

    monkeypatch.setitem(PACKAGES, "coin", "tests.ledger.coin_game")


def _open_rounds(ledger: Ledger, tables: list[str]) -> dict[str, tuple[str, object, int]]:
    """A round opened (stakes held) at each table, left unsettled; table -> (round id, the
    round, the host's lease epoch)."""
    out = {}
    for table in tables:
        epoch = ledger.claim_table(table, "host-a", 60)
        assert epoch is not None
        players = {"P1": f"{table}-ann", "P2": f"{table}-bea"}
        for user in players.values():
            ledger.create_user(user)
            ledger.deposit(user, 1_000, "d")
            ledger.buy_in(user, table, 1_000, f"b-{table}")
        rid, round_ = play_coin(ledger, {"P1": 10, "P2": 20}, players, table=table, settle=False)
        out[table] = (rid, round_, epoch)
    return out


def test_fenced_settlements_on_a_cold_cache_share_one_commit(
    ledger_factory: Callable[[], Ledger],
) -> None:
    first = ledger_factory()
    opened = _open_rounds(first, ["t1", "t2", "t3"])
    cold = ledger_factory()  # another process's view: nothing of these rounds cached
    writer = book.Writer(cold)
    try:
        queue = [
            book._Pending(
                book.Settle(
                    round_id=rid,
                    result=round_.result(),  # type: ignore[attr-defined]
                    accounts={},
                    reveal_seed=True,
                    fence=(table, epoch),
                    also=None,
                )
            )
            for table, (rid, round_, epoch) in opened.items()
        ]
        assert [p.op.route(cold) for p in queue] == [chain_mod.table_chain(t) for t in opened]
        writer._queue = list(queue)
        batch = writer._take()
        assert len(batch) == 3  # one batch: before, each ran alone (its chain unknown)
        commits = cold.counters.commits
        writer._batch(batch)
        assert cold.counters.commits == commits + 1
        assert all(p.done and p.error is None for p in queue)
    finally:
        writer.close()
    for rid, _round, _epoch in opened.values():
        assert cold.round(rid)["status"] == "settled"
    assert cold.audit().ok


def test_a_fence_for_another_table_is_still_refused(
    ledger_factory: Callable[[], Ledger],
) -> None:
    """The fence names the chain before anything is read; the round's own table decides
    when it is planned, and a fence for another table is refused as before."""
    from qipai.ledger.errors import Fenced

    first = ledger_factory()
    opened = _open_rounds(first, ["t1", "t2"])
    cold = ledger_factory()
    rid1, _round1, _e1 = opened["t1"]
    _rid2, _round2, epoch2 = opened["t2"]
    with pytest.raises(Fenced, match="fence is for table 't2'"):
        cold.append(rid1, RecordedAction("P1", {"type": "noop"}), fence=("t2", epoch2))
