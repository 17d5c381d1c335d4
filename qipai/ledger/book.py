"""The ledger's operations as plans (`plan.py`): each builds what it writes either from this
process's cache (the fast path: no reads at all) or from reads inside the transaction (the careful
path, which also gives every typed refusal), and `Writer` commits them — alone, or together with
whatever other threads commit at the same moment (group commit).

The cache is sound because of one invariant: everything about a table's rounds (their headers,
journals, stake holds, ends and reveals) is written only as records of the table's own chain, so
a cached table state built on chain head (seq, mac) is exactly the database's as long as that head
is current — and the head's compare-and-set at commit checks precisely that. A plan built on a
stale cache is refused by the database (`StaleHead`), or by a unique key (a round end, a hold
closure, a transaction key written meanwhile), and is then rebuilt from reads.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, bindparam, select
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from qipai.core.protocol import (
    COMMISSION,
    HOUSE,
    JACKPOT,
    ROUNDING,
    Event,
    RecordedAction,
    RoundResult,
    Seat,
)
from qipai.core.rng import commitment as commit
from qipai.ledger import accounts as acct
from qipai.ledger import chain as chain_mod
from qipai.ledger import sealing, sqlite_wal
from qipai.ledger.errors import (
    HoldClosed,
    IdempotencyConflict,
    LedgerError,
    RoundStateError,
    UnbalancedTransaction,
    UnknownAccount,
    UnknownHold,
    UnknownRound,
)
from qipai.ledger.execute import AccountIds, Counters, Raw, execute, read_head
from qipai.ledger.execute_pg import OneShotRefused
from qipai.ledger.holds import Hold
from qipai.ledger.plan import (
    CacheMiss,
    NewClose,
    NewEnd,
    NewHold,
    NewLog,
    NewReveal,
    NewRound,
    NewTx,
    Plan,
    StaleHead,
)
from qipai.ledger.posting import (
    Entry,
    FaultHook,
    TxResult,
    account_rows,
    any_key_used,
    balance_of,
    body_hash,
    find_tx,
    load_tx,
    net_legs,
    positive,
)
from qipai.ledger.schema import (
    hold_is_open,
    holds,
    round_ends,
    round_log,
    round_players,
    rounds,
    seed_reveals,
    transactions,
    users,
    utcnow,
)

if TYPE_CHECKING:
    from qipai.ledger.keys import Keys
    from qipai.ledger.leases import Fence

_RETRYABLE_SQLSTATES = {"40001", "40P01"}  # serialization failure, deadlock detected
MAX_BATCH = 64
GATHER_S = 0.002
"""How long a writer about to commit waits for the tables that shared the last commit to bring
their next operation (`Writer._gather`)."""


# ----- cached state ------------------------------------------------------------------------
@dataclass
class OpenHold:
    id: int
    source: str
    hold_account: str
    amount: int
    key: str
    """The hold's identity in the chain: its authorizing transaction's idempotency key, with
    `#<seat>` for a round's stakes (`chain.hold_ref`)."""
    seat: str | None
    purpose: str


@dataclass
class RoundState:
    id: str
    table_id: str
    players: dict[str, str]
    holds: dict[int, OpenHold]
    last_seq: int
    commitment: str
    sealed_seed: str


@dataclass
class TableState:
    head: tuple[int, str]
    rounds: dict[str, RoundState] = field(default_factory=dict)
    """Open rounds this process knows (a round missing here is read carefully)."""
    commitments: dict[str, bool] = field(default_factory=dict)
    """Seed commitment -> revealed, for the commitments this process has seen at the table."""
    complete: bool = False
    """Seen from the chain's first record: a commitment not in `commitments` was never used."""

    def revealed(self, commitment: str) -> bool:
        if commitment in self.commitments:
            return self.commitments[commitment]
        if self.complete:
            return False
        raise CacheMiss(commitment)


class Cache:
    """What this process knows of each table's chain (see the module docstring)."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.tables: dict[str, TableState] = {}
        self.round_chain: dict[str, str] = {}
        self.ids = AccountIds()

    def table(self, chain: str) -> TableState:
        found = self.tables.get(chain)
        if found is None:
            raise CacheMiss(chain)
        return found

    def table_of_round(self, round_id: str) -> tuple[str, TableState, RoundState]:
        chain = self.round_chain.get(round_id)
        table = None if chain is None else self.tables.get(chain)
        state = None if table is None else table.rounds.get(round_id)
        if chain is None or table is None or state is None:
            raise CacheMiss(round_id)
        return chain, table, state

    def ensure(self, chain: str, *, complete: bool = False) -> TableState:
        found = self.tables.get(chain)
        if found is None:
            found = self.tables[chain] = TableState(head=(0, chain_mod.GENESIS), complete=complete)
        return found

    def keep(self, chain: str, state: RoundState) -> None:
        self.ensure(chain).rounds[state.id] = state
        self.round_chain[state.id] = chain

    def forget(self, chain: str, round_id: str) -> None:
        table = self.tables.get(chain)
        if table is not None:
            table.rounds.pop(round_id, None)
        self.round_chain.pop(round_id, None)

    def drop(self, chains: set[str]) -> None:
        with self.lock:
            for chain in chains:
                table = self.tables.pop(chain, None)
                for rid in table.rounds if table is not None else ():
                    self.round_chain.pop(rid, None)


class Context:
    """What operations need of their `Ledger`."""

    keys: Keys
    cache: Cache
    counters: Counters
    fault: FaultHook


# ----- helpers -----------------------------------------------------------------------------
def tx_result(t: NewTx, *, replayed: bool = False) -> TxResult:
    assert t.id is not None
    return TxResult(
        tx_id=t.id,
        key=t.key,
        kind=t.kind,
        entries=tuple(Entry(name, t.legs[name], bal) for name, bal in t.balances.items()),
        created_at=t.created_at,
        memo=t.memo,
        round_id=t.round_id,
        detail=dict(t.detail_value or {}),
        replayed=replayed,
        chain=t.chain,
        chain_seq=t.seq,
        mac=t.mac,
    )


def hold_of(t: NewTx) -> Hold:
    h = t.holds[0]
    assert len(t.holds) == 1 and h.id is not None and t.id is not None
    return Hold(
        id=h.id,
        account=h.source,
        hold_account=h.hold_account,
        amount=h.amount,
        status="open",
        round_id=h.round_id,
        seat=h.seat,
        purpose=h.purpose,
        authorize_tx=t.id,
        close_tx=None,
        captured=None,
        created_at=t.created_at,
        closed_at=None,
    )


def _head(ctx: Context, conn: Connection, chain: str, plan: Plan) -> None:
    """Lock and read a chain's head for a careful plan."""
    head, exists = read_head(Raw(conn, ctx.counters), chain, lock=True)
    plan.heads[chain] = head
    if not exists:
        plan.new_chains.add(chain)


_ROUND_TABLE = select(rounds.c.table_id).where(rounds.c.id == bindparam("r"))


