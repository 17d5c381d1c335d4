"""The house's money desk: demo deposits (a server setting, with a daily limit per player),
deposit and withdrawal requests that an operator approves when demo money is off, jackpot
funding and ledger corrections by operators — each correction a reversing or adjusting
transaction with a reason, never an edit.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, RowMapping, delete, func, insert, select, text, update

from qipai.authority.errors import BadRequest, Conflict, DemoLimit, KycRequired, NotFound
from qipai.authority.limits import Kind, MoneyLimits
from qipai.authority.oplog import Actor, OperatorLog
from qipai.authority.players import PlayerControls
from qipai.authority.schema import money_requests
from qipai.authority.settings import AuthoritySettings
from qipai.ledger import Ledger
from qipai.ledger import accounts as acct
from qipai.ledger.errors import HoldClosed, InsufficientFunds, LedgerError

MAX_PENDING = 5
"""Open requests one player may have at once."""
MAX_REQUEST = 10**12
DEMO_SETTLE_S = 300.0
"""A demo deposit's two writes (its request row, its ledger transaction) take far less."""


def player_exists(ledger: Ledger, player: str) -> bool:
    from qipai.ledger.schema import users

    with ledger.engine.connect() as conn:
        return conn.execute(select(users.c.id).where(users.c.id == player)).first() is not None


def hold_key(request_id: int) -> str:
    """The ledger key of the hold a withdrawal request puts on the wallet (one per request)."""
    return f"withdrawal-request:{request_id}"


def _hold_of(ledger: Ledger, request_id: int) -> int | None:
    """The id of the hold withdrawal request `request_id` made, None if it made none (a
    request from before holds, or a crash between the request and its hold)."""
    from qipai.ledger.schema import holds, transactions

    with ledger.engine.connect() as conn:
        found = conn.execute(
            select(holds.c.id)
            .join(transactions, transactions.c.id == holds.c.authorize_tx)
            .where(transactions.c.key == hold_key(request_id))
        ).scalar()
    return None if found is None else int(found)


