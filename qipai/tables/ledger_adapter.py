"""`LedgerPort` over the real ledger (`qipai.ledger.api.Ledger`): SQLite or PostgreSQL.

Owner leases ("one owner per table"): a process claims each table it runs
(`claim`, an epoch from the ledger's `table_leases`), renews the claims while it runs and
releases them when it stops; every journal and settlement write of a claimed table carries
`fence=(table_id, epoch)`, so a process whose lease lapsed and was taken over can never write
to that table's rounds again (the ledger raises `Fenced`, nothing is written).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from sqlalchemy import Connection, select

from qipai.core.protocol import JSON, Event, RecordedAction, RoundResult, Seat
from qipai.ledger import InsufficientFunds as LedgerFunds
from qipai.ledger import Ledger, UnknownAccount, UnknownRound
from qipai.ledger.accounts import HOUSE
from qipai.ledger.accounts import stack as stack_account
from qipai.ledger.errors import Fenced, RoundStateError
from qipai.ledger.schema import round_log, round_players, rounds
from qipai.tables import batch_reads
from qipai.tables.ports import (
    InsufficientFunds,
    JournalEntry,
    LeaseLost,
    OpenRound,
    RoundRecord,
    TableRepo,
)

Fence = tuple[str, int]
T = TypeVar("T")


def _fenced(work: Callable[[], T]) -> T:
    """Run a fenced write; a stale or missing lease is `LeaseLost` (nothing was written)."""
    try:
        return work()
    except Fenced as exc:
        raise LeaseLost(str(exc)) from exc


class LayoutStore(TableRepo, Protocol):
    """A `TableRepo` in the ledger's database that can also write a layout inside a ledger
    transaction (the server's `RoomStore`)."""

    def save_table_in(self, conn: Connection, table_id: str, data: JSON) -> None: ...


class LedgerAdapter:
    """Maps the table runtime's narrow needs onto the ledger's facade, one call each.

    With `layouts` (the table repo in the same database), a table's layout is saved in the
    settlement's own transaction (one commit per round less, and never one without the other).
    With `host`, tables are claimed under owner leases and every round write is fenced."""

    def __init__(
        self, ledger: Ledger, layouts: LayoutStore | None = None, host: str | None = None
    ) -> None:
        self.ledger = ledger
        self.layouts = layouts
        self.host = host
        self.epochs: dict[str, int] = {}  # table id -> the epoch of our lease
        self._table_of: dict[str, str] = {}  # open round id -> its table id
        self._users: set[str] = set()

    # ----- owner leases -----------------------------------------------------------------------
    def claim(self, table_id: str, ttl_s: float, users: Sequence[str] = ()) -> bool:
        """Claim (or re-claim) the lease of a table; False while another live owner holds it.
        `users` (a new table's bots) are made ledger users in the claim's own transaction."""
        fresh = [u for u in users if u not in self._users]
        if self.host is None:
            for user in fresh:
                self.ensure_user(user, user)
            return True
        epoch = self.ledger.claim_table(table_id, self.host, ttl_s, users=fresh)
        if epoch is None:
            self.epochs.pop(table_id, None)
            return False
        self._users.update(fresh)
        self.epochs[table_id] = epoch
        return True

    def claim_many(self, table_ids: Sequence[str], ttl_s: float) -> set[str]:
        """Claim the leases of many tables at once (a takeover); the ids won."""
        if self.host is None:
            return set(table_ids)
        won = self.ledger.claim_tables(table_ids, self.host, ttl_s)
        self.epochs.update(won)
        return set(won)

    def claim_all(self, table_ids: Sequence[str], ttl_s: float) -> set[str]:
        """`claim` for every table of `table_ids` (a host's start-up recovery): one batch
        claim for those with a lease row, one `claim` each for the rest (never claimed
        before); the ids won (the others are held live by another host)."""
        if self.host is None:
            return set(table_ids)
        fresh = batch_reads.unleased(self.ledger, table_ids)
        won = self.claim_many([t for t in table_ids if t not in fresh], ttl_s)
        won.update(t for t in sorted(fresh) if self.claim(t, ttl_s))
        return won

    def renew(self, table_id: str, ttl_s: float) -> bool:
        """Renew our lease; False if it was lost (taken over after it lapsed)."""
        if self.host is None:
            return True
        epoch = self.epochs.get(table_id)
        if epoch is None or not self.ledger.renew(table_id, self.host, epoch, ttl_s):
            self.epochs.pop(table_id, None)
            return False
        return True

    def release(self, table_id: str) -> None:
        epoch = self.epochs.pop(table_id, None)
        if self.host is not None and epoch is not None:
            self.ledger.release(table_id, self.host, epoch)

    def _fence(self, table_id: str | None) -> Fence | None:
        if self.host is None or table_id is None:
            return None
        epoch = self.epochs.get(table_id)
        # a table this process does not hold is fenced with an impossible epoch: refused
        return (table_id, -1 if epoch is None else epoch)

    def _round_fence(self, round_id: str) -> Fence | None:
        if self.host is None:
            return None
        table_id = self._table_of.get(round_id)
        if table_id is None:
            info = self.ledger.round(round_id)
            table_id = self._table_of[round_id] = str(info["table_id"])
        return self._fence(table_id)

    # ----- money ------------------------------------------------------------------------------
    def ensure_user(self, player: str, name: str | None = None) -> None:
        if player not in self._users:
            self.ledger.create_user(player, name)
            self._users.add(player)

    def wallet(self, player: str) -> int:
        return self.ledger.wallet(player)

    def deposit(self, player: str, amount: int, key: str) -> None:
        self.ensure_user(player)
        self.ledger.deposit(player, amount, key)

    def stack(self, player: str, table_id: str) -> int:
        return self.ledger.stack(player, table_id)

    # With a host id, money between a wallet and a table stack is fenced like the round
    # writes: the lease epoch is checked inside the transfer's own transaction (`LeaseLost`,
    # nothing moved, when another host owns the table now).
    def buy_in(
        self, player: str, table_id: str, amount: int, key: str, layout: JSON | None = None
    ) -> None:
        """Wallet → table stack; with `layout`, the table's layout (the seat it pays for
        taken) is saved in the buy-in's own transaction."""
        fence = self._fence(table_id)
        also = self._layout_writer(table_id, layout)

        def move() -> None:
            _fenced(
                lambda: self.ledger.buy_in(player, table_id, amount, key, fence=fence, also=also)
            )

        try:
            try:
                move()
            except UnknownAccount:
                # a person new to the ledger: made a user only then (one commit per buy-in
                # less for everyone else), and the same buy-in (same key) again
                self.ensure_user(player)
                move()
        except LedgerFunds as exc:
            raise InsufficientFunds(str(exc)) from None

    def _layout_writer(
        self, table_id: str, layout: JSON | None
    ) -> Callable[[Connection], None] | None:
        """`also` for a ledger write that saves the table's `layout` in its transaction."""
        if layout is None:
            return None
        if self.layouts is None:
            raise ValueError("this ledger adapter keeps no table layouts")
        layouts = self.layouts

        def also(conn: Connection) -> None:
            layouts.save_table_in(conn, table_id, layout)

        return also

    def cash_out(self, player: str, table_id: str, key: str) -> int:
        fence = self._fence(table_id)
        before = self.ledger.stack(player, table_id)
        _fenced(lambda: self.ledger.cash_out(player, table_id, key, fence=fence))
        return before - self.ledger.stack(player, table_id)

    def bot_buy_in(self, bot: str, table_id: str, amount: int, key: str) -> None:
        self.ensure_user(bot, bot)
        fence = self._fence(table_id)
        _fenced(lambda: self.ledger.bot_buy_in(bot, table_id, amount, key, fence=fence))

    def bot_buy_ins(
        self, table_id: str, amounts: Mapping[str, int], key: str, layout: JSON | None = None
    ) -> None:
        """A new table's bots bought in from the house bot bankroll in ONE transaction, with
        the table's `layout` saved in it (so neither exists without the other); the bots are
        users already (`claim(users=…)`)."""
        fence = self._fence(table_id)
        also = self._layout_writer(table_id, layout)
        _fenced(lambda: self.ledger.bot_buy_ins(table_id, amounts, key, fence=fence, also=also))

    def bot_cash_out(self, bot: str, table_id: str, key: str) -> int:
        self.ensure_user(bot, bot)
        fence = self._fence(table_id)
        before = self.ledger.stack(bot, table_id)
        _fenced(lambda: self.ledger.bot_cash_out(bot, table_id, key, fence=fence))
        return before - self.ledger.stack(bot, table_id)

    def pool(self, pool_id: str) -> int:
        return self.ledger.pool(pool_id)

    # ----- rounds -----------------------------------------------------------------------------
    def open_round(self, record: RoundRecord, holds: Mapping[str, int]) -> None:
        seat_of = {player: seat for seat, player, _ in record.seats}
        _fenced(
            lambda: self.ledger.open_round(
                table_id=record.table_id,
                game=record.game,
                config=record.config,
                seats=[Seat(seat, stack) for seat, _, stack in record.seats],
                players={seat: player for seat, player, _ in record.seats},
                seed=bytes.fromhex(record.seed_hex),
                context=record.context,
                round_id=record.round_id,
                holds={seat_of[p]: amount for p, amount in holds.items() if amount > 0},
                meta=record.meta or None,
                fence=self._fence(record.table_id),
            )
        )
        self._table_of[record.round_id] = record.table_id

    def append(self, round_id: str, *entries: JournalEntry) -> None:
        groups: list[tuple[list[Any], str | None]] = [
            ([*e.events, RecordedAction(e.seat, e.action)], e.client_id) for e in entries
        ]
        fence = self._round_fence(round_id)
        _fenced(lambda: self.ledger.append_groups(round_id, groups, fence=fence))

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
        fence = self._round_fence(round_id)
        if events:
            # the last events of the round (its final action was journaled before it was
            # applied); a retried settlement finds the round settled and its log complete
            with contextlib.suppress(RoundStateError):
                _fenced(
                    lambda: self.ledger.append_groups(round_id, [(list(events), None)], fence=fence)
                )
        also = None
        if layout is not None:
            if self.layouts is None:
                raise ValueError("this ledger adapter keeps no table layouts")
            layouts, (table_id, data) = self.layouts, layout

            def also(conn: Connection) -> None:
                layouts.save_table_in(conn, table_id, data)

        tx = _fenced(
            lambda: self.ledger.settle_round(
                round_id,
                result,
                jackpot_pool=pool_id,
                reveal_seed=reveal_seed,
                also=also,
                fence=fence,
            )
        )
        self._table_of.pop(round_id, None)
        return None if tx.head is None else dict(tx.head)

    def pay_interrupted(
        self, round_id: str, table_id: str, player: str, amount: int, reason: str
    ) -> None:
        self.ledger.transfer(
            {HOUSE: -amount, stack_account(player, table_id): amount},
            key=f"interrupted:{round_id}:{player}",
            kind="interrupted_game",
            memo=f"interrupted game: {reason}"[:200],
            round_id=round_id,
        )

    def reveal(self, commitment: str) -> None:
        if self.host is None:
            self.ledger.reveal_seed(commitment)
            return
        # a stale host must not reveal the seed of a deal unit the new owner plays on
        _fenced(lambda: self.ledger.reveal_seed(commitment, fence_of=self._fence))

    def void_round(self, round_id: str, reason: str) -> None:
        fence = self._round_fence(round_id)
        _fenced(lambda: self.ledger.void_round(round_id, reason, fence=fence))
        self._table_of.pop(round_id, None)

    def open_rounds(self, table_id: str | None = None) -> list[OpenRound]:
        out = self._checked([self._open_round(info) for info in self.ledger.open_rounds(table_id)])
        for item in out:
            self._table_of[item.record.round_id] = item.record.table_id
        return out

    def open_rounds_of(self, table_ids: Sequence[str] | None) -> list[OpenRound]:
        """`open_rounds` of many tables (None: all) in three statements however many
        (`batch_reads.open_rounds_of`: a takeover pass or a start-up recovery), oldest first."""
        out = self._checked(
            [self._open_round(info) for info in batch_reads.open_rounds_of(self.ledger, table_ids)]
        )
        for item in out:
            self._table_of[item.record.round_id] = item.record.table_id
        return out

    def recent_client_ids_of(
        self, table_ids: Sequence[str], limit: int
    ) -> dict[str, list[tuple[str, str]]]:
        """`recent_client_ids` of many tables in one statement."""
        return batch_reads.recent_client_ids_of(self.ledger, table_ids, limit)

    def chain_heads_of(self, round_ids: Sequence[str]) -> dict[str, JSON]:
        """Round id -> the chain head of its ending transaction, for many rounds at once."""
        return batch_reads.chain_heads_of(self.ledger, round_ids)

    def _checked(self, found: list[OpenRound]) -> list[OpenRound]:
        """Each open round with what is wrong with its records' MACs (`OpenRound.broken`):
        recovery resumes only a round whose header and journal are as the ledger wrote them."""
        broken = self.ledger.round_mac_findings([o.record.round_id for o in found])
        return [
            o
            if o.record.round_id not in broken
            else dataclasses.replace(o, broken="; ".join(broken[o.record.round_id])[:500])
            for o in found
        ]

    @staticmethod
    def _open_round(info: Mapping[str, Any]) -> OpenRound:
        players = {p["seat"]: p["user_id"] for p in info["players"]}
        record = RoundRecord(
            round_id=str(info["round_id"]),
            table_id=str(info["table_id"]),
            game=str(info["game"]),
            config=dict(info["config"]),
            seats=tuple(
                (str(s["id"]), str(players.get(s["id"], "")), int(s.get("stack", 0)))
                for s in info["seats"]
            ),
            seed_hex=str(info["seed"]),
            commitment=str(info["seed_commitment"]),
            context=dict(info["context"] or {}),
            meta=dict(info.get("meta") or {}),
        )
        entries: list[JournalEntry] = []
        for item in info["log"]:
            if item["kind"] == "action":
                entries.append(
                    JournalEntry(
                        seq=len(entries) + 1,
                        seat=item["seat"],
                        action=dict(item["payload"]),
                        client_id=item["client_id"],
                    )
                )
        return OpenRound(record, tuple(entries))

    def round_info(self, round_id: str) -> JSON | None:
        try:
            return self.ledger.round(round_id)
        except UnknownRound:
            return None

    def recent_client_ids(self, table_id: str, limit: int) -> list[tuple[str, str]]:
        def work(conn: Connection) -> list[tuple[str, str]]:
            query = (
                select(round_log.c.client_id, round_players.c.user_id)
                .select_from(
                    round_log.join(rounds, rounds.c.id == round_log.c.round_id).outerjoin(
                        round_players,
                        (round_players.c.round_id == round_log.c.round_id)
                        & (round_players.c.seat == round_log.c.seat),
                    )
                )
                .where(rounds.c.table_id == table_id, round_log.c.client_id.is_not(None))
                .order_by(rounds.c.opened_at.desc(), round_log.c.seq.desc())
                .limit(limit)
            )
            rows = conn.execute(query).all()
            return [(str(c), str(u or "")) for c, u in reversed(rows)]

        return self.ledger._read(work)
