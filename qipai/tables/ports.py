"""What the table runtime needs from the outside world, as narrow Protocols.

`LedgerPort` is the slice of the ledger (money and round journal) a table uses; its one
implementation is the adapter over `qipai.ledger` in `ledger_adapter.py` (SQLite or PostgreSQL;
the tests use it on SQLite too, so the table runtime is tested against the ledger it runs on).
`Clock` is injectable so tests run in virtual time.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from qipai.core.protocol import HOUSE_ACCOUNTS, JSON, Event, RoundResult


class Clock(Protocol):
    """Seconds since the epoch (wall time, so deadlines can be shown to clients)."""

    def now(self) -> float: ...


class SystemClock:
    def now(self) -> float:
        return time.time()


class ManualClock:
    """Virtual time for tests: it moves only when told to."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.t = start

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@dataclass(frozen=True)
class RoundRecord:
    """Everything needed to rebuild a round: the journal's header row."""

    round_id: str
    table_id: str
    game: str
    config: JSON
    seats: tuple[tuple[str, str, int], ...]  # (seat id, player id, stack at start)
    seed_hex: str
    commitment: str
    context: JSON = field(default_factory=dict)
    number: int = 0
    # how the round was dealt and under which terms: template id + version, config hash,
    # engine version, deal-spec version, the unit's client seeds (Tien Gow: the tiles' root)
    meta: JSON = field(default_factory=dict)

    def player_of(self, seat: str) -> str:
        for seat_id, player, _ in self.seats:
            if seat_id == seat:
                return player
        raise KeyError(seat)

    def to_json(self) -> JSON:
        return {
            "round_id": self.round_id,
            "table_id": self.table_id,
            "game": self.game,
            "config": self.config,
            "seats": [list(s) for s in self.seats],
            "seed_hex": self.seed_hex,
            "commitment": self.commitment,
            "context": self.context,
            "number": self.number,
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundRecord:
        return cls(
            round_id=str(data["round_id"]),
            table_id=str(data["table_id"]),
            game=str(data["game"]),
            config=dict(data["config"]),
            seats=tuple((str(a), str(b), int(c)) for a, b, c in data["seats"]),
            seed_hex=str(data["seed_hex"]),
            commitment=str(data["commitment"]),
            context=dict(data.get("context") or {}),
            number=int(data.get("number", 0)),
            meta=dict(data.get("meta") or {}),
        )


@dataclass(frozen=True)
class JournalEntry:
    """One journaled action (seat None = the countdown expired), with the client's action id.

    `events` are what the round's earlier changes produced and the journal has not yet kept:
    an action is journaled before it is applied, so its own events travel with the next write
    (the next action, or the settlement). They are journaled before the action."""

    seq: int
    seat: str | None
    action: JSON
    client_id: str | None
    events: tuple[Event, ...] = ()


@dataclass(frozen=True)
class OpenRound:
    record: RoundRecord
    entries: tuple[JournalEntry, ...]
    broken: str | None = None
    """What is wrong with the round's records' MACs, as the ledger found when it read them for
    recovery (None: sound, or a port that does not check): such a round is not resumed."""


@dataclass(frozen=True)
class Movement:
    """A settlement line: `account` is a player id or a house account name (house, jackpot…)."""

    account: str
    amount: int
    memo: str = ""

    @property
    def is_house(self) -> bool:
        return self.account in HOUSE_ACCOUNTS


class InsufficientFunds(Exception):
    """A debit would take a wallet or stack below zero."""


class LeaseLost(Exception):
    """Another process owns this table now (its lease lapsed and was taken over): this process
    must stop writing for it — the ledger refused the write (fenced), nothing was written."""


class LedgerPort(Protocol):
    """Money and the round journal, as the table runtime uses them."""

    # --- wallets and table stacks ---------------------------------------------------------
    def wallet(self, player: str) -> int: ...

    def deposit(self, player: str, amount: int, key: str) -> None: ...

    def stack(self, player: str, table_id: str) -> int: ...

    def buy_in(self, player: str, table_id: str, amount: int, key: str) -> None: ...

    def cash_out(self, player: str, table_id: str, key: str) -> int: ...

    def pool(self, pool_id: str) -> int: ...

    def bot_buy_in(self, bot: str, table_id: str, amount: int, key: str) -> None:
        """The house bot bankroll -> a bot's table stack (nothing minted)."""

    def bot_cash_out(self, bot: str, table_id: str, key: str) -> int:
        """A bot's whole table stack back to the house bot bankroll; returns the amount."""

    # --- rounds ---------------------------------------------------------------------------
    def open_round(self, record: RoundRecord, holds: Mapping[str, int]) -> None:
        """Journal the round header and hold each player's stake (player id -> amount)."""

    def append(self, round_id: str, *entries: JournalEntry) -> None:
        """Journal actions durably (before anyone hears of them), several in one transaction:
        all of them or none."""

    def settle_round(
        self,
        round_id: str,
        result: RoundResult,
        *,
        pool_id: str,
        reveal_seed: bool,
        layout: tuple[str, JSON] | None = None,
        events: Sequence[Event] = (),
    ) -> JSON | None:
        """In one transaction: release the holds, post the result's postings (seat ids are the
        round's players' stacks, `jackpot` the pool `pool_id`), mark the round settled.
        Idempotent on round_id. `reveal_seed` False while the deal unit (shoe) goes on.
        `layout` (table id, layout): saved in the same transaction — only given to a ledger
        whose `layouts` attribute is the table's `TableRepo` (same database). `events`: the
        last events of the round, journaled before it settles. Returns the settlement's place
        in the books' tamper-evident chain, `{"chain", "seq", "mac"}` (shown to the players
        with the result, docs/ledger.md), or None for a ledger without one."""

    def pay_interrupted(
        self, round_id: str, table_id: str, player: str, amount: int, reason: str
    ) -> None:
        """The interrupted-game policy's payment (`interrupt.py`): `amount` > 0 from the house
        to the player's table stack, tied to the voided round. Idempotent per round and player."""

    def reveal(self, commitment: str) -> None:
        """Reveal the seed of every round dealt from this commitment (its deal unit ended)."""

    def void_round(self, round_id: str, reason: str) -> None:
        """Release every hold and mark the round void (idempotent)."""

    def open_rounds(self, table_id: str | None = None) -> list[OpenRound]:
        """Rounds journaled but neither settled nor voided (crash recovery), of one table or
        of all."""

    def round_info(self, round_id: str) -> JSON | None:
        """The journaled round (header, entries, status, result) or None."""

    def recent_client_ids(self, table_id: str, limit: int) -> list[tuple[str, str]]:
        """(client id, player) of the last `limit` journaled actions at the table, oldest first
        (a repeat after a restart is acknowledged, never applied again)."""


class TableRepo(Protocol):
    """Where tables' layouts (game, config, seats and who sits in them) survive a restart."""

    def save_table(self, table_id: str, data: JSON) -> None: ...

    def delete_table(self, table_id: str) -> None: ...

    def load_tables(self) -> list[JSON]: ...


class MemoryTableRepo:
    def __init__(self) -> None:
        self.tables: dict[str, JSON] = {}

    def save_table(self, table_id: str, data: JSON) -> None:
        self.tables[table_id] = copy.deepcopy(data)

    def delete_table(self, table_id: str) -> None:
        self.tables.pop(table_id, None)

    def load_tables(self) -> list[JSON]:
        return [copy.deepcopy(v) for v in self.tables.values()]