def _day_start(now: float) -> float:
    day = datetime.fromtimestamp(now, UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return day.timestamp()


def _amount(value: object, limit: int = MAX_REQUEST) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= limit:
        raise BadRequest(f"amount is an integer of minor units, 1 to {limit}", "amount")
    return value


def _label(value: object, size: int, field: str) -> str:
    """A payment method or reference: printable text of at most `size` characters."""
    if not isinstance(value, str) or len(value) > size or not value.isprintable():
        raise BadRequest(f"{field} is printable text of at most {size} characters", field)
    return value.strip()


def _reason(value: object) -> str:
    if not isinstance(value, str) or not 1 <= len(value.strip()) <= 500:
        raise BadRequest("a reason of 1-500 characters", "reason")
    return value


class MoneyDesk:
    def __init__(
        self,
        engine: Engine,
        ledger: Ledger | None,
        log: OperatorLog,
        settings: AuthoritySettings,
        players: PlayerControls,
        clock: Callable[[], float] = time.time,
        limits: MoneyLimits | None = None,
    ) -> None:
        self.engine = engine
        self.ledger = ledger
        self.log = log
        self.settings = settings
        self.players = players
        self.clock = clock
        self.limits = limits

    def _ledger(self) -> Ledger:
        if self.ledger is None:
            raise Conflict("this authority runs without a ledger")
        return self.ledger

    @staticmethod
    def _serialize(conn: Connection, player: str) -> None:
        """One player's money requests one at a time (SQLite: BEGIN IMMEDIATE does it)."""
        if conn.dialect.name == "postgresql":
            conn.execute(
                text("SELECT pg_advisory_xact_lock(hashtext(:p))"), {"p": f"money:{player}"}
            )

    # ----- players --------------------------------------------------------------------------
    def demo_used_today(self, player: str) -> int:
        with self.engine.connect() as conn:
            return self._used(conn, player)

    def _moved_today(self, conn: Connection, player: str, kinds: tuple[str, ...]) -> int:
        """What the player's requests of `kinds` asked for today (UTC), pending or approved:
        what a deposit or withdrawal limit counts."""
        total = conn.execute(
            select(func.coalesce(func.sum(money_requests.c.amount), 0)).where(
                money_requests.c.player == player,
                money_requests.c.kind.in_(kinds),
                money_requests.c.status.in_(("pending", "approved")),
                money_requests.c.created_at >= _day_start(self.clock()),
            )
        ).scalar()
        return int(total or 0)

    def _check_limit(self, conn: Connection, player: str, kind: Kind, amount: int) -> None:
        """The player's daily deposit or withdrawal limit (docs/operators.md "Money
        controls"), checked inside the request's serialized transaction."""
        if self.limits is None:
            return
        kinds = ("deposit", "demo") if kind == "deposit" else ("withdrawal",)
        self.limits.check(player, kind, self._moved_today(conn, player, kinds), amount, conn)

    def _used(self, conn: Connection, player: str) -> int:
        total = conn.execute(
            select(func.coalesce(func.sum(money_requests.c.amount), 0)).where(
                money_requests.c.player == player,
                money_requests.c.kind == "demo",
                money_requests.c.status == "approved",
                money_requests.c.created_at >= _day_start(self.clock()),
            )
        ).scalar()
        return int(total or 0)

    def deposit(
        self,
        player: str,
        amount: object,
        key: str | None = None,
        method: object = "",
        reference: object = "",
    ) -> dict[str, Any]:
        """Demo on: play money now, within the daily limit (a retry with the same `key` is the
        same deposit). Demo off: a request an operator approves (`status: pending`), with its
        payment `method` and `reference`."""
        if not self.settings.demo:
            return self.request(player, "deposit", amount, method, reference)
        value = _amount(amount, self.settings.demo_max_deposit)
        limit = self.players.limit(player, "demo_daily_limit", self.settings.demo_daily_limit)
        now = self.clock()
        tag = "demo deposit" if key is None else f"demo deposit {key[:64]}"
        with self.engine.begin() as conn:
            self._serialize(conn, player)  # the limit check and the row are one step
            used = self._used(conn, player)
            earlier = None
            if key is not None:
                earlier = conn.execute(
                    select(
                        money_requests.c.id, money_requests.c.amount, money_requests.c.status
                    ).where(
                        money_requests.c.player == player,
                        money_requests.c.kind == "demo",
                        money_requests.c.reason == tag,
                    )
                ).first()
            if earlier is not None and earlier[1] != value:
                raise Conflict("this key was used for another amount", "key")
            retried = earlier is not None and earlier[2] == "approved"
            if not retried:  # a new deposit, or one whose ledger write failed: within limits
                self._check_limit(conn, player, "deposit", value)
            if not retried and used + value > limit:
                raise DemoLimit(
                    f"demo deposits are limited to {limit} a day; {max(0, limit - used)} left "
                    "today (UTC)",
                    "amount",
                )
            request_id: Any = (earlier[0],) if earlier is not None else None
            if retried:  # the same deposit (the ledger's key makes it once)
                used -= value
            elif earlier is not None:  # a retry of one whose ledger write failed: approved again
                conn.execute(
                    update(money_requests)
                    .where(money_requests.c.id == earlier[0])
                    .values(status="approved", decided_at=now)
                )
            else:
                request_id = conn.execute(
                    insert(money_requests).values(
                        player=player,
                        kind="demo",
                        amount=value,
                        status="approved",
                        created_at=now,
                        decided_at=now,
                        decided_by="demo",
                        reason=tag,
                    )
                ).inserted_primary_key
        assert request_id is not None
        return self._demo_done(player, request_id, value, limit, used)

    def _demo_done(
        self, player: str, request_id: Any, value: int, limit: int, used: int
    ) -> dict[str, Any]:
        key = f"demo:{request_id[0]}"
        try:
            tx = self._ledger().deposit(player, value, key)
        except BaseException:
            self._undo_demo(request_id[0], Ledger.deposit_key(player, key))
            raise
        with self.engine.begin() as conn:  # approved again if a start-up check cancelled it
            conn.execute(
                update(money_requests)
                .where(money_requests.c.id == request_id[0])
                .values(tx_id=tx.tx_id, status="approved")
            )
        return {
            "status": "approved",
            "amount": value,
            "demo_left_today": limit - used - value,
            "wallet": self._ledger().wallet(player),
        }

    def _undo_demo(self, request_id: int, ledger_key: str) -> None:
        """A demo deposit whose ledger write failed is not left `approved`: it becomes
        `cancelled` (no longer counted toward the daily limit; a retry with its key approves
        it again). Unless the ledger holds the deposit after all (the write committed and only
        its answer was lost): then the row records that transaction."""
        from qipai.ledger.schema import transactions

        with self._ledger().engine.connect() as conn:
            tx_id = conn.execute(
                select(transactions.c.id).where(transactions.c.key == ledger_key)
            ).scalar()
        with self.engine.begin() as conn:
            change: dict[str, Any] = (
                {"status": "cancelled"} if tx_id is None else {"tx_id": int(tx_id)}
            )
            conn.execute(
                update(money_requests)
                .where(money_requests.c.id == request_id, money_requests.c.tx_id.is_(None))
                .values(**change)
            )

    def settle_demo(self, older_than_s: float = DEMO_SETTLE_S) -> int:
        """At start: a demo deposit left `approved` without its ledger transaction (the process
        died between the two writes) gets the transaction the ledger holds, or is cancelled.
        Only rows older than `older_than_s`: another host's deposit may be between its two
        writes right now. Returns how many rows were looked at."""
        before = self.clock() - older_than_s
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(money_requests.c.id, money_requests.c.player).where(
                    money_requests.c.kind == "demo",
                    money_requests.c.status == "approved",
                    money_requests.c.tx_id.is_(None),
                    money_requests.c.created_at < before,
                )
            ).all()
        for request_id, player in rows:
            self._undo_demo(int(request_id), Ledger.deposit_key(player, f"demo:{request_id}"))
        return len(rows)

    def request(
        self,
        player: str,
        kind: str,
        amount: object,
        method: object = "",
        reference: object = "",
    ) -> dict[str, Any]:
        """A deposit or withdrawal request for an operator to decide, with its payment
        `method` and `reference` (what the cashier matches it with). A withdrawal needs a
        verified identity (KYC, where the room says so) and holds its amount in the wallet at
        once (a ledger hold): the player cannot bet, buy in or withdraw it again while the
        request waits; a cancel or a rejection releases it, an approval pays the held money
        out. Both count against the player's daily limit of their kind."""
        if kind not in ("deposit", "withdrawal"):
            raise BadRequest("kind is deposit or withdrawal", "kind")
        value = _amount(amount)
        how = _label(method, 24, "method")
        ref = _label(reference, 64, "reference")
        verified = self.players.kyc(player) == "verified"
        if kind == "withdrawal" and self.settings.withdrawal_kyc and not verified:
            raise KycRequired(
                "withdrawals need your identity verified first (ask the cashier)", "amount"
            )
        if kind == "withdrawal" and self._ledger().wallet(player) < value:
            raise BadRequest("the wallet holds less than that", "amount")
        with self.engine.begin() as conn:
            self._serialize(conn, player)
            self._check_limit(conn, player, "deposit" if kind == "deposit" else "withdrawal", value)
            pending = conn.execute(
                select(func.count()).where(
                    money_requests.c.player == player, money_requests.c.status == "pending"
                )
            ).scalar()
            if int(pending or 0) >= MAX_PENDING:
                raise Conflict(f"{pending} requests are waiting already (at most {MAX_PENDING})")
            key = conn.execute(
                insert(money_requests).values(
                    player=player,
                    kind=kind,
                    amount=value,
                    status="pending",
                    created_at=self.clock(),
                    reason="",
                    method=how,
                    reference=ref,
                )
            ).inserted_primary_key
        assert key is not None
        request_id = int(key[0])
        if kind == "withdrawal":
            try:
                self._hold(player, request_id, value)
            except InsufficientFunds:
                # spent meanwhile (a bet, a buy-in): no request, nothing held
                with self.engine.begin() as conn:
                    conn.execute(delete(money_requests).where(money_requests.c.id == request_id))
                raise BadRequest("the wallet holds less than that", "amount") from None
        return {"status": "pending", "request": self.get(request_id)}

    def _hold(self, player: str, request_id: int, amount: int) -> int:
        """Hold a withdrawal request's amount in the player's wallet (once per request)."""
        hold = self._ledger().authorize(
            acct.wallet(player), amount, key=hold_key(request_id), purpose="withdrawal"
        )
        return hold.id

    def _release(self, request_id: int) -> None:
        """A cancelled or rejected withdrawal: its held money back to the wallet."""
        ledger = self._ledger()
        hold_id = _hold_of(ledger, request_id)
        if hold_id is None:
            return
        with contextlib.suppress(HoldClosed):  # released already
            ledger.void(hold_id, key=f"{hold_key(request_id)}:release")

    def release_decided(self) -> int:
        """Release every withdrawal hold whose request is no longer pending (a crash between
        a cancel or rejection and its release); at start. Returns how many were released."""
        from qipai.ledger.schema import hold_is_open, holds, transactions

        ledger = self._ledger()
        prefix = hold_key(0)[:-1]
        with ledger.engine.connect() as conn:
            keys = conn.execute(
                select(transactions.c.key)
                .join(holds, holds.c.authorize_tx == transactions.c.id)
                .where(
                    holds.c.purpose == "withdrawal",
                    holds.c.round_id.is_(None),
                    transactions.c.key.like(f"{prefix}%"),
                    hold_is_open(),
                )
            ).scalars()
            ids = [int(k[len(prefix) :]) for k in keys if k[len(prefix) :].isdigit()]
        if not ids:
            return 0
        with self.engine.connect() as conn:
            pending = set(
                conn.execute(
                    select(money_requests.c.id).where(
                        money_requests.c.id.in_(ids), money_requests.c.status == "pending"
                    )
                ).scalars()
            )
        stale = [i for i in ids if i not in pending]
        for request_id in stale:
            self._release(request_id)
        return len(stale)

    def held(self, player: str) -> int:
        """What the player's pending withdrawal requests hold (out of the wallet)."""
        return self._ledger().balance(acct.hold_account(acct.wallet(player)))

    def cancel(self, player: str, request_id: int) -> dict[str, Any]:
        with self.engine.begin() as conn:
            changed = conn.execute(
                update(money_requests)
                .where(
                    money_requests.c.id == request_id,
                    money_requests.c.player == player,
                    money_requests.c.status == "pending",
                )
                .values(status="cancelled", decided_at=self.clock(), decided_by=player)
            ).rowcount
        if not changed:
            raise NotFound(f"no pending request {request_id} of yours", "request_id")
        self._release(request_id)
        return self.get(request_id)

    # ----- operators ------------------------------------------------------------------------
    def _shown(self, row: RowMapping) -> dict[str, Any]:
        """A request as the cashier sees it: `large` flags one of the room's large amount."""
        return {**dict(row), "large": int(row["amount"]) >= self.settings.large_transaction}

    def needs_second(self, request: dict[str, Any]) -> bool:
        """Four-eyes: a withdrawal above the room's threshold needs two operators."""
        return (
            request["kind"] == "withdrawal"
            and int(request["amount"]) > self.settings.withdrawal_approval_over
        )

    def get(self, request_id: int) -> dict[str, Any]:
        with self.engine.connect() as conn:
            return self._shown(_request_row(conn, request_id))

    def requests(
        self, *, status: str | None = None, player: str | None = None, limit: int = 50
    ) -> list[dict[str, Any]]:
        query = select(money_requests).order_by(money_requests.c.id.desc()).limit(limit)
        if status is not None:
            query = query.where(money_requests.c.status == status)
        if player is not None:
            query = query.where(money_requests.c.player == player)
        with self.engine.connect() as conn:
            return [self._shown(r) for r in conn.execute(query).mappings()]

    def decide(self, request_id: int, approve: bool, actor: Actor, reason: str) -> dict[str, Any]:
        _reason(reason)
        now = self.clock()
        with self.engine.begin() as conn:
            row = _request_row(conn, request_id)
            if row["status"] != "pending":
                raise Conflict(f"request {request_id} is {row['status']} already")
            # claim it first, conditionally: of two decisions at once (approve and reject, two
            # approvers) exactly one finds it pending and moves it; the other finds it decided
            # (reading the status first is not enough: both can read "pending" before either
            # writes, on PostgreSQL's read committed as on SQLite's deferred transactions)
            claimed = conn.execute(
                update(money_requests)
                .where(money_requests.c.id == request_id)
                .where(money_requests.c.status == "pending")
                .values(
                    status="approved" if approve else "rejected",
                    decided_at=now,
                    decided_by=actor.name,
                    reason=reason,
                )
            )
            if claimed.rowcount != 1:
                raise Conflict(f"request {request_id} was decided meanwhile")
        tx_id = None
        if not approve and row["kind"] == "withdrawal":
            self._release(request_id)
        if approve:
            ledger = self._ledger()
            try:
                if row["kind"] == "deposit":
                    tx = ledger.deposit(row["player"], row["amount"], f"request:{request_id}")
                else:  # the money held since the request (held now if it was not)
                    hold_id = _hold_of(ledger, request_id)
                    if hold_id is None:
                        hold_id = self._hold(row["player"], request_id, row["amount"])
                    tx = ledger.withdraw_hold(hold_id, key=f"withdraw:request:{request_id}")
            except LedgerError as exc:
                with self.engine.begin() as conn:  # the money did not move: back to pending
                    conn.execute(
                        update(money_requests)
                        .where(money_requests.c.id == request_id)
                        .where(money_requests.c.status == "approved")
                        .where(money_requests.c.tx_id.is_(None))
                        .values(status="pending", decided_at=None, decided_by=None, reason="")
                    )
                    self.log.append_in(
                        conn,
                        actor,
                        f"money.{row['kind']}.approve",
                        str(request_id),
                        reason,
                        {"error": str(exc)},
                        "refused",
                    )
                raise
            tx_id = tx.tx_id
        with self.engine.begin() as conn:
            if tx_id is not None:
                conn.execute(
                    update(money_requests)
                    .where(money_requests.c.id == request_id)
                    .values(tx_id=tx_id)
                )
            self.log.append_in(
                conn,
                actor,
                f"money.{row['kind']}.{'approve' if approve else 'reject'}",
                str(request_id),
                reason,
                {"player": row["player"], "amount": row["amount"], "tx_id": tx_id},
            )
        return self.get(request_id)

    def fund_pool(self, pool_id: str, amount: object, actor: Actor, reason: str) -> dict[str, Any]:
        """Seed or top up a jackpot pool from the house jackpot account (`house-jackpot`)."""
        _reason(reason)
        value = _amount(amount)
        ledger = self._ledger()
        tx = ledger.fund_pool(pool_id, value, f"ops:{uuid.uuid4().hex}")
        self.log.append(
            actor, "jackpot.fund", pool_id, reason, {"amount": value, "tx_id": tx.tx_id}
        )
        return {"pool_id": pool_id, "pool": ledger.pool(pool_id), "tx_id": tx.tx_id}

    def reverse(self, tx_id: object, actor: Actor, reason: str) -> dict[str, Any]:
        """The exact opposite of an earlier transaction (once per transaction)."""
        _reason(reason)
        if isinstance(tx_id, bool) or not isinstance(tx_id, int) or tx_id <= 0:
            raise BadRequest("tx_id is a transaction id", "tx_id")
        try:
            original = self._ledger().transaction(tx_id)
        except (LookupError, LedgerError):
            raise NotFound(f"no transaction {tx_id}", "tx_id") from None
        if any(acct.parse(e.account).kind == "hold" for e in original.entries):
            # its opposite would put money in a hold account with no open hold behind it
            # (a withdrawal paid from a request's hold, a bet's hold): the audit would fail
            raise Conflict(
                f"transaction {tx_id} moves held money (a {original.kind}): correct it with "
                "an adjustment instead",
                "tx_id",
            )
        # the ledger records reason and operator in the transaction itself
        tx = self._ledger().reverse(tx_id, reason=reason, operator=actor.name)
        self.log.append(actor, "ledger.reverse", str(tx_id), reason, {"reversal_tx": tx.tx_id})
        return {"tx_id": tx.tx_id, "reverses": tx_id}

    def adjust(self, player: str, amount: object, actor: Actor, reason: str) -> dict[str, Any]:
        """Credit (amount > 0) or debit (< 0) a player's wallet against the house."""
        _reason(reason)
        if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0:
            raise BadRequest("amount is a non-zero integer of minor units", "amount")
        if abs(amount) > MAX_REQUEST:
            raise BadRequest(f"amount is at most {MAX_REQUEST} either way", "amount")
        ledger = self._ledger()
        if not player_exists(ledger, player):
            raise NotFound(f"no player {player!r}", "player")
        legs = {f"wallet:{player}": amount, "house": -amount}
        key = f"ops-adjust:{uuid.uuid4().hex}"
        tx = ledger.adjust(legs, reason=reason, operator=actor.name, key=key)
        self.log.append(
            actor, "ledger.adjust", player, reason, {"amount": amount, "tx_id": tx.tx_id}
        )
        return {"tx_id": tx.tx_id, "wallet": ledger.wallet(player)}


def _request_row(conn: Connection, request_id: int) -> RowMapping:
    """The money request `request_id` (NotFound naming `request_id` if there is none)."""
    row = (
        conn.execute(select(money_requests).where(money_requests.c.id == request_id))
        .mappings()
        .first()
    )
    if row is None:
        raise NotFound(f"no request {request_id}", "request_id")
    return row
