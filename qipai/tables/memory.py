"""An in-memory `LedgerPort`: the same contract as the real ledger, for tests and benchmarks."""

from __future__ import annotations

import copy
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from qipai.core.protocol import JSON, Event, RoundResult
from qipai.tables.ports import (
    InsufficientFunds,
    JournalEntry,
    Movement,
    OpenRound,
    RoundRecord,
)


class MemoryLedger:
    """Wallets, table stacks, holds, house accounts and a round journal in dictionaries."""

    def __init__(self) -> None:
        self.wallets: dict[str, int] = {}
        self.stacks: dict[tuple[str, str], int] = {}
        self.holds: dict[str, dict[str, int]] = {}
        self.house: dict[str, int] = {}
        self.rounds: dict[str, dict[str, Any]] = {}
        self.keys: set[str] = set()
        self.lock = threading.RLock()

    def _once(self, key: str) -> bool:
        if key in self.keys:
            return False
        self.keys.add(key)
        return True

    def wallet(self, player: str) -> int:
        return self.wallets.get(player, 0)

    def deposit(self, player: str, amount: int, key: str) -> None:
        with self.lock:
            if amount <= 0:
                raise ValueError("a deposit is positive")
            if self._once(key):
                self.wallets[player] = self.wallet(player) + amount

    def stack(self, player: str, table_id: str) -> int:
        return self.stacks.get((player, table_id), 0)

    def buy_in(self, player: str, table_id: str, amount: int, key: str) -> None:
        with self.lock:
            if amount <= 0:
                raise ValueError("a buy-in is positive")
            if key in self.keys:
                return
            if self.wallet(player) < amount:
                raise InsufficientFunds(f"wallet holds {self.wallet(player)}, buy-in is {amount}")
            self.keys.add(key)
            self.wallets[player] -= amount
            self.stacks[(player, table_id)] = self.stack(player, table_id) + amount

    def cash_out(self, player: str, table_id: str, key: str) -> int:
        with self.lock:
            if not self._once(key):
                return 0
            amount = self.stacks.pop((player, table_id), 0)
            self.wallets[player] = self.wallet(player) + amount
            return amount

    def pool(self, pool_id: str) -> int:
        return self.house.get(f"jackpot:{pool_id}", 0)

    def open_round(self, record: RoundRecord, holds: Mapping[str, int]) -> None:
        with self.lock:
            if record.round_id in self.rounds:
                return
            for player, amount in holds.items():
                if self.stack(player, record.table_id) < amount:
                    raise InsufficientFunds(f"{player} cannot cover a hold of {amount}")
            for player, amount in holds.items():
                self.stacks[(player, record.table_id)] -= amount
            self.holds[record.round_id] = dict(holds)
            self.rounds[record.round_id] = {
                "record": record,
                "entries": [],
                "status": "open",
                "result": None,
            }

    def append(self, round_id: str, *entries: JournalEntry) -> None:
        with self.lock:
            journal = self.rounds[round_id]["entries"]
            last = journal[-1].seq if journal else 0
            for entry in entries:  # all or none, like one database transaction
                if entry.seq <= last:
                    raise ValueError("journal sequence must increase")
                last = entry.seq
            journal.extend(entries)

    def _release(self, round_id: str, nets: Mapping[str, int]) -> None:
        record: RoundRecord = self.rounds[round_id]["record"]
        for player, held in self.holds.pop(round_id, {}).items():
            after = held + nets.get(player, 0)
            if after < 0:
                raise InsufficientFunds(f"{player} would end below zero")
            key = (player, record.table_id)
            self.stacks[key] = self.stack(player, record.table_id) + after

    def settle_round(
        self,
        round_id: str,
        result: RoundResult,
        *,
        pool_id: str,
        reveal_seed: bool,
        layout: tuple[str, JSON] | None = None,
        events: Sequence[Event] = (),
    ) -> None:
        with self.lock:
            info = self.rounds[round_id]
            if info["status"] != "open":
                return
            record: RoundRecord = info["record"]
            seats = {s for s, _, _ in record.seats}
            movements = [
                Movement(record.player_of(p.account) if p.account in seats else p.account, p.amount)
                for p in result.postings
            ]
            nets: dict[str, int] = {}
            for m in movements:
                if not m.is_house:
                    nets[m.account] = nets.get(m.account, 0) + m.amount
            backup = (copy.deepcopy(self.stacks), copy.deepcopy(self.holds), dict(self.house))
            try:
                self._release(round_id, nets)
                for m in movements:
                    if m.is_house:
                        name = f"jackpot:{pool_id}" if m.account == "jackpot" else m.account
                        self.house[name] = self.house.get(name, 0) + m.amount
            except Exception:
                self.stacks, self.holds, self.house = backup
                raise
            info["status"] = "settled"
            info["result"] = result.to_json()
            info["revealed"] = reveal_seed

    def pay_interrupted(
        self, round_id: str, table_id: str, player: str, amount: int, reason: str
    ) -> None:
        with self.lock:
            if amount <= 0 or not self._once(f"interrupted:{round_id}:{player}"):
                return
            self.house["house"] = self.house.get("house", 0) - amount
            self.stacks[(player, table_id)] = self.stack(player, table_id) + amount

    def reveal(self, commitment: str) -> None:
        for info in self.rounds.values():
            if info["record"].commitment == commitment:
                info["revealed"] = True

    def void_round(self, round_id: str, reason: str) -> None:
        with self.lock:
            info = self.rounds.get(round_id)
            if info is None or info["status"] != "open":
                return
            self._release(round_id, {})
            info["status"] = "voided"
            info["result"] = {"void": reason}

    def open_rounds(self) -> list[OpenRound]:
        return [
            OpenRound(info["record"], tuple(info["entries"]))
            for info in self.rounds.values()
            if info["status"] == "open"
        ]

    def round_info(self, round_id: str) -> JSON | None:
        info = self.rounds.get(round_id)
        if info is None:
            return None
        return {
            "record": info["record"].to_json(),
            "entries": [
                {"seq": e.seq, "seat": e.seat, "action": e.action, "client_id": e.client_id}
                for e in info["entries"]
            ],
            "status": info["status"],
            "result": info["result"],
        }
