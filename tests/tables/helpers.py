"""Fixtures shared by the table tests: the toy game registered, a table on a virtual clock over
the real ledger (SQLite, a fresh database copied from one migrated template per test run)."""

from __future__ import annotations

import atexit
import itertools
import shutil
import tempfile
from pathlib import Path
from typing import Any

import toygame

from qipai.core.protocol import JSON
from qipai.ledger import Ledger
from qipai.tables.games import GameInfo, register
from qipai.tables.ledger_adapter import LedgerAdapter
from qipai.tables.ports import ManualClock, MemoryTableRepo
from qipai.tables.table import Table, Timing

TOY = GameInfo(
    name="toy",
    round_type=toygame.ToyRound,
    config_type=toygame.ToyConfig,
    seat_ids=("A", "B", "C"),
    min_players=2,
    title={"en": "Toy", "zh": "玩具"},
    default_buy_in=100,
)
register(TOY)

_WORK = tempfile.TemporaryDirectory(prefix="qipai-table-tests-")
atexit.register(_WORK.cleanup)
_TEMPLATE = Path(_WORK.name) / "template"
_COUNT = itertools.count()


def fresh_ledger() -> LedgerAdapter:
    """A new, empty, migrated ledger database (a copy of one migrated template: a migration
    per test would cost more than the test)."""
    if not _TEMPLATE.exists():
        _TEMPLATE.mkdir()
        Ledger.open(str(_TEMPLATE / "ledger.db")).close()
    target = Path(_WORK.name) / f"db{next(_COUNT)}"
    shutil.copytree(_TEMPLATE, target)
    return LedgerAdapter(Ledger.open(str(target / "ledger.db")))


def total_money(ledger: LedgerAdapter) -> int:
    """Everything inside the room: wallets, stacks, holds and the house's accounts (what came
    in from outside, if nothing leaked); the ledger's own audit must also pass."""
    balances = ledger.ledger.balances()
    report = ledger.ledger.audit(replay=False)
    assert report.ok, report.violations
    return sum(v for k, v in balances.items() if k != "external")


def journal(ledger: LedgerAdapter, round_id: str) -> list[JSON]:
    """The journaled actions of a round, in order."""
    info = ledger.round_info(round_id)
    assert info is not None
    return [e for e in info["log"] if e["kind"] == "action"]


class Inbox:
    def __init__(self) -> None:
        self.messages: list[tuple[str, JSON]] = []

    def __call__(self, player: str, message: JSON) -> None:
        self.messages.append((player, message))

    def to(self, player: str) -> list[JSON]:
        return [m for p, m in self.messages if p == player]

    def last_state(self, player: str) -> JSON:
        return [m for m in self.to(player) if m["type"] == "state"][-1]


def make_table(**kw: Any) -> tuple[Table, LedgerAdapter, ManualClock, Inbox]:
    ledger = kw.pop("ledger", None) or fresh_ledger()
    clock = kw.pop("clock", None) or ManualClock()
    inbox = Inbox()
    table = Table(
        kw.pop("table_id", "t1"),
        kw.pop("game", TOY),
        ledger,
        clock,
        repo=kw.pop("repo", None) or MemoryTableRepo(),
        timing=kw.pop("timing", None) or Timing(bot_delay=1.0, between_rounds=3.0),
        send=inbox,
        **kw,
    )
    return table, ledger, clock, inbox


def seat_two(table: Table, ledger: LedgerAdapter, amount: int = 100) -> None:
    for p in ("alice", "bob"):
        ledger.deposit(p, 1000, f"dep:{p}")
        table.sit(p, p.title(), amount)
        table.connect(p)