def chain_of_round(conn: Connection, round_id: str | None) -> str:
    """A transaction about a round belongs to its table's chain; any other to the ledger's."""
    if round_id is None:
        return chain_mod.LEDGER_CHAIN
    table = conn.execute(_ROUND_TABLE, {"r": round_id}).scalar()
    return chain_mod.LEDGER_CHAIN if table is None else chain_mod.table_chain(str(table))


def default_accounts(
    table_id: str, players: Mapping[str, str], overrides: Mapping[str, str] | None
) -> dict[str, str]:
    """Posting account → ledger account: seats (and the players' own ids) to the players' table
    stacks, house, commission and rounding to the table's own house-side accounts, `jackpot` to
    the table's pool `jackpot:<table>`, then the caller's overrides."""
    mapping = {user: acct.stack(user, table_id) for user in players.values()}
    mapping.update({seat: acct.stack(user, table_id) for seat, user in players.items()})
    mapping.update(
        {
            HOUSE: acct.per_table(acct.HOUSE, table_id),
            COMMISSION: acct.per_table(acct.COMMISSION, table_id),
            ROUNDING: acct.per_table(acct.ROUNDING, table_id),
            JACKPOT: acct.jackpot(table_id),
        }
    )
    mapping.update(overrides or {})
    return mapping


def settlement_legs(
    result: RoundResult, mapping: Mapping[str, str], captured: Sequence[Any]
) -> dict[str, int]:
    """The net movement of every ledger account when `result` settles with these holds (each
    with `.account`/`.source`, `.hold_account`, `.amount`) returned to their stacks."""
    legs: dict[str, int] = {}
    for posting in result.postings:
        if posting.account not in mapping:
            raise UnknownAccount(
                f"posting account {posting.account!r} has no ledger account (pass accounts=)"
            )
        name = mapping[posting.account]
        legs[name] = legs.get(name, 0) + posting.amount
    for hold in captured:
        source = getattr(hold, "source", None) or hold.account
        legs[hold.hold_account] = legs.get(hold.hold_account, 0) - hold.amount
        legs[source] = legs.get(source, 0) + hold.amount
    return {k: v for k, v in legs.items() if v != 0}


def _tx(
    *,
    key: str,
    kind: str,
    body: Mapping[str, Any],
    legs: Mapping[str, int],
    chain: str,
    memo: str = "",
    round_id: str | None = None,
    detail: Mapping[str, Any] | None = None,
    allow_empty: bool = False,
    reverses: tuple[int, str] | None = None,
) -> NewTx:
    netted = net_legs(legs.items())
    if sum(netted.values()) != 0:
        raise UnbalancedTransaction(f"postings sum to {sum(netted.values())}, not 0: {netted}")
    if not netted and not allow_empty:
        raise UnbalancedTransaction("a transaction needs at least one non-zero posting")
    for name in netted:
        acct.parse(name)
    return NewTx(
        key=key,
        kind=kind,
        body_hash=body_hash(body),
        round_id=round_id,
        memo=memo,
        detail=chain_mod.jtext(dict(detail or {})),
        detail_value=dict(detail or {}),
        created_at=utcnow(),
        legs=dict(sorted(netted.items())),
        chain=chain,
        reverses_id=None if reverses is None else reverses[0],
        reverses_key=None if reverses is None else reverses[1],
    )


def _one(t: NewTx, chain_plan: Plan, result: Callable[[], Any] | None = None) -> Plan:
    chain_plan.items.append(t)
    chain_plan.result = result or (lambda: tx_result(t))
    return chain_plan


# ----- operations --------------------------------------------------------------------------
def fenced_chain(fence: Fence | None) -> str | None:
    """The chain a fenced round operation writes, known before anything is read: its fence's
    table's (a fence for another table than the round's is refused when it is planned:
    `check_fence`). Without it a round operation on a cold cache ran alone on the first lane —
    the settlements and "resumed" events of every table a host had just taken over, one
    commit after another (docs/scaling.md, "Takeover")."""
    if not isinstance(fence, tuple) or len(fence) != 2 or not isinstance(fence[0], str):
        return None
    return chain_mod.table_chain(fence[0])


class Op:
    """One ledger operation. `chain` (if known up front) lets the writer batch operations on
    different chains; None runs it alone."""

    chain: str | None = None
    stackable: bool = False
    """Whether several operations of this chain may share a batch (each planned carefully in
    the batch's transaction, sealed one after the other from the head it locked: `Move`s on
    the ledger's chain). A cached (`fast`) plan assumes no other operation of its chain runs
    before it in the transaction, so the others batch one per chain."""

    def route(self, ctx: Context) -> str | None:
        """The chain this operation will write, as far as known before it is planned (the
        writer lane it goes to); None: not known yet."""
        return self.chain

    def fast(self, ctx: Context) -> Plan:
        raise CacheMiss(type(self).__name__)

    def careful(self, ctx: Context, conn: Connection) -> Plan:
        raise NotImplementedError


class Move(Op):
    """A plain transaction between ledger accounts (deposits, transfers, adjustments …)."""

    def __init__(
        self,
        *,
        key: str,
        kind: str,
        body: Mapping[str, Any],
        legs: Mapping[str, int] | None = None,
        memo: str = "",
        detail: Mapping[str, Any] | None = None,
        need_user: str | None = None,
        round_id: str | None = None,
        empty_from: tuple[str, str] | None = None,
        reverses: int | None = None,
        fence: Fence | None = None,
        fence_table: str | None = None,
        also: Callable[[Connection], None] | None = None,
    ) -> None:
        self.key, self.kind, self.body = key, kind, dict(body)
        self.also = also
        """Runs in the same transaction after the rows (a new table's layout with its bots)."""
        self.fence, self.fence_table = fence, fence_table
        """A table's lease (table id, epoch), checked in the transaction that writes (a buy-in
        or cash-out of a stale table host is refused: `Fenced`, nothing moved)."""
        self.legs = dict(legs or {})
        self.memo, self.detail = memo, dict(detail or {})
        self.need_user, self.round_id = need_user, round_id
        self.empty_from = empty_from
        """(source, destination): move the source's whole balance (a no-op when empty)."""
        self.reverses = reverses
        self.chain = chain_mod.LEDGER_CHAIN if round_id is None and reverses is None else None
        self.stackable = self.chain is not None  # careful only: no cached plan to go stale

    def careful(self, ctx: Context, conn: Connection) -> Plan:
        round_id = self.round_id
        original: TxResult | None = None
        if self.reverses is not None:
            earlier = find_tx(conn, self.key, self.body)
            if earlier is not None:
                return Plan(done=earlier)
            try:
                original = load_tx(conn, self.reverses)
            except LookupError:
                raise LedgerError(f"no transaction {self.reverses}") from None
            round_id = original.round_id
        chain = chain_of_round(conn, round_id)
        plan = Plan()
        _head(ctx, conn, chain, plan)
        earlier = find_tx(conn, self.key, self.body)
        if earlier is not None:
            return Plan(done=earlier)
        if (
            self.need_user is not None
            and conn.execute(select(users.c.id).where(users.c.id == self.need_user)).first() is None
        ):
            raise UnknownAccount(f"no user {self.need_user!r}")
        legs = dict(self.legs)
        if original is not None:
            legs = {e.account: -e.amount for e in original.entries}
        if self.empty_from is not None:
            src, dst = self.empty_from
            account_rows(conn, [src])
            have = balance_of(conn, src)
            legs = {src: -have, dst: have}
        t = _tx(
            key=self.key,
            kind=self.kind,
            body=self.body,
            legs=legs,
            chain=chain,
            memo=self.memo,
            round_id=round_id,
            detail=self.detail,
            allow_empty=self.empty_from is not None,
            reverses=None if original is None else (original.tx_id, original.key),
        )
        plan.fence, plan.fence_table = self.fence, self.fence_table
        plan.extra = self.also
        return _one(t, plan)


