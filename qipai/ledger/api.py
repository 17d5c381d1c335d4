"""The ledger's public API: one `Ledger` object over SQLite or PostgreSQL.

Money flow (ARCHITECTURE.md): wallet → table stack (`buy_in`) → bet holds (`authorize`) →
settlement postings (`settle_round`: player stacks, house, commission, rounding, jackpot pool) →
table stack → wallet (`cash_out`). Every movement is one balanced double-entry transaction with an
idempotency key; the database keeps player accounts non-negative; settlement of a round is one
database transaction. The round journal keeps what `qipai verify` needs to replay any round.

Every method either commits completely or raises a `LedgerError` and changes nothing. Methods are
safe to call from many threads (and many processes on PostgreSQL) at once; writes that arrive
together commit together (group commit, `book.Writer`).

Tamper evidence (`docs/ledger.md`): nothing that carries meaning is ever updated, and every record
— transaction, round header, journal record, seed reveal — carries a chained HMAC-SHA256 under the
ledger's key, kept outside the database (`keys.py`); one chain per table plus the ledger's
(`chain.py`); `qipai audit` recomputes them. Seeds of deal units in play are stored AES-GCM-sealed
(`sealing.py`). Table leases with epochs fence stale owners (`leases.py`).

Example::

    ledger = Ledger.open()                                  # default SQLite file, or a URL
    ledger.create_user("alice")
    ledger.deposit("alice", 10_000, key="bank-ref-1")
    ledger.buy_in("alice", "t1", 5_000, key="buyin-1")
    rid = ledger.open_round(table_id="t1", game="pokdeng", config=cfg.to_json(),
                            seats=[Seat("P1", 5_000)], players={"P1": "alice"}, seed=seed,
                            holds={"P1": 200})
    ledger.append(rid, RecordedAction("P1", {"type": "bet", ...}))
    ledger.settle_round(rid, round_.result())
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import Connection, Engine, func, or_, select
from sqlalchemy.exc import IntegrityError, OperationalError

from qipai.core.ids import new_round_id
from qipai.core.protocol import JACKPOT, Event, Posting, RecordedAction, RoundResult, Seat
from qipai.ledger import accounts as acct
from qipai.ledger import book, journal, sealing
from qipai.ledger import db as dbm
from qipai.ledger import holds as holds_mod
from qipai.ledger import keys as keys_mod
from qipai.ledger import leases as leases_mod
from qipai.ledger import terms as terms_mod
from qipai.ledger.errors import LedgerError, MissingReason, UnknownAccount
from qipai.ledger.execute import Counters
from qipai.ledger.holds import Hold
from qipai.ledger.keys import Keys
from qipai.ledger.leases import Fence, Lease
from qipai.ledger.posting import (
    Entry,
    FaultHook,
    TxResult,
    balance_of,
    ensure_account,
    ensure_user,
    load_tx,
    no_fault,
    positive,
)
from qipai.ledger.schema import (
    accounts,
    entries,
    round_is_open,
    rounds,
    transactions,
)

if TYPE_CHECKING:
    from qipai.ledger.audit import AuditReport
    from qipai.ledger.verify import TermsCheck, VerifyReport

T = TypeVar("T")


def _new_user(conn: Connection, user_id: str, name: str | None) -> str:
    """A user and their wallet (idempotent), in `conn`'s transaction; the wallet's name."""
    ensure_user(conn, user_id, name)
    ensure_account(conn, acct.wallet(user_id))
    return acct.wallet(user_id)


__all__ = ["Entry", "Fence", "Hold", "Keys", "Lease", "Ledger", "TxResult", "write_retrying"]


def write_retrying(engine: Engine, work: Callable[[Connection], T]) -> T:
    """Run `work` in one write transaction on `engine` that writes no chained record (users,
    leases), retrying only races the database reports (serialization failure, deadlock, SQLite
    busy); a key refused three times is a `LedgerError`."""
    for attempt in range(6):
        try:
            with engine.begin() as conn:
                return work(conn)
        except IntegrityError as exc:
            if attempt >= 2:
                raise LedgerError(f"database refused the write: {exc.orig}") from exc
        except OperationalError as exc:
            code = getattr(exc.orig, "sqlstate", None)
            locked = "database is locked" in str(exc.orig)
            if (code not in book._RETRYABLE_SQLSTATES and not locked) or attempt == 5:
                raise
            threading.Event().wait(0.005 * (attempt + 1))
    raise AssertionError("unreachable")  # pragma: no cover


class Ledger:
    """Wallets, table stacks, holds, the double-entry journal and the round journal."""

    def __init__(
        self, engine: Engine, *, url: str, schema: str | None = None, keys: Keys | None = None
    ) -> None:
        self.engine = engine
        self.url = url
        self.schema = schema
        self.keys = keys or Keys.generate()
        """The MAC and seed key (kept outside the database; `qipai.ledger.keys`)."""
        self.fault: FaultHook = no_fault
        """Test seam: called at named points inside write transactions; raising aborts them."""
        self.cache = book.Cache()
        """What this process knows of each table's chain (the fast path of `book`)."""
        self.counters = Counters()
        """Statements and commits sent (the benchmark's per-round figures)."""
        self.writer = book.writer_for(self)
        """Commits operations, together when several threads write at once (group commit; on
        PostgreSQL optionally in `QIPAI_PG_WRITERS` lanes, `book.Lanes`)."""

    # ----- lifecycle ------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        db: str | None = None,
        *,
        schema: str | None = None,
        migrate: bool = True,
        pool_size: int = 10,
        keys: Keys | None = None,
        app_role: str | None = None,
    ) -> Ledger:
        """Open (and by default migrate to the latest schema) the ledger at `db`.

        `db` is a SQLAlchemy URL (`postgresql+psycopg://…`, `sqlite:///…`), a path to a SQLite
        file, or None for `QIPAI_DATABASE_URL` or else the embedded SQLite file in the user's data
        directory. `schema` (PostgreSQL only) keeps the ledger in its own schema, created if needed.
        `keys`: the MAC and seed key (default: `QIPAI_KEY`, `QIPAI_KEY_FILE`, else the database's
        default key file, see `qipai.ledger.keys`); a key that does not match the one the database
        was written with, or a missing key file for a database that has one, raises
        `KeyMismatch` / `KeyMissing` before anything is written. PostgreSQL with separate roles:
        migrate as the schema's owner with `app_role` (or `QIPAI_APP_ROLE`) to grant the card
        room's role its privileges (`db.grant_app`), and open as that role.
        """
        url = dbm.resolve_url(db)
        engine = dbm.create(url, schema=schema, pool_size=pool_size)
        try:
            if schema is not None and migrate:
                dbm.create_schema(engine, schema)
            if migrate:
                dbm.migrate(engine, app_role=app_role)
            loaded = keys_mod.load(
                url, schema, given=keys, recorded_id=lambda: dbm.recorded_key_id(engine)
            )
            dbm.record_key_id(engine, loaded.key_id)
            from qipai.ledger.legacy import seal_legacy

            seal_legacy(engine, loaded)
        except BaseException:
            engine.dispose()
            raise
        return cls(engine, url=url, schema=schema, keys=loaded)

    def close(self) -> None:
        self.writer.close()
        self.engine.dispose()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @property
    def dialect(self) -> str:
        """`sqlite` or `postgresql`."""
        return self.engine.dialect.name

    def _write(self, work: Callable[[Connection], T]) -> T:
        """Run `work` in one write transaction that writes no chained record (users, leases),
        retrying only races the database reports (`write_retrying`)."""
        return write_retrying(self.engine, work)

    def _read(self, work: Callable[[Connection], T]) -> T:
        with self.engine.connect() as conn:
            conn.execution_options(qipai_read=True)
            with conn.begin():
                return work(conn)

    def _snapshot(self, work: Callable[[Connection], T]) -> T:
        """Run `work` over one consistent snapshot of the whole database: on PostgreSQL one
        REPEATABLE READ READ ONLY transaction (every statement sees the same committed state;
        under READ COMMITTED, heads read after records could run ahead of them while tables
        play), on SQLite one read transaction (`BEGIN DEFERRED`: WAL keeps its snapshot from
        the first read to the end). What `audit` reads."""
        with self.engine.connect() as conn:
            conn.execution_options(qipai_read=True)
            with conn.begin():
                if conn.dialect.name == "postgresql":
                    conn.exec_driver_sql(
                        "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY"
                    )
                return work(conn)

    # ----- users and balances ---------------------------------------------------------------
    def create_user(self, user_id: str, name: str | None = None) -> str:
        """Create a user and their wallet (idempotent); returns the wallet account name."""

        return self._write(lambda conn: _new_user(conn, user_id, name))

    def balance(self, account: str) -> int:
        """The balance of any account by name (0 for a well-formed account never used).
        `house`, `commission` and `rounding` are the sums over every table's own account
        (`house:<table>` …) and the plain one; ask for `house:<table>` for one table."""
        if account in acct.SPLIT:

            def total(conn: Connection) -> int:
                query = select(func.coalesce(func.sum(accounts.c.balance), 0)).where(
                    or_(accounts.c.name == account, accounts.c.name.like(f"{account}:%"))
                )
                return int(conn.execute(query).scalar_one())

            return self._read(total)
        return self._read(lambda c: balance_of(c, account))

    def wallet(self, user_id: str) -> int:
        return self.balance(acct.wallet(user_id))

    def stack(self, user_id: str, table_id: str) -> int:
        return self.balance(acct.stack(user_id, table_id))

    def pool(self, pool_id: str) -> int:
        """A jackpot pool's balance."""
        return self.balance(acct.jackpot(pool_id))

    def balances(self, owner: str | None = None) -> dict[str, int]:
        """Every account's balance (or only one user's accounts), by name."""

        def work(conn: Connection) -> dict[str, int]:
            query = select(accounts.c.name, accounts.c.balance).order_by(accounts.c.name)
            if owner is not None:
                query = query.where(accounts.c.owner == owner)
            return {str(n): int(b) for n, b in conn.execute(query)}

        return self._read(work)

    def statement(
        self, account: str, limit: int = 50, before: int | None = None
    ) -> list[dict[str, Any]]:
        """The account's latest entries, newest first: entry id, tx id, UTC time, amount,
        balance after; `before` (an entry id) starts further back (a keyset: a page costs the
        same however deep it is, and entries posted meanwhile never shift it)."""

        def work(conn: Connection) -> list[dict[str, Any]]:
            query = (
                select(
                    entries.c.id,
                    entries.c.tx_id,
                    entries.c.created_at,
                    entries.c.amount,
                    entries.c.balance_after,
                    transactions.c.kind,
                    transactions.c.memo,
                    transactions.c.round_id,
                )
                .join(accounts, accounts.c.id == entries.c.account_id)
                .join(transactions, transactions.c.id == entries.c.tx_id)
                .where(accounts.c.name == account)
                .order_by(entries.c.id.desc())
                .limit(limit)
            )
            if before is not None:
                query = query.where(entries.c.id < before)
            return [
                {
                    "entry_id": int(r[0]),
                    "tx_id": int(r[1]),
                    "at": r[2].isoformat(),
                    "amount": int(r[3]),
                    "balance_after": int(r[4]),
                    "kind": r[5],
                    "memo": r[6],
                    "round_id": r[7],
                }
                for r in conn.execute(query).all()
            ]

        return self._read(work)

    def transaction(self, tx_id: int) -> TxResult:
        def work(conn: Connection) -> TxResult:
            try:
                return load_tx(conn, tx_id)
            except LookupError:
                raise LedgerError(f"no transaction {tx_id}") from None

        return self._read(work)

    # ----- money movements ------------------------------------------------------------------
    def _move(
        self,
        *,
        key: str,
        kind: str,
        src: str,
        dst: str,
        amount: int,
        memo: str = "",
        need_user: str | None = None,
        fence: Fence | None = None,
        fence_table: str | None = None,
        also: Callable[[Connection], None] | None = None,
    ) -> TxResult:
        positive(amount)
        acct.parse(src), acct.parse(dst)
        body = {"kind": kind, "from": src, "to": dst, "amount": amount}
        op = book.Move(
            key=key,
            kind=kind,
            body=body,
            legs={src: -amount, dst: amount},
            memo=memo,
            need_user=need_user,
            fence=fence,
            fence_table=fence_table,
            also=also,
        )
        result: TxResult = self.writer.run(op)
        return result

    @staticmethod
    def deposit_key(user_id: str, key: str) -> str:
        """The transaction key `deposit(user_id, …, key)` writes under (to look it up)."""
        return f"deposit:{user_id}:{key}"

    def deposit(self, user_id: str, amount: int, key: str) -> TxResult:
        """Money in from outside to the user's wallet; `key` is the client's (e.g. a bank ref)."""
        return self._move(
            key=self.deposit_key(user_id, key),
            kind="deposit",
            src=acct.EXTERNAL,
            dst=acct.wallet(user_id),
            amount=amount,
            need_user=user_id,
        )

    def withdraw(self, user_id: str, amount: int, key: str) -> TxResult:
        """Money out of the user's wallet; InsufficientFunds if the wallet holds less."""
        return self._move(
            key=f"withdraw:{user_id}:{key}",
            kind="withdraw",
            src=acct.wallet(user_id),
            dst=acct.EXTERNAL,
            amount=amount,
            need_user=user_id,
        )

    def buy_in(
        self,
        user_id: str,
        table_id: str,
        amount: int,
        key: str,
        *,
        fence: Fence | None = None,
        also: Callable[[Connection], None] | None = None,
    ) -> TxResult:
        """Wallet → table stack. `fence=(table_id, epoch)`: refused with `Fenced` (nothing
        moved) unless that is the table's lease epoch, checked inside the transfer's own
        transaction (the lease row held `FOR KEY SHARE` until it commits, as for `open_round`).
        `also(conn)` runs in the same transaction (the card room saves the table's layout with
        the seat the buy-in pays for)."""
        return self._move(
            key=f"buyin:{user_id}:{key}",
            kind="buy_in",
            src=acct.wallet(user_id),
            dst=acct.stack(user_id, table_id),
            amount=amount,
            need_user=user_id,
            fence=fence,
            fence_table=table_id,
            also=also,
        )

    def cash_out(
        self,
        user_id: str,
        table_id: str,
        key: str,
        amount: int | None = None,
        *,
        fence: Fence | None = None,
    ) -> TxResult:
        """Table stack → wallet: `amount`, or the whole stack when None (a no-op when empty).
        `fence` as for `buy_in`."""
        return self._stack_out(
            key=f"cashout:{user_id}:{key}",
            kind="cash_out",
            stack=acct.stack(user_id, table_id),
            dst=acct.wallet(user_id),
            amount=amount,
            user=user_id,
            fence=fence,
            table_id=table_id,
        )

    def _stack_out(
        self,
        *,
        key: str,
        kind: str,
        stack: str,
        dst: str,
        amount: int | None,
        user: str,
        fence: Fence | None = None,
        table_id: str | None = None,
    ) -> TxResult:
        if amount is not None:
            return self._move(
                key=key,
                kind=kind,
                src=stack,
                dst=dst,
                amount=amount,
                need_user=user,
                fence=fence,
                fence_table=table_id,
            )
        body = {"kind": kind, "from": stack, "to": dst, "amount": "all"}
        op = book.Move(
            key=key,
            kind=kind,
            body=body,
            need_user=user,
            empty_from=(stack, dst),
            fence=fence,
            fence_table=table_id,
        )
        result: TxResult = self.writer.run(op)
        return result

    def fund_pool(self, pool_id: str, amount: int, key: str) -> TxResult:
        """The house jackpot account (`house-jackpot`) → jackpot pool `jackpot:<pool_id>`:
        seeding or topping up a pool (the pool id is the template's choice)."""
        return self._move(
            key=f"pool:{pool_id}:{key}",
            kind="fund_pool",
            src=acct.JACKPOT_FUND,
            dst=acct.jackpot(pool_id),
            amount=amount,
        )

    def bot_buy_in(
        self, bot_id: str, table_id: str, amount: int, key: str, *, fence: Fence | None = None
    ) -> TxResult:
        """The house bot bankroll (`house-bots`) → a bot's table stack (no minted deposit: the
        house's result from bot play stays in the books). `bot_id` is a user (`create_user`).
        `fence` as for `buy_in`."""
        return self._move(
            key=f"botbuyin:{bot_id}:{key}",
            kind="bot_buy_in",
            src=acct.BOTS,
            dst=acct.stack(bot_id, table_id),
            amount=amount,
            need_user=bot_id,
            fence=fence,
            fence_table=table_id,
        )

    def bot_buy_ins(
        self,
        table_id: str,
        amounts: Mapping[str, int],
        key: str,
        *,
        fence: Fence | None = None,
        also: Callable[[Connection], None] | None = None,
    ) -> TxResult:
        """`bot_buy_in` for several bots of one table in ONE transaction (a new table's bots,
        docs/scaling.md): the house bot bankroll → each bot's table stack. The bots are users already
        (`claim_table(users=…)` or `create_user`). `also(conn)` runs in the same transaction
        (the table's layout, so a table is never saved without its bots' money or the money
        moved without the table). `fence` as for `buy_in`."""
        legs: dict[str, int] = {acct.BOTS: 0}
        for bot_id, amount in amounts.items():
            positive(amount)
            legs[acct.stack(bot_id, table_id)] = amount
            legs[acct.BOTS] -= amount
        body = {"kind": "bot_buy_in", "table": table_id, "stacks": sorted(amounts.items())}
        op = book.Move(
            key=f"botbuyins:{table_id}:{key}",
            kind="bot_buy_in",
            body=body,
            legs=legs,
            fence=fence,
            fence_table=table_id,
            also=also,
        )
        result: TxResult = self.writer.run(op)
        return result

    def bot_cash_out(
        self,
        bot_id: str,
        table_id: str,
        key: str,
        amount: int | None = None,
        *,
        fence: Fence | None = None,
    ) -> TxResult:
        """A bot's table stack → the house bot bankroll: `amount`, or all of it when None.
        `fence` as for `buy_in`."""
        return self._stack_out(
            key=f"botcashout:{bot_id}:{key}",
            kind="bot_cash_out",
            stack=acct.stack(bot_id, table_id),
            dst=acct.BOTS,
            amount=amount,
            user=bot_id,
            fence=fence,
            table_id=table_id,
        )

    def adjust(
        self,
        postings: Sequence[Posting] | Mapping[str, int],
        *,
        reason: str,
        operator: str,
        key: str,
    ) -> TxResult:
        """An operator's correction: a new balanced `adjustment` transaction between ledger
        accounts, carrying who and why (entries are never edited). Holds and the outside world
        are not adjustable (holds close by capture/void; money enters and leaves by deposit and
        withdrawal). MissingReason without a reason or operator; InsufficientFunds as usual."""
        reason, operator = _why(reason, operator)
        if isinstance(postings, Mapping):
            legs = [(str(k), v) for k, v in postings.items()]
        else:
            legs = [(p.account, p.amount) for p in postings]
        for name, _ in legs:
            kind = acct.parse(name).kind
            if kind in {"hold", "external"}:
                raise UnknownAccount(f"{name!r} cannot be adjusted (a {kind} account)")
        body = {"kind": "adjustment", "legs": sorted(legs), "reason": reason, "by": operator}
        net: dict[str, int] = {}
        for name, amount in legs:
            net[name] = net.get(name, 0) + amount
        op = book.Move(
            key=f"adjust:{key}",
            kind="adjustment",
            body=body,
            legs=net,
            memo=reason,
            detail={"operator": operator, "reason": reason},
        )
        result: TxResult = self.writer.run(op)
        return result

    def transfer(
        self,
        postings: Sequence[Posting] | Mapping[str, int],
        *,
        key: str,
        kind: str = "transfer",
        memo: str = "",
        round_id: str | None = None,
    ) -> TxResult:
        """Post any balanced transaction between ledger accounts (names, see `accounts.py`)."""
        if isinstance(postings, Mapping):
            legs = [(str(k), v) for k, v in postings.items()]
        else:
            legs = [(p.account, p.amount) for p in postings]
        body = {"kind": kind, "legs": sorted(legs), "memo": memo, "round_id": round_id}
        net: dict[str, int] = {}
        for name, amount in legs:
            if isinstance(amount, bool) or not isinstance(amount, int):
                from qipai.ledger.errors import InvalidAmount

                raise InvalidAmount(f"amount for {name!r} must be an integer, got {amount!r}")
            net[name] = net.get(name, 0) + amount
        op = book.Move(key=key, kind=kind, body=body, legs=net, memo=memo, round_id=round_id)
        result: TxResult = self.writer.run(op)
        return result

    def reverse(
        self,
        tx_id: int,
        *,
        key: str | None = None,
        memo: str = "",
        reason: str | None = None,
        operator: str | None = None,
    ) -> TxResult:
        """Post the exact opposite of an earlier transaction (corrections never edit entries).

        The default key allows one reversal per transaction. It can fail with InsufficientFunds
        when the money has since moved on. An operator's reversal passes `reason` and
        `operator` (both required together; kept in the transaction's detail, the reason as
        its memo)."""
        key = key or f"reverse:{tx_id}"
        body: dict[str, Any] = {"kind": "reversal", "reverses": tx_id}
        detail: dict[str, Any] = {}
        if reason is not None or operator is not None:
            reason, operator = _why(reason, operator)
            body.update(reason=reason, by=operator)
            detail = {"operator": operator, "reason": reason}
            memo = reason

        op = book.Move(
            key=key,
            kind="reversal",
            body=body,
            memo=memo or f"reverses {tx_id}",
            detail=detail,
            reverses=tx_id,
        )
        result: TxResult = self.writer.run(op)
        return result

    # ----- holds ----------------------------------------------------------------------------
    def authorize(
        self,
        account: str,
        amount: int,
        *,
        key: str,
        round_id: str | None = None,
        seat: str | None = None,
        purpose: str = "bet",
    ) -> Hold:
        """Reserve `amount` of a wallet or table stack in its hold account (InsufficientFunds if
        short). Use `journal.seat_key(round_id, seat, purpose)` as the key for a round's bets."""
        op = book.Authorize(
            account=account,
            amount=amount,
            key=key,
            round_id=round_id,
            seat=seat,
            purpose=purpose,
        )
        hold: Hold = self.writer.run(op)
        return hold

    def capture(
        self, hold_id: int, amount: int, to_account: str, *, key: str | None = None
    ) -> TxResult:
        """Close a hold: `amount` of it goes to `to_account`, the rest back to its source.
        A hold closes exactly once: HoldClosed after a capture or void."""
        acct.parse(to_account)
        op = book.CloseHold(
            hold_id=hold_id,
            key=key or f"hold:{hold_id}:capture",
            amount=amount,
            to_account=to_account,
        )
        result: TxResult = self.writer.run(op)
        return result

    def void(self, hold_id: int, *, key: str | None = None) -> TxResult:
        """Close a hold by returning all of it to its source (exactly once, like `capture`)."""
        op = book.CloseHold(
            hold_id=hold_id, key=key or f"hold:{hold_id}:void", amount=None, to_account=None
        )
        result: TxResult = self.writer.run(op)
        return result

    def withdraw_hold(self, hold_id: int, *, key: str) -> TxResult:
        """Close a wallet's hold (made outside rounds, e.g. by a withdrawal request) by paying
        all of it out: a `withdraw` transaction from the hold account to `external`."""
        op = book.CloseHold(hold_id=hold_id, key=key, amount=None, to_account=None, withdraw=True)
        result: TxResult = self.writer.run(op)
        return result

    def hold(self, hold_id: int) -> Hold:
        return self._read(lambda c: holds_mod.get(c, hold_id))

    def holds_of_round(self, round_id: str) -> list[Hold]:
        return self._read(lambda c: holds_mod.of_round(c, round_id))

    # ----- round journal --------------------------------------------------------------------
    def open_round(
        self,
        *,
        table_id: str,
        game: str,
        config: Mapping[str, Any],
        seats: Sequence[Seat],
        players: Mapping[str, str],
        seed: bytes,
        context: Mapping[str, Any] | None = None,
        round_id: str | None = None,
        holds: Mapping[str, int] | None = None,
        meta: Mapping[str, Any] | None = None,
        fence: Fence | None = None,
    ) -> str:
        """Journal a new round before any bet and return its id.

        `config` is the game config's `to_json()`, `seats` the `Seat`s given to `Round.start`,
        `players` maps seat ids to user ids (a house-banked seat has no player), `seed` the deal
        seed (its SHA-256 commitment is stored alongside; the seed is shown only once revealed),
        `context` what `Round.start` got from the previous round. `holds` (seat → amount)
        authorizes each seat's stake from its player's table stack in the same transaction.
        `meta` (JSON) is the round's identification as the caller records it (template id and
        version, config hash, engine version, deal-spec version, client seeds…); the ledger adds
        `terms_hash`, the hash of `config` (`qipai.ledger.terms`), and `round()` returns it so. `fence=(table_id, epoch)`: refused with `Fenced` unless that is the table's
        current lease epoch (`claim_table`), checked in the same database transaction.
        """
        rid = round_id or new_round_id()
        op = book.OpenRound(
            round_id=rid,
            table_id=table_id,
            game=game,
            config=config,
            seats=seats,
            players=players,
            seed=seed,
            context=context,
            # the hash of the settings it is dealt under, taken now from those settings (never a
            # stored hash), under the header's MAC (`qipai.ledger.terms`)
            meta=terms_mod.with_terms(config, journal.check_meta(meta)),
            stakes=dict(holds or {}),
            fence=fence,
        )
        result: str = self.writer.run(op)
        return result

    def append(
        self,
        round_id: str,
        *items: RecordedAction | Event | Mapping[str, Any],
        client_id: str | None = None,
        fence: Fence | None = None,
    ) -> int:
        """Journal actions (`RecordedAction`, seat None = countdown expired) and the events they
        produced, in order, durably; returns the last sequence number. Events are `Event`s or
        their JSON (`{"type": …, …, "to": [seat ids]}`; without "to" an event is public — recall
        shows a player only the events addressed to them or to everyone). `fence`: as for
        `open_round` (the round's table)."""
        return self.append_groups(round_id, [(items, client_id)], fence=fence)

    def append_groups(
        self,
        round_id: str,
        groups: Sequence[tuple[Sequence[RecordedAction | Event | Mapping[str, Any]], str | None]],
        *,
        fence: Fence | None = None,
    ) -> int:
        """Several `append`s — each (items, client_id) — in one transaction, in order (the
        simultaneous moves of a table's bots: all journaled, or none). `fence` as for `append`."""

        seq: int = self.writer.run(book.Append(round_id=round_id, groups=groups, fence=fence))
        return seq

    def settle_round(
        self,
        round_id: str,
        result: RoundResult,
        *,
        accounts: Mapping[str, str] | None = None,
        jackpot_pool: str | None = None,
        reveal_seed: bool = True,
        also: Callable[[Connection], None] | None = None,
        fence: Fence | None = None,
    ) -> TxResult:
        """Settle a round in ONE database transaction: capture its open holds back to their
        stacks, post `result.postings`, store the result, the players' ending balances and the
        status `settled`. Idempotent: settling again with the same result returns the first
        transaction; a different result is an IdempotencyConflict.

        Posting accounts are seat ids, player ids of the round, or the reserved names of
        `HOUSE_ACCOUNTS`; `accounts` overrides the mapping to ledger account names (e.g. a vacant
        seat played by another player); `jackpot` goes to `jackpot:<jackpot_pool>` (default: the
        table id). Pass `round_.result()` itself so that `qipai verify` can compare it with a
        replay. `reveal_seed=False` keeps the seed hidden while its shoe goes on (`reveal_seed`).
        `also(conn)` runs in the same database transaction (the card room saves the table's
        layout with its settlement). `fence` as for `open_round` (the round's table).
        """
        mapping = dict(accounts or {})
        if jackpot_pool is not None:
            mapping.setdefault(JACKPOT, acct.jackpot(jackpot_pool))
        op = book.Settle(
            round_id=round_id,
            result=result,
            accounts=mapping,
            reveal_seed=reveal_seed,
            fence=fence,
            also=also,
        )
        tx: TxResult = self.writer.run(op)
        return tx

    def void_round(self, round_id: str, reason: str, *, fence: Fence | None = None) -> TxResult:
        """Cancel an unfinished round: release every open hold, status `voided` (idempotent).
        `reason` is required (MissingReason); `fence` as for `open_round`."""
        if not isinstance(reason, str) or not reason.strip():
            raise MissingReason("voiding a round needs its reason")
        tx: TxResult = self.writer.run(
            book.VoidRound(round_id=round_id, reason=reason.strip(), fence=fence)
        )
        return tx

    # ----- table leases (one owner per table; fencing) ---------------------------------------
    def claim_table(
        self, table_id: str, host: str, ttl_s: float, *, users: Sequence[str] = ()
    ) -> int | None:
        """Take table `table_id` for `host` for `ttl_s` seconds if it is free, released, lapsed
        or already this host's: returns the new, higher epoch to pass as `fence=(table_id,
        epoch)`; None while another host holds a live lease. A host that claims a table it
        holds gets a new epoch too (a restarted host fences its earlier self). `users` are
        created (as `create_user`) in the same transaction: a new table's bots."""

        def work(conn: Connection) -> int | None:
            for user_id in users:
                _new_user(conn, user_id, user_id)
            return leases_mod.claim(conn, table_id, host, ttl_s)

        return self._write(work)

    def claim_tables(self, table_ids: Sequence[str], host: str, ttl_s: float) -> dict[str, int]:
        """`claim_table` for many lapsed tables in one transaction (one statement on
        PostgreSQL: a takeover of hundreds of tables): table id -> new epoch for
        each table won; the others (held by another host, claimed first) are left out."""
        return self._write(lambda c: leases_mod.claim_many(c, table_ids, host, ttl_s))

    def renew(self, table_id: str, host: str, epoch: int, ttl_s: float) -> bool:
        """Extend `host`'s lease of the table for `ttl_s` seconds from now, same epoch;
        False if that epoch is no longer the table's (stop writing: another host took it)."""
        return self._write(lambda c: leases_mod.renew(c, table_id, host, epoch, ttl_s))

    def renew_many(self, host: str, epochs: Mapping[str, int], ttl_s: float) -> set[str]:
        """Renew many of `host`'s leases in one statement: the table ids whose lease (same
        epoch, same owner) was extended; a table missing from the answer is no longer this
        host's."""
        return self._write(lambda c: leases_mod.renew_many(c, host, epochs, ttl_s))

    def release(self, table_id: str, host: str, epoch: int) -> bool:
        """Give a table up (drain, shutdown); False if the lease was not this one."""
        return self._write(lambda c: leases_mod.release(c, table_id, host, epoch))

    def lease(self, table_id: str) -> Lease | None:
        """The table's lease (owner, epoch, expiry), or None if never claimed."""
        found = self._read(lambda c: leases_mod.get(c, table_id))
        return found[0] if found else None

    def leases(self) -> list[Lease]:
        """Every table's lease: the table directory."""
        return self._read(lambda c: leases_mod.get(c))

    def reveal_seed(
        self,
        seed_commitment: str,
        *,
        fence_of: Callable[[str], Fence | None] | None = None,
    ) -> int:
        """Reveal the seed of every round dealt from this commitment (its shoe has ended).
        `fence_of(table_id)`: the fence of the commitment's table, checked in the reveal's own
        transaction (`Fenced`, nothing revealed, when that epoch is no longer the lease's)."""
        count: int = self.writer.run(book.Reveal(seed_commitment, fence_of))
        return count

    def seal(self, data: bytes, context: str) -> str:
        """Seal a small secret the card room keeps beside the ledger (e.g. a table layout's seed
        of the deal unit in play) with the ledger's seed key; `context` names it and must be
        given again to `unseal` (AES-256-GCM, `qipai.ledger.sealing`)."""
        return sealing.seal_bytes(self.keys.seed_key, data, context)

    def seal_stable(self, data: bytes, context: str) -> str:
        """`seal` with the same text for the same secret and context (`sealing.seal_stable`):
        what a table layout saved on every change uses, so an unchanged layout is not rewritten."""
        return sealing.seal_stable(self.keys.seed_key, data, context)

    def unseal(self, sealed: str, context: str) -> bytes:
        """The secret `seal` sealed (KeyMismatch if the key or context differ)."""
        return sealing.open_bytes(self.keys.seed_key, sealed, context)

    def round(self, round_id: str, *, include_seed: bool = False) -> dict[str, Any]:
        """The full journal of a round (header, players, log, holds, result, status) as JSON.
        The seed appears once revealed, or always with `include_seed=True` (operators)."""
        return self._read(
            lambda c: journal.fetch(
                c, round_id, include_seed=include_seed, seed_key=self.keys.seed_key
            )
        )

    def commitment_open(self, seed_commitment: str) -> bool:
        """Whether a round dealt from this seed commitment is still open."""

        def work(conn: Connection) -> bool:
            query = (
                select(rounds.c.id)
                .where(rounds.c.seed_commitment == seed_commitment)
                .where(round_is_open())
                .limit(1)
            )
            return conn.execute(query).first() is not None

        return self._read(work)

    def open_rounds(self, table_id: str | None = None) -> list[dict[str, Any]]:
        """Every round neither settled nor voided (crash recovery), oldest first, with seeds."""

        def work(conn: Connection) -> list[dict[str, Any]]:
            query = select(rounds.c.id).where(round_is_open())
            if table_id is not None:
                query = query.where(rounds.c.table_id == table_id)
            ids = [str(r[0]) for r in conn.execute(query.order_by(rounds.c.opened_at))]
            return [
                journal.fetch(conn, rid, include_seed=True, seed_key=self.keys.seed_key)
                for rid in ids
            ]

        return self._read(work)

    def round_mac_findings(self, round_ids: Sequence[str]) -> dict[str, list[str]]:
        """Round id -> what is wrong with its records' MACs (header, journal records, its
        transactions: `round_macs`), for the rounds given; a sound round is absent. What crash
        recovery checks before it resumes a round."""
        if not round_ids:
            return {}
        from qipai.ledger import round_macs

        key = self.keys.mac_key
        return self._read(lambda c: round_macs.findings(c, key, round_ids))

    def recall(
        self, user_id: str, limit: int = 10, *, before: str | None = None
    ) -> list[dict[str, Any]]:
        """A player's last `limit` rounds, newest first (see `recall.recall`); each item has a
        `cursor`: pass the last one as `before` for the next page (UnknownRound if malformed)."""
        from qipai.ledger.recall import recall

        return self._read(lambda c: recall(c, user_id, limit, before))

    # ----- verification ---------------------------------------------------------------------
    def verify_round(self, round_id: str, *, terms: TermsCheck | None = None) -> VerifyReport:
        """Every per-round check of `audit` on one round, then its replay from the journal: seed,
        deal and money (`verify.VerifyReport`); `terms`: its template's seal (the authority's)."""
        from qipai.ledger.verify import verify_round

        return verify_round(self, round_id, terms=terms)

    def audit(
        self,
        *,
        replay: bool = True,
        expect_heads: Mapping[str, tuple[int, str]] | None = None,
        app_role: str | None = None,
        terms: TermsCheck | None = None,
        also: Callable[[Connection], list[str]] | None = None,
    ) -> AuditReport:
        """Check every ledger invariant and recompute every chain (`audit.AuditReport`); `.ok`
        is False on any violation. `replay=False` skips replaying every settled round;
        `expect_heads` (chain → (seq, mac), printed before) must still be in their chains;
        `app_role` (PostgreSQL): the role whose privileges are checked (default: this one);
        `terms`: every round's template terms against their seals (`verify.TermsCheck`);
        `also`: more findings read in the audit's snapshot (the operator log's)."""
        from qipai.ledger.audit import audit

        return audit(
            self,
            replay=replay,
            expect_heads=None if expect_heads is None else dict(expect_heads),
            app_role=app_role,
            terms=terms,
            also=also,
        )

    def stats(self) -> dict[str, int]:
        """Statements, commits, batches and plans this object has sent (benchmarks)."""
        return self.counters.snapshot()


def _why(reason: str | None, operator: str | None) -> tuple[str, str]:
    """An operator correction's reason and operator, both non-blank (MissingReason)."""
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 1000:
        raise MissingReason("a correction needs a reason (1-1000 characters)")
    if not isinstance(operator, str) or not operator.strip() or len(operator) > 200:
        raise MissingReason("a correction needs the operator who made it")
    return reason.strip(), operator.strip()
