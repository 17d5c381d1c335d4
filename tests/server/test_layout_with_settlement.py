"""The card room saves a table's layout in the settlement's own database transaction: one
commit per round less, and never a settled round without the layout that continues from it
(or the other way round)."""

from __future__ import annotations

from pathlib import Path

import helpers
import pytest

from qipai.ledger import Ledger
from qipai.server.store import RoomStore
from qipai.tables.ledger_adapter import LedgerAdapter
from qipai.tables.ports import ManualClock
from qipai.tables.table import Table, Timing


class Boom(Exception):
    pass


def make(path: Path, *, seat: bool = True) -> tuple[Table, LedgerAdapter, RoomStore, ManualClock]:
    ledger = Ledger.open(str(path))
    store = RoomStore(ledger.engine)
    adapter = LedgerAdapter(ledger, layouts=store)
    clock = ManualClock()
    table = Table(
        "tbl",
        helpers.TOY,
        adapter,
        clock,
        repo=store,
        timing=Timing(1.0, 3.0),
        send=helpers.Inbox(),
    )
    for p in ("alice", "bob") if seat else ():
        adapter.deposit(p, 1000, f"dep-{p}")
        table.sit(p, p, 100)
    return table, adapter, store, clock


def saved_results(store: RoomStore) -> list[str]:
    [layout] = store.load_tables()
    return [r["round_id"] for r in layout["results"]]


def play_to_the_end(table: Table, clock: ManualClock) -> None:
    table.act("alice", {"type": "bet", "amount": 3}, None)
    table.act("bob", {"type": "bet", "amount": 2}, None)
    for _ in range(4):
        clock.advance(6)
        table.tick()


def test_layout_is_saved_in_the_settlement_transaction(tmp_path: Path) -> None:
    table, adapter, store, clock = make(tmp_path / "room.db")
    table.tick()
    assert table.record is not None
    first = table.record.round_id
    commits: list[str] = []

    def fault(point: str) -> None:
        if point == "before_commit" and table.round is not None and table.round.finished:
            commits.append(point)
            raise Boom("the settlement fails just before its commit")

    adapter.ledger.fault = fault
    table.act("alice", {"type": "bet", "amount": 3}, None)
    table.act("bob", {"type": "bet", "amount": 2}, None)
    with pytest.raises(Boom):
        for _ in range(4):
            clock.advance(6)
            table.step()
    assert commits  # the settlement was attempted and failed: neither it nor the layout stayed
    assert adapter.round_info(first)["status"] == "open"  # type: ignore[index]
    assert first not in saved_results(store)

    # a restart recovers the open round; its settlement brings the layout along
    adapter.ledger.fault = lambda point: None
    again, adapter2, store2, clock2 = make(tmp_path / "room.db", seat=False)
    again.restore_layout(store2.load_tables()[0])
    [open_round] = adapter2.open_rounds()
    assert again.recover(open_round) in ("resumed", "settled")
    for _ in range(4):
        clock2.advance(6)
        again.tick()
    assert adapter2.round_info(first)["status"] == "settled"  # type: ignore[index]
    assert first in saved_results(store2)
    play_to_the_end(again, clock2)
    assert saved_results(store2) == [r["round_id"] for r in again.results]
    assert len(again.results) >= 2
    assert sum(adapter2.ledger.balances().values()) == 0


def test_a_recovered_table_shows_the_last_settlement_chain_head(tmp_path: Path) -> None:
    """After a restart: the layout saved in the settlement's transaction cannot hold
    that settlement's chain head (its MAC is made there); the table restored from it still
    shows the head in the state message (read back from the ledger)."""
    table, adapter, store, clock = make(tmp_path / "room.db")
    table.tick()
    assert table.record is not None
    rid = table.record.round_id
    # the process dies right after the settlement commits: no save after it (a later save
    # would write the head the table learned), only the layout saved in its transaction
    store.save_table = lambda table_id, data: None  # type: ignore[method-assign]
    play_to_the_end(table, clock)
    head = adapter.ledger.round(rid)["chain_head"]
    assert head is not None and table.results[-1]["chain_head"] == head
    [layout] = store.load_tables()
    last = layout["results"][-1]
    assert last["round_id"] == rid and "chain_head" not in last  # what a restart finds

    again, _adapter2, store2, _clock2 = make(tmp_path / "room.db", seat=False)
    inbox = helpers.Inbox()
    again.send = inbox
    again.restore_layout(store2.load_tables()[0])
    again.connect("alice")
    state = inbox.last_state("alice")
    assert state["result"] is not None and state["result"]["round_id"] == rid
    assert state["result"]["chain_head"] == head
    assert again.results[-1]["chain_head"] == head


def test_a_settled_round_costs_no_layout_save_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The layout saved in the settlement's transaction is the table's layout after it: the
    chain head the table learns from the commit (shown with the result) does not make it
    differ, so no second commit writes the layout down again after each round (one commit per
    round on PostgreSQL: docs/scaling.md). The deal unit runs on, as a Pok Deng shoe does."""
    import toygame

    from qipai.core.protocol import NextRound

    def shoe_goes_on(self: toygame.ToyRound) -> NextRound:
        return NextRound(reuse_seed=True, context={"number": self.number + 1})

    monkeypatch.setattr(toygame.ToyRound, "next_round", shoe_goes_on)
    table, _adapter, store, clock = make(tmp_path / "room.db")
    table.tick()
    play_to_the_end(table, clock)  # the first round (and its deal unit) settled
    assert table.results and table.results[-1].get("chain_head")
    saves: list[str] = []
    save = store.save_table

    def counted(table_id: str, data: dict[str, object]) -> None:
        saves.append(table_id)
        save(table_id, data)

    store.save_table = counted  # type: ignore[method-assign]
    before = len(table.results)
    while len(table.results) == before:
        table.tick()
        play_to_the_end(table, clock)
    assert table.results[-1].get("chain_head")
    assert saves == []
    assert saved_results(store) == [r["round_id"] for r in table.results]