class Authorize(Op):
    """Move money from a wallet or stack into its hold account (a hold)."""

    def __init__(
        self,
        *,
        account: str,
        amount: int,
        key: str,
        round_id: str | None,
        seat: str | None,
        purpose: str,
    ) -> None:
        positive(amount)
        self.account, self.amount, self.key = account, amount, key
        self.round_id, self.seat, self.purpose = round_id, seat, purpose
        self.hold_account = acct.hold_account(account)
        self.body = {
            "op": "authorize",
            "account": account,
            "amount": amount,
            "round_id": round_id,
            "seat": seat,
            "purpose": purpose,
        }
        self.chain = chain_mod.LEDGER_CHAIN if round_id is None else None

    def careful(self, ctx: Context, conn: Connection) -> Plan:
        chain = chain_of_round(conn, self.round_id)
        plan = Plan()
        _head(ctx, conn, chain, plan)
        earlier = find_tx(conn, self.key, self.body)
        if earlier is not None:
            from qipai.ledger.holds import by_tx

            return Plan(done=by_tx(conn, earlier.tx_id))
        t = _tx(
            key=self.key,
            kind="hold",
            body=self.body,
            legs={self.account: -self.amount, self.hold_account: self.amount},
            chain=chain,
            memo=f"hold {self.purpose}",
            round_id=self.round_id,
            detail={"seat": self.seat, "purpose": self.purpose},
        )
        t.holds = [
            NewHold(
                self.account,
                self.hold_account,
                self.amount,
                self.round_id,
                self.seat,
                self.purpose,
            )
        ]
        plan.items.append(t)
        plan.result = lambda: hold_of(t)
        round_id = self.round_id

        def after() -> None:
            cached = ctx.cache.tables.get(chain)
            state = None if cached is None or round_id is None else cached.rounds.get(round_id)
            h = t.holds[0]
            if state is not None and h.id is not None:
                state.holds[h.id] = OpenHold(
                    h.id, h.source, h.hold_account, h.amount, t.key, h.seat, h.purpose
                )

        plan.after = after
        return plan


class CloseHold(Op):
    """Capture part of a hold to an account (the rest back to its source), or void it; or
    (`withdraw`) pay a wallet's hold out in full as a withdrawal (a `withdraw` transaction to
    `external`: the money a withdrawal request held since it was made)."""

    def __init__(
        self,
        *,
        hold_id: int,
        key: str,
        amount: int | None,
        to_account: str | None,
        withdraw: bool = False,
    ):
        self.hold_id, self.key = hold_id, key
        self.amount, self.to_account = amount, to_account
        self.withdraw = withdraw
        if withdraw:
            self.body: dict[str, Any] = {"op": "withdraw", "hold": hold_id}
        elif amount is None:
            self.body = {"op": "void", "hold": hold_id}
        else:
            if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
                positive(amount)
            self.body = {"op": "capture", "hold": hold_id, "amount": amount, "to": to_account}

    def careful(self, ctx: Context, conn: Connection) -> Plan:
        from qipai.ledger import holds as holds_mod

        try:
            hold = holds_mod.get(conn, self.hold_id)
        except UnknownHold:
            raise
        chain = chain_of_round(conn, hold.round_id)
        plan = Plan()
        _head(ctx, conn, chain, plan)
        try:
            earlier = find_tx(conn, self.key, self.body)
        except IdempotencyConflict:
            hold = holds_mod.get(conn, self.hold_id)
            if hold.status != "open":
                raise HoldClosed(f"hold {self.hold_id} is already {hold.status}") from None
            raise
        if earlier is not None:
            return Plan(done=earlier)
        hold = holds_mod.get(conn, self.hold_id)
        if hold.status != "open":
            raise HoldClosed(f"hold {self.hold_id} is already {hold.status}")
        authorize = conn.execute(
            select(transactions.c.key, transactions.c.kind).where(
                transactions.c.id == hold.authorize_tx
            )
        ).one()
        authorize_key = chain_mod.hold_ref(str(authorize[0]), str(authorize[1]), hold.seat)
        if self.withdraw:
            if hold.round_id is not None or acct.parse(hold.account).kind != "wallet":
                raise HoldClosed(f"hold {self.hold_id} is not a wallet's hold outside rounds")
            legs = {hold.hold_account: -hold.amount, acct.EXTERNAL: hold.amount}
            status, captured, kind = "captured", hold.amount, "withdraw"
        elif self.amount is None:
            legs = {hold.hold_account: -hold.amount, hold.account: hold.amount}
            status, captured, kind = "voided", 0, "void"
        else:
            if self.amount > hold.amount:
                raise HoldClosed(
                    f"cannot capture {self.amount} from hold {self.hold_id} of {hold.amount}"
                )
            assert self.to_account is not None
            legs = {hold.hold_account: -hold.amount}
            legs[self.to_account] = legs.get(self.to_account, 0) + self.amount
            legs[hold.account] = legs.get(hold.account, 0) + hold.amount - self.amount
            status, captured, kind = "captured", self.amount, "capture"
        t = _tx(
            key=self.key,
            kind=kind,
            body=self.body,
            legs=legs,
            chain=chain,
            memo=f"{kind} hold {self.hold_id}",
            round_id=hold.round_id,
            detail={"hold": self.hold_id},
        )
        t.closes = [NewClose(hold.id, authorize_key, status, captured)]
        round_id, hold_id = hold.round_id, hold.id

        def after() -> None:
            cached = ctx.cache.tables.get(chain)
            state = None if cached is None or round_id is None else cached.rounds.get(round_id)
            if state is not None:
                state.holds.pop(hold_id, None)

        plan.after = after
        return _one(t, plan)


