"""Fixtures shared by the table tests: the toy game registered, a table on a virtual clock."""

from __future__ import annotations

from typing import Any

import toygame

from qipai.core.protocol import JSON
from qipai.tables.games import GameInfo, register
from qipai.tables.memory import MemoryLedger
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


class Inbox:
    def __init__(self) -> None:
        self.messages: list[tuple[str, JSON]] = []

    def __call__(self, player: str, message: JSON) -> None:
        self.messages.append((player, message))

    def to(self, player: str) -> list[JSON]:
        return [m for p, m in self.messages if p == player]

    def last_state(self, player: str) -> JSON:
        return [m for m in self.to(player) if m["type"] == "state"][-1]


def make_table(**kw: Any) -> tuple[Table, MemoryLedger, ManualClock, Inbox]:
    ledger = kw.pop("ledger", None) or MemoryLedger()
    clock = kw.pop("clock", None) or ManualClock()
    inbox = Inbox()
    table = Table(
        "t1",
        TOY,
        ledger,
        clock,
        repo=kw.pop("repo", None) or MemoryTableRepo(),
        timing=Timing(bot_delay=1.0, between_rounds=3.0),
        send=inbox,
        **kw,
    )
    return table, ledger, clock, inbox


def seat_two(table: Table, ledger: MemoryLedger, amount: int = 100) -> None:
    for p in ("alice", "bob"):
        ledger.deposit(p, 1000, f"dep:{p}")
        table.sit(p, p.title(), amount)
        table.connect(p)
