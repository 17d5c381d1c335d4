"""docs/rules/common.md#countdowns: a countdown that a restart or a failover interrupted
starts again in full. A restart is modelled as the server does it: a new table over the same
database and saved layout, the open round recovered from its journal (`Table.recover`). The
players' clients reconnect after it, so the countdown waits for them (or for
`Timing.return_grace`) and then runs its whole length."""

from __future__ import annotations

from pathlib import Path

from helpers import TOY, Inbox

from qipai.ledger import Ledger
from qipai.tables.ledger_adapter import LedgerAdapter
from qipai.tables.ports import ManualClock, MemoryTableRepo
from qipai.tables.table import Table, Timing

BET_S = 10.0  # the toy game's betting countdown


def make(path: Path, repo: MemoryTableRepo, clock: ManualClock) -> tuple[Table, Inbox]:
    inbox = Inbox()
    table = Table(
        "tbl1",
        TOY,
        LedgerAdapter(Ledger.open(str(path))),
        clock,
        repo=repo,
        timing=Timing(1.0, 3.0, return_grace=20.0),
        send=inbox,
    )
    return table, inbox


def crash_late_in_the_countdown(tmp_path: Path) -> tuple[Table, Inbox, ManualClock, str]:
    repo, clock = MemoryTableRepo(), ManualClock()
    table, inbox = make(tmp_path / "l.db", repo, clock)
    for p in ("alice", "bob"):
        table.ledger.deposit(p, 1000, f"dep-{p}")
        table.sit(p, p, 100)
        table.connect(p)
    table.tick()
    state = inbox.last_state("alice")
    assert state["round"]["time_left"] == BET_S
    clock.advance(BET_S - 2)  # 2 s left when the server dies
    round_id = state["round"]["round_id"]
    again, inbox2 = make(tmp_path / "l.db", repo, clock)
    again.restore_layout(repo.tables["tbl1"])
    [open_round] = again.ledger.open_rounds()
    assert again.recover(open_round) == "resumed"
    clock.advance(7)  # the clients reconnect (back-off, start-up): longer than the 2 s left
    again.tick()
    return again, inbox2, clock, round_id


def test_the_interrupted_countdown_starts_again_in_full_when_the_players_are_back(
    tmp_path: Path,
) -> None:
    table, inbox, clock, round_id = crash_late_in_the_countdown(tmp_path)
    assert table.round is not None and table.round.phase == "betting"  # no default played
    table.connect("alice")
    held = inbox.last_state("alice")
    assert held["round"]["round_id"] == round_id and held["round"]["time_left"] is None
    table.connect("bob")  # everyone the round waits for is back: the whole countdown
    for player in ("alice", "bob"):
        back = inbox.last_state(player)
        assert back["round"]["round_id"] == round_id
        assert back["round"]["time_left"] == BET_S
        assert back["legal"]
    clock.advance(BET_S - 0.5)
    table.tick()
    assert table.round is not None and table.round.phase == "betting"  # still their time
    clock.advance(1)
    table.tick()
    assert table.round is None or table.round.phase != "betting"


def test_without_the_players_it_starts_in_full_after_the_grace(tmp_path: Path) -> None:
    table, inbox, clock, round_id = crash_late_in_the_countdown(tmp_path)
    table.connect("alice")  # bob never comes back
    clock.advance(20)
    table.tick()
    state = inbox.last_state("alice")
    assert state["round"]["round_id"] == round_id
    assert state["round"]["time_left"] == BET_S