class OpenRound(Op):
    def __init__(
        self,
        *,
        round_id: str,
        table_id: str,
        game: str,
        config: Mapping[str, Any],
        seats: Sequence[Seat],
        players: Mapping[str, str],
        seed: bytes,
        context: Mapping[str, Any] | None,
        meta: Mapping[str, Any] | None,
        stakes: Mapping[str, int],
        fence: Fence | None,
    ) -> None:
        acct.check_id(table_id, "table")
        if not acct.valid_id(round_id):
            raise RoundStateError(
                f"invalid round id {round_id!r}: use 1-64 letters, digits, _ . @ -"
            )
        if not isinstance(game, str) or not 0 < len(game) <= 32:
            raise RoundStateError(f"invalid game name {game!r}")
        seat_ids = [s.id for s in seats]
        unknown = set(players) - set(seat_ids)
        if unknown:
            raise RoundStateError(f"players mapped to seats not in the round: {sorted(unknown)}")
        for seat in stakes:
            if seat not in players:
                raise UnknownAccount(f"hold for seat {seat!r}, which has no player")
        for amount in stakes.values():
            positive(amount)
        if not isinstance(seed, bytes) or len(seed) != 32:
            raise RoundStateError("a round's seed is 32 bytes")
        self.round_id, self.table_id, self.game = round_id, table_id, game
        self.config = chain_mod.jtext(dict(config))
        self.seats = chain_mod.jtext([s.to_json() for s in seats])
        self.context = None if context is None else chain_mod.jtext(dict(context))
        self.meta = None if meta is None else chain_mod.jtext(meta)
        self.players = dict(players)
        self.seed = seed
        self.stakes = dict(stakes)
        self.fence = fence
        self.home = chain_mod.table_chain(table_id)
        self.chain = self.home
        self.stacks = {seat: acct.stack(user, table_id) for seat, user in self.players.items()}
        self.revealed: bool | None = None

    def _build(self, ctx: Context, plan: Plan) -> Plan:
        commitment = commit(self.seed)
        sealed = sealing.seal_seed(ctx.keys.seed_key, self.seed, self.round_id, commitment)
        now = utcnow()
        header = NewRound(
            id=self.round_id,
            table_id=self.table_id,
            game=self.game,
            config=self.config,
            seats=self.seats,
            context=self.context,
            meta=self.meta,
            commitment=commitment,
            seed=sealed,
            opened_at=now,
            players=[
                (seat, user, self.stacks[seat]) for seat, user in sorted(self.players.items())
            ],
            chain=self.home,
        )
        plan.fence, plan.fence_table = self.fence, self.table_id
        stakes = self._stakes_tx(now)
        if stakes is not None:
            plan.items.append(stakes)
        plan.items.append(header)  # last: its players' start balances are read as it is written
        plan.result = lambda: self.round_id

        def after() -> None:
            held: dict[int, OpenHold] = {}
            if stakes is not None:
                held = {
                    h.id: OpenHold(
                        h.id,
                        h.source,
                        h.hold_account,
                        h.amount,
                        chain_mod.hold_ref(stakes.key, stakes.kind, h.seat),
                        h.seat,
                        h.purpose,
                    )
                    for h in stakes.holds
                    if h.id is not None
                }
            state = RoundState(
                id=self.round_id,
                table_id=self.table_id,
                players=dict(self.players),
                holds=held,
                last_seq=0,
                commitment=commitment,
                sealed_seed=sealed,
            )
            ctx.cache.keep(self.home, state)
            table = ctx.cache.tables[self.home]
            table.commitments[commitment] = bool(self.revealed)

        plan.after = after
        return plan

    def _stakes_body(self) -> dict[str, Any]:
        return {
            "op": "stakes",
            "round_id": self.round_id,
            "stakes": {seat: [self.stacks[seat], n] for seat, n in self.stakes.items()},
        }

    def _stakes_tx(self, now: datetime) -> NewTx | None:
        """The round's stakes: ONE transaction moving each staking seat's stake from its stack
        to the stack's hold account and opening a hold per seat (the chain names each hold
        `<key>#<seat>`, `chain.hold_ref`) — one record, MAC and transaction row for the round's
        stakes instead of one per seat."""
        if not self.stakes:
            return None
        legs: dict[str, int] = {}
        holds_: list[NewHold] = []
        for seat, amount in sorted(self.stakes.items()):
            source = self.stacks[seat]
            held = acct.hold_account(source)
            legs[source] = legs.get(source, 0) - amount
            legs[held] = legs.get(held, 0) + amount
            holds_.append(NewHold(source, held, amount, self.round_id, seat, "stake"))
        t = _tx(
            key=stakes_key(self.round_id),
            kind=chain_mod.STAKES,
            body=self._stakes_body(),
            legs=legs,
            chain=self.home,
            memo="hold stakes",
            round_id=self.round_id,
            detail={"purpose": "stake"},
        )
        t.created_at = now
        t.holds = holds_
        return t

    def fast(self, ctx: Context) -> Plan:
        table = ctx.cache.table(self.home)
        names = [*self.stacks.values(), *(acct.hold_account(self.stacks[s]) for s in self.stakes)]
        if ctx.cache.ids.get(names) is None or self.round_id in table.rounds:
            raise CacheMiss("accounts")
        self.revealed = table.revealed(commit(self.seed))
        return self._build(ctx, Plan(heads={self.home: table.head}))

    def careful(self, ctx: Context, conn: Connection) -> Plan:
        plan = Plan()
        _head(ctx, conn, self.home, plan)
        if conn.execute(select(rounds.c.id).where(rounds.c.id == self.round_id)).first():
            raise RoundStateError(f"round {self.round_id!r} already exists")
        account_rows(conn, [*self.stacks.values()])  # refuses a player who is no user
        key = stakes_key(self.round_id)
        # (the key used by another request: IdempotencyConflict; by this very one: refused)
        if self.stakes and any_key_used(conn, [key]) and find_tx(conn, key, self._stakes_body()):
            raise RoundStateError(f"round {self.round_id!r}'s stakes are already held")
        new = bool(plan.new_chains)
        self.revealed = False if new else _revealed(conn, commit(self.seed))
        plan = self._build(ctx, plan)
        built = plan.after

        def ensure_then() -> None:
            ctx.cache.ensure(self.home, complete=new)
            built()

        plan.after = ensure_then
        return plan


def seat_key(round_id: str, seat: str, purpose: str) -> str:
    """The idempotency key of a seat's money movement in a round (a bet hold, a top-up…)."""
    return f"round:{round_id}:seat:{seat}:{purpose}"


def stakes_key(round_id: str) -> str:
    """The idempotency key of a round's stakes (`OpenRound`: one transaction for every seat)."""
    return f"round:{round_id}:stakes"


def settle_key(round_id: str) -> str:
    return f"round:{round_id}:settle"


def void_key(round_id: str) -> str:
    return f"round:{round_id}:void"


_OPEN_HOLDS = (
    select(
        holds.c.id,
        holds.c.amount,
        holds.c.seat,
        holds.c.purpose,
        transactions.c.key,
        holds.c.source_account_id,
        holds.c.hold_account_id,
        transactions.c.kind,
    )
    .join(transactions, transactions.c.id == holds.c.authorize_tx)
    .where(holds.c.round_id == bindparam("r"))
    .where(hold_is_open())
    .order_by(holds.c.id)
)


def load_round(conn: Connection, round_id: str) -> tuple[RoundState, str | None]:
    """A round's state from the database, and how it ended (None while open)."""
    from qipai.ledger.schema import accounts

    row = conn.execute(
        select(rounds.c.table_id, rounds.c.seed_commitment, rounds.c.seed).where(
            rounds.c.id == round_id
        )
    ).first()
    if row is None:
        raise UnknownRound(f"no round {round_id!r}")
    end = conn.execute(
        select(round_ends.c.status).where(round_ends.c.round_id == round_id)
    ).scalar()
    players = {
        str(s): str(u)
        for s, u in conn.execute(
            select(round_players.c.seat, round_players.c.user_id).where(
                round_players.c.round_id == round_id
            )
        )
    }
    names = {
        int(i): str(n)
        for i, n in conn.execute(
            select(accounts.c.id, accounts.c.name).where(
                accounts.c.id.in_(
                    select(holds.c.source_account_id)
                    .where(holds.c.round_id == round_id)
                    .union(select(holds.c.hold_account_id).where(holds.c.round_id == round_id))
                )
            )
        )
    }
    open_holds = {
        int(i): OpenHold(
            int(i),
            names[int(src)],
            names[int(dst)],
            int(a),
            chain_mod.hold_ref(str(k), str(kind), s),
            s,
            str(p),
        )
        for i, a, s, p, k, src, dst, kind in conn.execute(_OPEN_HOLDS, {"r": round_id})
    }
    last = conn.execute(
        select(round_log.c.seq)
        .where(round_log.c.round_id == round_id)
        .order_by(round_log.c.seq.desc())
        .limit(1)
    ).scalar()
    state = RoundState(
        id=round_id,
        table_id=str(row[0]),
        players=players,
        holds=open_holds,
        last_seq=int(last or 0),
        commitment=str(row[1]),
        sealed_seed=str(row[2]),
    )
    return state, None if end is None else str(end)


def _revealed(conn: Connection, commitment: str) -> bool:
    return (
        conn.execute(
            select(seed_reveals.c.seed_commitment).where(
                seed_reveals.c.seed_commitment == commitment
            )
        ).first()
        is not None
    )


def _event_row(item: Event | Mapping[str, Any]) -> tuple[dict[str, Any], list[str] | None]:
    """An event's stored payload and audience. A plain JSON event may carry its audience under
    "to" (a list of seat ids); without it the event is public."""
    if isinstance(item, Event):
        return item.to_json(), None if item.to is None else list(item.to)
    payload = {k: v for k, v in item.items() if k != "to"}
    to = item.get("to")
    return payload, None if to is None else [str(s) for s in to]


Groups = Sequence[tuple[Sequence[RecordedAction | Event | Mapping[str, Any]], str | None]]


class Append(Op):
    def __init__(self, *, round_id: str, groups: Groups, fence: Fence | None) -> None:
        self.round_id, self.fence = round_id, fence
        self.rows: list[tuple[str, str | None, Any, Any, str | None]] = []
        for items, first_client_id in groups:
            client_id = first_client_id
            for item in items:
                if isinstance(item, RecordedAction):
                    self.rows.append(
                        ("action", item.seat, chain_mod.jtext(dict(item.action)), None, client_id)
                    )
                    client_id = None
                else:
                    payload, to = _event_row(item)
                    self.rows.append(
                        (
                            "event",
                            None,
                            chain_mod.jtext(payload),
                            None if to is None else chain_mod.jtext(to),
                            None,
                        )
                    )
        # known from the cache (fast) or the round (careful); before either, from the fence
        self.chain = fenced_chain(fence)

    def route(self, ctx: Context) -> str | None:
        return ctx.cache.round_chain.get(self.round_id) or self.chain

    def _build(self, state: RoundState, plan: Plan) -> Plan:
        chain = chain_mod.table_chain(state.table_id)
        plan.fence, plan.fence_table = self.fence, state.table_id
        now = utcnow()
        seq = state.last_seq
        for kind, seat, payload, to, client_id in self.rows:
            seq += 1
            plan.items.append(
                NewLog(self.round_id, seq, kind, seat, payload, to, client_id, now, chain)
            )
        final = seq
        plan.result = lambda: final

        def after() -> None:
            state.last_seq = final

        plan.after = after
        return plan

    def fast(self, ctx: Context) -> Plan:
        chain, table, state = ctx.cache.table_of_round(self.round_id)
        self.chain = chain
        return self._build(state, Plan(heads={chain: table.head}))

    def careful(self, ctx: Context, conn: Connection) -> Plan:
        table = conn.execute(_ROUND_TABLE, {"r": self.round_id}).scalar()
        if table is None:
            raise UnknownRound(f"no round {self.round_id!r}")
        chain = chain_mod.table_chain(str(table))
        plan = Plan()
        _head(ctx, conn, chain, plan)
        state, end = load_round(conn, self.round_id)
        if self.fence is not None:
            from qipai.ledger.leases import check_fence

            check_fence(conn, self.fence, state.table_id)
        if end is not None:
            raise RoundStateError(f"round {self.round_id!r} is {end}; its log is closed")
        if not self.rows:
            return Plan(done=state.last_seq)
        plan = self._build(state, plan)
        built = plan.after

        def cache_then() -> None:
            ctx.cache.keep(chain, state)
            built()

        plan.after = cache_then
        return plan


class Settle(Op):
    def __init__(
        self,
        *,
        round_id: str,
        result: RoundResult,
        accounts: Mapping[str, str],
        reveal_seed: bool,
        fence: Fence | None,
        also: Callable[[Connection], None] | None,
    ) -> None:
        self.round_id, self.result = round_id, result
        self.overrides = dict(accounts)
        self.reveal_seed, self.fence, self.also = reveal_seed, fence, also
        self.result_json = chain_mod.jtext(result.to_json())
        self.key = settle_key(round_id)
        self.body = {
            "op": "settle",
            "round": round_id,
            "result": result.to_json(),
            "accounts": dict(accounts),
        }
        self.chain = fenced_chain(fence)

    def route(self, ctx: Context) -> str | None:
        return ctx.cache.round_chain.get(self.round_id) or self.chain

    def _build(self, ctx: Context, state: RoundState, revealed: bool, plan: Plan) -> Plan:
        chain = chain_mod.table_chain(state.table_id)
        plan.fence, plan.fence_table = self.fence, state.table_id
        mapping = default_accounts(state.table_id, state.players, self.overrides)
        open_holds = sorted(state.holds.values(), key=lambda h: h.id)
        legs = settlement_legs(self.result, mapping, open_holds)
        used = {p.account: mapping[p.account] for p in self.result.postings}
        t = _tx(
            key=self.key,
            kind="settle",
            body=self.body,
            legs=legs,
            chain=chain,
            memo=f"settle round {self.round_id}",
            round_id=self.round_id,
            detail={
                "postings": [p.to_json() for p in self.result.postings],
                "holds": [h.id for h in open_holds],
            },
            allow_empty=True,
        )
        t.closes = [NewClose(h.id, h.key, "captured", h.amount) for h in open_holds]
        t.end = NewEnd(
            self.round_id, "settled", self.result_json, chain_mod.jtext(used), None, t.created_at
        )
        plan.items.append(t)
        reveal = self.reveal_seed and not revealed
        if reveal:
            seed = sealing.open_seed(
                ctx.keys.seed_key, state.sealed_seed, self.round_id, state.commitment
            )
            plan.items.append(NewReveal(state.commitment, seed.hex(), t.created_at, chain))
        plan.extra = self.also
        plan.result = lambda: tx_result(t)

        def after() -> None:
            ctx.cache.forget(chain, self.round_id)
            table = ctx.cache.tables.get(chain)
            if table is not None:
                table.commitments[state.commitment] = revealed or reveal

        plan.after = after
        return plan

    def fast(self, ctx: Context) -> Plan:
        chain, table, state = ctx.cache.table_of_round(self.round_id)
        self.chain = chain
        revealed = table.revealed(state.commitment)
        return self._build(ctx, state, revealed, Plan(heads={chain: table.head}))

    def careful(self, ctx: Context, conn: Connection) -> Plan:
        table = conn.execute(_ROUND_TABLE, {"r": self.round_id}).scalar()
        if table is None:
            raise UnknownRound(f"no round {self.round_id!r}")
        chain = chain_mod.table_chain(str(table))
        plan = Plan()
        _head(ctx, conn, chain, plan)
        if self.fence is not None:
            from qipai.ledger.leases import check_fence

            check_fence(conn, self.fence, str(table))
        earlier = find_tx(conn, self.key, self.body)
        if earlier is not None:
            return Plan(done=earlier)
        state, end = load_round(conn, self.round_id)
        if end is not None:
            raise RoundStateError(f"round {self.round_id!r} is already {end}")
        return self._build(ctx, state, _revealed(conn, state.commitment), plan)


class VoidRound(Op):
    def __init__(self, *, round_id: str, reason: str, fence: Fence | None) -> None:
        self.round_id, self.reason, self.fence = round_id, reason, fence
        self.chain = fenced_chain(fence)
        self.key = void_key(round_id)
        self.body = {"op": "void_round", "round": round_id}

    def careful(self, ctx: Context, conn: Connection) -> Plan:
        table = conn.execute(_ROUND_TABLE, {"r": self.round_id}).scalar()
        if table is None:
            raise UnknownRound(f"no round {self.round_id!r}")
        chain = chain_mod.table_chain(str(table))
        plan = Plan()
        _head(ctx, conn, chain, plan)
        if self.fence is not None:
            from qipai.ledger.leases import check_fence

            check_fence(conn, self.fence, str(table))
        earlier = find_tx(conn, self.key, self.body)
        if earlier is not None:
            return Plan(done=earlier)
        state, end = load_round(conn, self.round_id)
        if end is not None:
            raise RoundStateError(f"round {self.round_id!r} is already {end}")
        open_holds = sorted(state.holds.values(), key=lambda h: h.id)
        legs: dict[str, int] = {}
        for h in open_holds:
            legs[h.hold_account] = legs.get(h.hold_account, 0) - h.amount
            legs[h.source] = legs.get(h.source, 0) + h.amount
        t = _tx(
            key=self.key,
            kind="void_round",
            body=self.body,
            legs=legs,
            chain=chain,
            memo=self.reason,
            round_id=self.round_id,
            detail={"holds": [h.id for h in open_holds]},
            allow_empty=True,
        )
        t.closes = [NewClose(h.id, h.key, "voided", 0) for h in open_holds]
        t.end = NewEnd(self.round_id, "voided", None, None, self.reason, t.created_at)
        plan.items.append(t)
        plan.fence, plan.fence_table = self.fence, state.table_id
        # a void reveals the round's seed (nothing more will be dealt from this unit)
        if not _revealed(conn, state.commitment):
            seed = sealing.open_seed(
                ctx.keys.seed_key, state.sealed_seed, self.round_id, state.commitment
            )
            plan.items.append(NewReveal(state.commitment, seed.hex(), t.created_at, chain))
        plan.result = lambda: tx_result(t)

        def after() -> None:
            ctx.cache.forget(chain, self.round_id)
            cached = ctx.cache.tables.get(chain)
            if cached is not None:
                cached.commitments[state.commitment] = True

        plan.after = after
        return plan


class Reveal(Op):
    def __init__(
        self, commitment: str, fence_of: Callable[[str], Fence | None] | None = None
    ) -> None:
        self.commitment = commitment.lower()
        self.fence_of = fence_of
        """The fence of the commitment's table (known once its rounds are read): a stale
        table host must not reveal the seed of a deal unit the table's new owner plays on."""

    def careful(self, ctx: Context, conn: Connection) -> Plan:
        found = conn.execute(
            select(rounds.c.id, rounds.c.table_id, rounds.c.seed)
            .where(rounds.c.seed_commitment == self.commitment)
            .order_by(rounds.c.opened_at)
        ).all()
        if not found:
            return Plan(done=0)
        count = len(found)
        if _revealed(conn, self.commitment):
            return Plan(done=count)
        rid, table, sealed = (str(v) for v in found[0])
        chain = chain_mod.table_chain(table)
        plan = Plan()
        _head(ctx, conn, chain, plan)
        if self.fence_of is not None:
            plan.fence, plan.fence_table = self.fence_of(table), table
        seed = sealing.open_seed(ctx.keys.seed_key, sealed, rid, self.commitment)
        plan.items.append(NewReveal(self.commitment, seed.hex(), utcnow(), chain))
        plan.result = lambda: count

        def after() -> None:
            cached = ctx.cache.tables.get(chain)
            if cached is not None:
                cached.commitments[self.commitment] = True

        plan.after = after
        return plan


# ----- the writer: transactions, retries, group commit ---------------------------------------
@dataclass
class _Pending:
    op: Op
    plan: Plan | None = None
    done: bool = False
    value: Any = None
    error: BaseException | None = None
    wake: threading.Condition = field(default_factory=threading.Condition)
    """Its thread waits on this (`Writer.run` makes it on the writer's lock): woken when its
    batch is done, or to lead."""


class Writer:
    """Runs operations: a fast plan when the cache allows, else a careful one; one database
    transaction per batch of operations that arrive together (`grouped`)."""

    def __init__(self, ledger: Any, *, grouped: bool = True) -> None:
        self.ledger = ledger
        self.grouped = grouped
        lock = self._lock = threading.RLock()
        """Guards the queue and the leadership. A follower waits on its own operation's
        condition (`_Pending.wake`, this lock): after a batch the leader wakes the threads of
        that batch and the oldest one still queued (the next leader) — not every waiting table
        thread, whose wake-ups (`notify_all`, each taking the interpreter lock only to wait
        again) were the largest single cost of a round in the profiles (docs/scaling.md, "The
        hot path")."""
        self._cond = threading.Condition(lock)
        self._arrival = threading.Condition(lock)
        """Same lock: a gathering leader waits on it for the tables it expects (`_gather`), so
        that an operation arriving wakes the leader only, not every waiting follower."""
        self._queue: list[_Pending] = []
        self._leading = False
        self._recent: set[str] = set()
        """The chains of the last batch that committed several operations together."""
        self._conn: Connection | None = None
        """The writer's own connection (only the leader uses it): no pool checkout, liveness
        ping or reset per transaction."""
        self.checkpointer: sqlite_wal.Checkpointer | None = None
        """SQLite (a file): copies the WAL into the database off the writer's thread."""

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Connection]:
        conn = self._conn
        if conn is None or conn.closed or conn.invalidated:
            conn = self._conn = self._connect()
        try:
            with conn.begin():
                yield conn
            if self.checkpointer is not None:
                self.checkpointer.committed()
        except DBAPIError as exc:
            if exc.connection_invalidated:
                self.close()
            raise
        except BaseException:
            if conn.invalidated:
                self.close()
            raise

    def _connect(self) -> Connection:
        conn: Connection = self.ledger.engine.connect()
        if conn.dialect.name == "sqlite":
            sqlite_wal.tune_writer(conn.connection.driver_connection)
            path = conn.engine.url.database
            if self.checkpointer is None and path and path != ":memory:":
                self.checkpointer = sqlite_wal.Checkpointer(path)
        return conn

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                if conn.dialect.name == "sqlite" and not conn.invalidated:
                    sqlite_wal.untune_writer(conn.connection.driver_connection)
            with contextlib.suppress(Exception):
                conn.close()
        checkpointer, self.checkpointer = self.checkpointer, None
        if checkpointer is not None:
            checkpointer.close()

    # -- one operation, alone ----------------------------------------------------------------
    def run(self, op: Op) -> Any:
        pending = _Pending(op, wake=threading.Condition(self._lock))
        with self.ledger.cache.lock:
            try:
                pending.plan = op.fast(self.ledger)
            except CacheMiss:
                pending.plan = None
        if not self.grouped:
            return self._solo(op, pending.plan)
        with self._cond:
            self._queue.append(pending)
            if self._leading:
                self._arrival.notify()  # a leader may be gathering (`_gather`)
            while not pending.done:
                if self._leading:
                    pending.wake.wait()
                    continue
                self._leading = True
                self._gather()
                batch = self._take()
                self._cond.release()
                try:
                    self._batch(batch)
                finally:
                    self._cond.acquire()
                    self._leading = False
                    for item in batch:  # done (or, if the batch failed, to try again)
                        if item is not pending:
                            item.wake.notify()
                    if self._queue and self._queue[0] is not pending:
                        self._queue[0].wake.notify()  # the next leader, unless it is this one
            if self._queue and not self._leading:
                self._queue[0].wake.notify()  # this thread led the last batch: hand the leadership on
        if pending.error is not None:
            raise pending.error
        return pending.value

    def _gather(self) -> None:
        """Before taking a batch (lock held): when the last commit was shared by several tables,
        wait a little (at most `GATHER_S`) for those of them not queued yet. Each table's
        operations are sequential — a table whose operation was in the last batch has only just
        been answered and is building its next one — so without this wait the busy tables split
        into two alternating batches, each paying a commit. A writer whose last batch held one
        operation never waits (a quiet room gains no latency)."""
        if not self._recent:
            return
        deadline = time.monotonic() + GATHER_S
        while True:
            queued = {item.op.chain for item in self._queue}
            if self._recent <= queued or len(self._queue) >= MAX_BATCH:
                return
            left = deadline - time.monotonic()
            if left <= 0:
                return
            self._arrival.wait(left)

    def _take(self) -> list[_Pending]:
        """The next batch: the oldest operation, and with it every queued operation on another
        chain, and those on the same chain that stack (`Op.stackable`: the money moves of the
        ledger's chain, which are many while people are seated; one per commit, they were the
        card room's seating queue). An operation whose chain is known only once it
        reads runs alone."""
        if self._queue[0].op.chain is None:
            return [self._queue.pop(0)]
        batch: list[_Pending] = []
        chains: set[str] = set()
        shared: set[str] = set()  # chains whose operations in the batch are all stackable
        rest: list[_Pending] = []
        for item in self._queue:
            op = item.op
            chain = op.chain
            if (
                len(batch) >= MAX_BATCH
                or chain is None
                or (chain in chains and not (op.stackable and chain in shared))
            ):
                rest.append(item)
                continue
            if chain not in chains and op.stackable:
                shared.add(chain)
            chains.add(chain)
            batch.append(item)
        self._queue = rest
        return batch

    def _batch(self, batch: list[_Pending]) -> None:
        self._recent = set()
        if len(batch) == 1:
            item = batch[0]
            try:
                item.value = self._solo(item.op, item.plan)
            except BaseException as exc:
                item.error = exc
            item.done = True
            return
        led = self.ledger
        resolved: dict[str, tuple[int, bool]] = {}
        try:
            with self._transaction() as conn:
                plans = []
                for item in batch:
                    if item.plan is None:
                        item.plan = item.op.careful(led, conn)
                    plans.append(item.plan)
                moved = self._execute(conn, plans, resolved)
            led.counters.commits += 1
            led.counters.batches += 1
            self._recent = {item.op.chain for item in batch if item.op.chain is not None}
        except BaseException:
            led.cache.ids.balances.clear()
            for item in batch:  # one by one: each gets its own answer (or error)
                try:
                    item.value = self._solo(item.op, None)
                except BaseException as exc:
                    item.error = exc
                item.done = True
            return
        self._committed(plans, moved, resolved)
        for item in batch:
            assert item.plan is not None
            item.value = item.plan.done if item.plan.done is not None else item.plan.result()
            item.done = True

    def _execute(
        self,
        conn: Connection,
        plans: list[Plan],
        resolved: dict[str, tuple[int, bool]],
        *,
        one_shot: bool = True,
    ) -> dict[str, tuple[int, str]]:
        led = self.ledger
        led.counters.plans += len(plans)
        heads: dict[str, tuple[int, str]] = {}
        execute(
            conn,
            plans,
            mac_key=led.keys.mac_key,
            ids=led.cache.ids,
            counters=led.counters,
            fault=led.fault,
            resolved=resolved,
            one_shot=one_shot,
        )
        for plan in plans:
            for item in plan.items:
                assert item.seq is not None and item.mac is not None
                heads[item.chain] = (item.seq, item.mac)
        return heads

    def _committed(
        self,
        plans: list[Plan],
        heads: Mapping[str, tuple[int, str]],
        resolved: Mapping[str, tuple[int, bool]],
    ) -> None:
        cache = self.ledger.cache
        with cache.lock:
            cache.ids.commit(resolved)
            cache.ids.moved(plans)
            for chain, head in heads.items():
                table = cache.tables.get(chain)
                if table is not None:
                    table.head = head
            for plan in plans:
                plan.after()
            for chain, head in heads.items():
                table = cache.tables.get(chain)
                if table is not None:
                    table.head = head

    def _solo(self, op: Op, plan: Plan | None) -> Any:
        led = self.ledger
        races = 0
        one_shot = True
        for attempt in range(8):
            resolved: dict[str, tuple[int, bool]] = {}
            fast = plan is not None
            try:
                with self._transaction() as conn:
                    if plan is None:
                        plan = op.careful(led, conn)
                    if plan.done is not None and not plan.writes:
                        return plan.done
                    moved = self._execute(conn, [plan], resolved, one_shot=one_shot)
                led.counters.commits += 1
            except OneShotRefused:
                led.cache.ids.balances.clear()
                # nothing was written; the careful way names the reason (or succeeds, when the
                # refusal was a cache gone stale)
                one_shot = False
                if plan is not None:
                    led.cache.drop(plan.chains())
                plan = None
                continue
            except (StaleHead, IntegrityError) as exc:
                led.cache.ids.balances.clear()
                if plan is not None:
                    led.cache.drop(plan.chains())
                if fast:
                    plan = None
                    continue
                races += 1
                if races > 2:
                    if isinstance(exc, IntegrityError):
                        raise LedgerError(f"database refused the write: {exc.orig}") from exc
                    raise LedgerError(f"the ledger's chain moved under this write: {exc}") from exc
                plan = None
                continue
            except OperationalError as exc:
                code = getattr(exc.orig, "sqlstate", None)
                locked = "database is locked" in str(exc.orig)
                if (code not in _RETRYABLE_SQLSTATES and not locked) or attempt == 7:
                    raise
                if plan is not None:
                    led.cache.drop(plan.chains())
                plan = None
                time.sleep(0.005 * (attempt + 1))
                continue
            self._committed([plan], moved, resolved)
            return plan.done if plan.done is not None else plan.result()
        raise LedgerError("the write kept colliding with others; try again")


class Lanes:
    """PostgreSQL with `QIPAI_PG_WRITERS=n` > 1: n writers, each with its own connection and its
    own group commit, so that one lane's commit (its WAL flush, with `synchronous_commit=on`)
    does not hold up the others' — the server flushes commits that arrive together in one
    fsync. Every operation of a chain goes to the same lane (`lane_of`: the lane with the fewest
    chains when the chain is first seen), so a
    table's writes keep their order and batch as before (a round's append or settlement by its
    round's chain, `Op.route`, from the cache); an operation whose chain is known only once it
    reads goes to lane 0 and, like any writer, meets the others at the chain heads'
    compare-and-set and the balances' row locks (a loser retries from fresh reads).

    The ledger's own chain (every money move outside a round: buy-ins, cash-outs, a new
    table's bots, deposits) has a lane of its own, `money`, that no table's round shares
    (docs/scaling.md). Its operations are one chain, so a batch holds one of them: in a table lane
    each waited for the batches of a quarter of the tables' rounds, one move per batch, and
    seating 1,000 people while their tables played queued there (≈ 0.4 s per buy-in)."""

    MAX_CHAINS = 65_536
    """Chains whose lane is remembered; past it, the idle ones are forgotten (a chain with an
    operation in flight keeps its lane: its writes stay in order)."""

    def __init__(self, ledger: Any, count: int) -> None:
        self.ledger = ledger
        self.lanes = [Writer(ledger, grouped=True) for _ in range(max(1, count))]
        self.money = Writer(ledger, grouped=True)
        self._lock = threading.Lock()
        self._lane_of: dict[str, int] = {}
        self._in_flight: dict[str, int] = {}
        self._chains_on = [0] * len(self.lanes)

    def lane_of(self, chain: str) -> int:
        """A chain's lane: the one it has, else the lane with the fewest chains (so that a
        handful of tables spread over the lanes: hashing their names had put all four of the
        benchmark's tables on one lane of two)."""
        with self._lock:
            lane = self._lane_of.get(chain)
            if lane is None:
                if len(self._lane_of) >= self.MAX_CHAINS:
                    for idle in [c for c in self._lane_of if c not in self._in_flight]:
                        self._chains_on[self._lane_of.pop(idle)] -= 1
                lane = min(range(len(self.lanes)), key=self._chains_on.__getitem__)
                self._lane_of[chain] = lane
                self._chains_on[lane] += 1
            self._in_flight[chain] = self._in_flight.get(chain, 0) + 1
            return lane

    def assigned(self, chain: str) -> int | None:
        """The lane a chain goes to, if it has one yet."""
        with self._lock:
            return self._lane_of.get(chain)

    def _done(self, chain: str) -> None:
        with self._lock:
            left = self._in_flight[chain] - 1
            if left:
                self._in_flight[chain] = left
            else:
                del self._in_flight[chain]

    def run(self, op: Op) -> Any:
        # a journal append's or a settlement's chain is its round's table's, known from the
        # cache before it is planned: without it every one of them went to lane 0 (one lane
        # doing a round's work while the others idled)
        chain = op.route(self.ledger)
        if chain == chain_mod.LEDGER_CHAIN:
            return self.money.run(op)
        if chain is None or len(self.lanes) == 1:
            return self.lanes[0].run(op)
        lane = self.lane_of(chain)
        try:
            return self.lanes[lane].run(op)
        finally:
            self._done(chain)

    def close(self) -> None:
        for lane in [*self.lanes, self.money]:
            lane.close()


def writer_for(ledger: Any) -> Writer | Lanes:
    """One writer (group commit across every table), or on PostgreSQL `QIPAI_PG_WRITERS` lanes
    of writers (`Lanes`)."""
    if ledger.engine.dialect.name == "postgresql":
        raw = os.environ.get("QIPAI_PG_WRITERS", "1").strip() or "1"
        try:
            count = int(raw)
        except ValueError:
            raise LedgerError(f"QIPAI_PG_WRITERS={raw!r}: a whole number of writers") from None
        if not 1 <= count <= 8:
            raise LedgerError(f"QIPAI_PG_WRITERS={count}: between 1 and 8")
        if count > 1:
            return Lanes(ledger, count)
    return Writer(ledger, grouped=True)


__all__ = [
    "Append",
    "Authorize",
    "Cache",
    "CloseHold",
    "Lanes",
    "Move",
    "Op",
    "OpenRound",
    "Reveal",
    "Settle",
    "VoidRound",
    "Writer",
    "default_accounts",
    "seat_key",
    "settle_key",
    "settlement_legs",
    "stakes_key",
]
