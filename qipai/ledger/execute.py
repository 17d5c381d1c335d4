"""Write plans (`qipai.ledger.plan`) in one database transaction with a handful of statements,
however many plans commit together. The statements go straight to the database driver on the
SQLAlchemy connection's transaction (SQLAlchemy's per-statement work cost more than the
database's), built once per shape; the order and the checks are described in `plan.py`."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError

from qipai.ledger import accounts as acct
from qipai.ledger import chain as chain_mod
from qipai.ledger.errors import Fenced, InsufficientFunds
from qipai.ledger.plan import NewHold, NewLog, NewReveal, NewRound, NewTx, Plan, StaleHead
from qipai.ledger.posting import Entry, FaultHook, account_rows, no_fault


@dataclass
class Counters:
    """Statements and commits this ledger sent (the benchmark prints them per round)."""

    statements: int = 0
    commits: int = 0
    batches: int = 0
    plans: int = 0
    one_shot: int = 0
    """PostgreSQL transactions committed together with their last statement."""

    def snapshot(self) -> dict[str, int]:
        return {
            "statements": self.statements,
            "commits": self.commits,
            "batches": self.batches,
            "plans": self.plans,
            "one_shot": self.one_shot,
        }


@dataclass
class AccountIds:
    """Account name → (id, may go negative): ids never change once an account exists, so they are
    cached for the process (only ids of committed accounts: `commit` after the transaction)."""

    known: dict[str, tuple[int, bool]] = field(default_factory=dict)
    balances: dict[int, int] = field(default_factory=dict)
    """Account id → its balance after this process's last commit that moved it: a *guess* of
    the database's (another process or lane may have moved it since). PostgreSQL seals a
    round's header with its players' start balances guessed from it, and the statement itself
    checks the guess (`execute_pg`); a wrong guess is refused and the write runs again the
    careful way."""

    def get(self, names: Iterable[str]) -> dict[str, tuple[int, bool]] | None:
        out = {}
        for name in names:
            found = self.known.get(name)
            if found is None:
                return None
            out[name] = found
        return out

    def commit(self, resolved: Mapping[str, tuple[int, bool]]) -> None:
        self.known.update(resolved)

    def moved(self, plans: Sequence[Plan]) -> None:
        """Remember the balances the committed `plans` left (the last entry of each account)."""
        for plan in plans:
            for item in plan.items:
                if isinstance(item, NewTx):
                    for name, balance in item.balances.items():
                        found = self.known.get(name)
                        if found is not None:
                            self.balances[found[0]] = balance


class Raw:
    """The driver cursor of a SQLAlchemy connection, with the dialect's placeholders and value
    forms (SQLite stores timestamps as SQLAlchemy does: naive UTC text; JSON as text)."""

    def __init__(self, conn: Connection, counters: Counters) -> None:
        self.pg = conn.dialect.name == "postgresql"
        driver = conn.connection.driver_connection
        assert driver is not None
        # The cursors are made once per database connection and kept with it (the pool's
        # `info`, which lives exactly as long as the driver's connection): psycopg copies the
        # connection's adapter map into every new cursor (`AdaptersMap.__init__`, ≈ 0.2 ms of
        # CPU per cursor, two cursors per batch: measured in docs/scaling.md "The hot path").
        self._kept: dict[str, Any] = conn.connection.info.setdefault(_CURSORS, {})
        cursor = self._kept.get("plain")
        if cursor is None or getattr(cursor, "closed", False) or cursor.connection is not driver:
            cursor = self._kept["plain"] = driver.cursor()
        self.cursor = cursor
        self.mark = "%s" if self.pg else "?"
        self.counters = counters
        self.driver_error: type[Exception] = conn.dialect.loaded_dbapi.Error
        self._ts: dict[datetime, str] = {}
        native = self._kept.get("native")
        usable = native is not None and not native.closed and native.connection is driver
        self._native: Any = native if usable else None

    def ts(self, value: datetime) -> Any:
        if self.pg:
            return value
        found = self._ts.get(value)
        if found is None:
            naive = value.astimezone(UTC).replace(tzinfo=None)
            found = self._ts[value] = naive.isoformat(sep=" ", timespec="microseconds")
        return found

    @staticmethod
    def js(value: Any) -> str | None:
        if value is None:
            return None
        return value if isinstance(value, chain_mod.JText) else json.dumps(value)

    def run(self, sql: str, params: Sequence[Any]) -> Any:
        """Execute; a driver error comes out as SQLAlchemy's (IntegrityError, OperationalError
        …) with `.orig`, as every other statement's would."""
        self.counters.statements += 1
        try:
            self.cursor.execute(sql, params)
        except self.driver_error as exc:
            raise DBAPIError.instance(sql, list(params), exc, self.driver_error) from exc
        return self.cursor

    def rows(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        return list(self.run(sql, params).fetchall())

    def native_rows(
        self, sql: str, params: Sequence[Any], *, pipelined: bool = False, commit: bool = False
    ) -> list[tuple[Any, ...]]:
        """PostgreSQL: a long statement with `%s` placeholders sent as `$1, $2 …` through
        psycopg's RawCursor, which passes the text as it is (the default cursor parses a query
        for placeholders on every call and caches only short ones: a batch's statement of a few
        hundred parameters cost more to parse than the server took to run it). `pipelined`:
        together with the transaction's BEGIN, in one round trip; `commit`: and with its COMMIT
        (the statement must then check everything itself)."""
        if self._native is None:
            import psycopg

            self._native = self._kept["native"] = psycopg.RawCursor(self.cursor.connection)
        text = native_placeholders(sql)
        cursor = self._native
        self.counters.statements += 1
        try:
            driver = cursor.connection
            if commit and driver.info.transaction_status == _PG_IDLE:
                # nothing ran before it in this transaction: the statement alone, in autocommit
                # mode, IS the transaction (atomic, committed when it succeeds) — one message
                # and no pipeline, BEGIN or COMMIT around it (psycopg's pipeline cost ~100-200
                # µs of CPU per statement)
                driver.autocommit = True
                try:
                    cursor.execute(text, params)
                    return list(cursor.fetchall())
                finally:
                    driver.autocommit = False
            if pipelined:
                with cursor.connection.pipeline():
                    cursor.execute(text, params)
                    if commit:
                        cursor.connection.commit()
                    return list(cursor.fetchall())
            cursor.execute(text, params)
            return list(cursor.fetchall())
        except self.driver_error as exc:
            raise DBAPIError.instance(sql, list(params), exc, self.driver_error) from exc


_CURSORS = "qipai_cursors"
"""The key of a database connection's kept cursors in its pool `info` (`Raw`)."""

_PG_IDLE = 0
"""`psycopg.pq.TransactionStatus.IDLE`: no transaction open on the connection."""


@functools.lru_cache(maxsize=256)
def native_placeholders(sql: str) -> str:
    """`%s` → `$1`, `$2` … in order (the ledger's statements have no other `%`)."""
    parts = sql.split("%s")
    out = [parts[0]]
    for i, part in enumerate(parts[1:], 1):
        out.append(f"${i}")
        out.append(part)
    return "".join(out)


@functools.cache
def _values(mark: str, width: int, count: int, casts: tuple[str, ...] = ()) -> str:
    cell = [mark + (casts[i] if i < len(casts) else "") for i in range(width)]
    row = "(" + ", ".join(cell) + ")"
    return ", ".join([row] * count)


def _insert(
    raw: Raw,
    table: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    returning: str = "",
) -> list[tuple[Any, ...]]:
    if not rows:
        return []
    sql = (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
        f"{_values(raw.mark, len(columns), len(rows))}"
    )
    params = [v for row in rows for v in row]
    if returning:
        return raw.rows(f"{sql} RETURNING {returning}", params)
    raw.run(sql, params)
    return []


@functools.cache
def _update_sql(pg: bool, n: int) -> str:
    if pg:
        values = ", ".join(["(%s::integer, %s::bigint)"] * n)
        return (
            "UPDATE accounts AS a SET balance = a.balance + d.delta "
            f"FROM (VALUES {values}) AS d(id, delta), "
            "(SELECT id FROM accounts WHERE id = ANY(%s) ORDER BY id FOR UPDATE) AS l "
            "WHERE a.id = d.id AND a.id = l.id AND (a.allow_negative OR a.balance + d.delta >= 0) "
            "RETURNING a.id, a.balance"
        )
    cases = " ".join(["WHEN ? THEN ?"] * n)
    delta = f"(CASE id {cases} END)"
    ids = ", ".join(["?"] * n)
    return (
        f"UPDATE accounts SET balance = balance + {delta} "
        f"WHERE id IN ({ids}) AND (allow_negative OR balance + {delta} >= 0) "
        "RETURNING id, balance"
    )


def apply_balances(raw: Raw, deltas: Mapping[int, int]) -> dict[int, int]:
    """Add each delta (account id → amount) in one guarded statement; id → balance after.
    Accounts whose guard refused the change are missing from the answer."""
    ids = sorted(deltas)
    if not ids:
        return {}
    if raw.pg:
        params: list[Any] = []
        for aid in ids:
            params += [aid, deltas[aid]]
        params.append(ids)
    else:
        case: list[Any] = []
        for aid in ids:
            case += [aid, deltas[aid]]
        params = case + ids + case
    return {int(i): int(b) for i, b in raw.rows(_update_sql(raw.pg, len(ids)), params)}


def read_balances(raw: Raw, ids: Sequence[int]) -> dict[int, int]:
    if not ids:
        return {}
    marks = ", ".join([raw.mark] * len(ids))
    found = raw.rows(f"SELECT id, balance FROM accounts WHERE id IN ({marks})", list(ids))
    return {int(i): int(b) for i, b in found}


def hold_values(
    h: NewHold, found: Mapping[str, tuple[int, bool]]
) -> tuple[int, int, int, str | None, str | None, str]:
    """A hold row's source account id, hold account id, amount, round, seat and purpose."""
    return (found[h.source][0], found[h.hold_account][0], h.amount, h.round_id, h.seat, h.purpose)


def account_names(plans: Sequence[Plan]) -> set[str]:
    """Every account the plans' transactions, holds and round headers touch."""
    names: set[str] = set()
    for plan in plans:
        for item in plan.items:
            if isinstance(item, NewTx):
                names.update(item.legs)
                for h in item.holds:
                    names.update((h.source, h.hold_account))
            elif isinstance(item, NewRound):
                names.update(stack for _, _, stack in item.players)
    return names


def check_fences(raw: Raw, plans: Sequence[Plan]) -> None:
    fenced = [p for p in plans if p.fence is not None]
    if not fenced:
        return
    for plan in fenced:
        assert plan.fence is not None
        table, epoch = plan.fence
        if plan.fence_table is not None and table != plan.fence_table:
            raise Fenced(
                f"fence is for table {table!r}, but this write is for {plan.fence_table!r}"
            )
    tables = sorted({p.fence[0] for p in fenced if p.fence is not None})
    marks = ", ".join([raw.mark] * len(tables))
    lock = " FOR KEY SHARE" if raw.pg else ""  # leases.py: only a claim conflicts
    found = dict(
        raw.rows(
            f"SELECT table_id, epoch FROM table_leases WHERE table_id IN ({marks}){lock}", tables
        )
    )
    for plan in fenced:
        assert plan.fence is not None
        table, epoch = plan.fence
        if table not in found:
            raise Fenced(f"table {table!r} has no lease: claim it first")
        if int(found[table]) != epoch:
            raise Fenced(
                f"table {table!r} lease epoch {epoch} is stale (now {int(found[table])}): "
                "another host owns the table"
            )


def read_head(raw: Raw, chain: str, *, lock: bool) -> tuple[tuple[int, str], bool]:
    """(seq, mac) of a chain's head and whether its row exists (a new chain starts at 0)."""
    suffix = " FOR UPDATE" if lock and raw.pg else ""
    found = raw.rows(f"SELECT seq, mac FROM chain_heads WHERE chain = {raw.mark}{suffix}", [chain])
    if not found:
        return (0, chain_mod.GENESIS), False
    return (int(found[0][0]), str(found[0][1])), True


def _move_heads(
    raw: Raw,
    moved: Mapping[str, tuple[tuple[int, str], tuple[int, str]]],
    new_chains: set[str],
    now: datetime,
) -> None:
    fresh = [(c, new) for c, (_, new) in moved.items() if c in new_chains]
    for chain, (seq, mac) in fresh:
        sql = (
            f"INSERT INTO chain_heads (chain, seq, mac, updated_at) VALUES "
            f"({raw.mark}, {raw.mark}, {raw.mark}, {raw.mark}) ON CONFLICT (chain) DO NOTHING"
        )
        if raw.run(sql, [chain, seq, mac, raw.ts(now)]).rowcount != 1:
            raise StaleHead(f"chain {chain} was started by another writer")
    old = sorted((c, before, after) for c, (before, after) in moved.items() if c not in new_chains)
    if not old:
        return
    m = raw.mark
    cast = "::bigint" if raw.pg else ""
    seq_case = " ".join([f"WHEN {m} THEN {m}{cast}"] * len(old))
    mac_case = " ".join([f"WHEN {m} THEN {m}"] * len(old))
    was_case = seq_case
    marks = ", ".join([m] * len(old))
    sql = (
        f"UPDATE chain_heads SET seq = CASE chain {seq_case} END, "
        f"mac = CASE chain {mac_case} END, updated_at = {m} "
        f"WHERE chain IN ({marks}) AND seq = CASE chain {was_case} END"
    )
    params: list[Any] = []
    for c, _, after in old:
        params += [c, after[0]]
    for c, _, after in old:
        params += [c, after[1]]
    params.append(raw.ts(now))
    params += [c for c, _, _ in old]
    for c, before, _ in old:
        params += [c, before[0]]
    if raw.run(sql, params).rowcount != len(old):
        raise StaleHead("a chain moved since this write read it")


_TX_COLUMNS = (
    "key",
    "kind",
    "body_hash",
    "round_id",
    "reverses",
    "memo",
    "detail",
    "created_at",
    "chain",
    "chain_seq",
    "mac",
)


def execute(
    conn: Connection,
    plans: Sequence[Plan],
    *,
    mac_key: bytes,
    ids: AccountIds,
    counters: Counters,
    fault: FaultHook = no_fault,
    resolved: dict[str, tuple[int, bool]] | None = None,
    one_shot: bool = True,
) -> None:
    """Write every plan in `conn`'s transaction (see `plan.py`). PostgreSQL with `one_shot` may
    commit the transaction itself, with its last statement (`execute_pg`). Raises (and the caller rolls
    back) on any refusal: Fenced, InsufficientFunds, StaleHead, or the database's own
    (IntegrityError: a key, round end or hold closure that exists already)."""
    if conn.dialect.name == "postgresql":
        from qipai.ledger.execute_pg import execute_pg

        execute_pg(
            conn,
            plans,
            mac_key=mac_key,
            ids=ids,
            counters=counters,
            fault=fault,
            resolved=resolved,
            one_shot=one_shot,
        )
        return
    writing = [p for p in plans if p.writes]
    if not writing:
        return
    raw = Raw(conn, counters)
    check_fences(raw, writing)

    # accounts: ids (cached or read; missing well-formed accounts are created)
    names = account_names(writing)
    found = ids.get(names)
    if found is None:
        rows = account_rows(conn, names)
        counters.statements += 1  # (at least one: SQLAlchemy's statements are not counted)
        found = {n: (rows[n][0], acct.parse(n).allow_negative) for n in names}
        if resolved is not None:
            resolved.update(found)

    # balances: one guarded UPDATE for every account moved, then the running balance of each
    deltas: dict[int, int] = {}
    for plan in writing:
        for item in plan.items:
            if isinstance(item, NewTx):
                for name, amount in item.legs.items():
                    aid = found[name][0]
                    deltas[aid] = deltas.get(aid, 0) + amount
    moved = {aid: d for aid, d in deltas.items() if d != 0}
    after = apply_balances(raw, moved)
    fault("after_first_update")
    for aid in moved:
        if aid not in after:
            name = next(n for n, (i, _) in found.items() if i == aid)
            have = read_balances(raw, [aid]).get(aid, 0)
            raise InsufficientFunds(f"{name} holds {have}, cannot pay {-moved[aid]}")
    need = [
        found[s][0]
        for p in writing
        for it in p.items
        if isinstance(it, NewRound)
        for _, _, s in it.players
    ]
    unmoved = sorted(
        {aid for aid in need if aid not in after} | {aid for aid in deltas if aid not in after}
    )
    after.update(read_balances(raw, unmoved))
    running = {aid: after[aid] - deltas.get(aid, 0) for aid in after}
    for plan in writing:
        for item in plan.items:  # a round's players start with what they held before its plan
            if isinstance(item, NewRound):
                item.starts = {seat: running[found[s][0]] for seat, _, s in item.players}
        for item in plan.items:
            if isinstance(item, NewTx):
                for name, amount in sorted(item.legs.items(), key=lambda kv: found[kv[0]][0]):
                    aid, may_go_negative = found[name]
                    before = running[aid]
                    running[aid] = before + amount
                    if running[aid] < 0 and not may_go_negative:
                        raise InsufficientFunds(f"{name} holds {before}, cannot pay {-amount}")
                    item.balances[name] = running[aid]

    # seal every record into its chain, in order
    heads: dict[str, tuple[int, str]] = {}
    new_chains: set[str] = set()
    for plan in writing:
        for chain, head in plan.heads.items():
            heads.setdefault(chain, head)
        new_chains |= plan.new_chains
    sealer = chain_mod.Sealer(mac_key, heads)
    for plan in writing:
        for item in plan.items:
            _seal(sealer, item)

    # the rows
    rounds = [it for p in writing for it in p.items if isinstance(it, NewRound)]
    txs = [it for p in writing for it in p.items if isinstance(it, NewTx)]
    logs = [it for p in writing for it in p.items if isinstance(it, NewLog)]
    reveals = [it for p in writing for it in p.items if isinstance(it, NewReveal)]
    _insert(
        raw,
        "rounds",
        (
            "id",
            "table_id",
            "game",
            "config",
            "seats",
            "context",
            "meta",
            "seed_commitment",
            "seed",
            "opened_at",
            "chain",
            "chain_seq",
            "mac",
        ),
        [
            (
                r.id,
                r.table_id,
                r.game,
                raw.js(r.config),
                raw.js(r.seats),
                raw.js(r.context),
                raw.js(r.meta),
                r.commitment,
                r.seed,
                raw.ts(r.opened_at),
                r.chain,
                r.seq,
                r.mac,
            )
            for r in rounds
        ],
    )
    _insert(
        raw,
        "round_players",
        ("round_id", "seat", "user_id", "account", "start_balance", "opened_at"),
        [
            (r.id, seat, user, stack, r.starts[seat], raw.ts(r.opened_at))
            for r in rounds
            for seat, user, stack in r.players
        ],
    )
    tx_ids = {
        str(k): int(i)
        for i, k in _insert(
            raw,
            "transactions",
            _TX_COLUMNS,
            [
                (
                    t.key,
                    t.kind,
                    t.body_hash,
                    t.round_id,
                    t.reverses_id,
                    t.memo,
                    raw.js(t.detail),
                    raw.ts(t.created_at),
                    t.chain,
                    t.seq,
                    t.mac,
                )
                for t in txs
            ],
            returning="id, key",
        )
    }
    for t in txs:
        t.id = tx_ids[t.key]
    fault("after_tx_insert")
    _insert(
        raw,
        "entries",
        ("tx_id", "account_id", "amount", "balance_after", "created_at"),
        [
            (t.id, found[name][0], amount, t.balances[name], raw.ts(t.created_at))
            for t in txs
            for name, amount in sorted(t.legs.items(), key=lambda kv: found[kv[0]][0])
        ],
    )
    with_hold = [(t, h) for t in txs for h in t.holds]
    hold_ids = {
        (int(tx), seat): int(i)
        for i, tx, seat in _insert(
            raw,
            "holds",
            (
                "source_account_id",
                "hold_account_id",
                "amount",
                "round_id",
                "seat",
                "purpose",
                "authorize_tx",
                "created_at",
            ),
            [(*hold_values(h, found), t.id, raw.ts(t.created_at)) for t, h in with_hold],
            returning="id, authorize_tx, seat",
        )
    }
    for t, h in with_hold:  # (a transaction's holds differ by seat: one per seat, or just one)
        assert t.id is not None
        h.id = hold_ids[(t.id, h.seat)]
    _insert(
        raw,
        "hold_closures",
        ("hold_id", "tx_id", "status", "captured", "closed_at"),
        [
            (c.hold_id, t.id, c.status, c.captured, raw.ts(t.created_at))
            for t in txs
            for c in t.closes
        ],
    )
    fault("after_holds_closed")
    _insert(
        raw,
        "round_ends",
        ("round_id", "status", "tx_id", "result", "accounts", "reason", "closed_at"),
        [
            (
                t.end.round_id,
                t.end.status,
                t.id,
                raw.js(t.end.result),
                raw.js(t.end.accounts),
                t.end.reason,
                raw.ts(t.end.closed_at),
            )
            for t in txs
            if t.end is not None
        ],
    )
    _insert(
        raw,
        "round_log",
        (
            "round_id",
            "seq",
            "kind",
            "seat",
            "payload",
            "visible_to",
            "client_id",
            "created_at",
            "chain",
            "chain_seq",
            "mac",
        ),
        [
            (
                g.round_id,
                g.n,
                g.kind,
                g.seat,
                raw.js(g.payload),
                raw.js(g.visible_to),
                g.client_id,
                raw.ts(g.created_at),
                g.chain,
                g.seq,
                g.mac,
            )
            for g in logs
        ],
    )
    _insert(
        raw,
        "seed_reveals",
        ("seed_commitment", "seed", "revealed_at", "chain", "chain_seq", "mac"),
        [(v.commitment, v.seed, raw.ts(v.revealed_at), v.chain, v.seq, v.mac) for v in reveals],
    )
    now = max(
        [t.created_at for t in txs]
        + [r.opened_at for r in rounds]
        + [g.created_at for g in logs]
        + [v.revealed_at for v in reveals]
    )
    _move_heads(raw, sealer.moved(), new_chains, now)
    for plan in writing:
        if plan.extra is not None:
            plan.extra(conn)
    fault("before_commit")


def _seal(sealer: chain_mod.Sealer, item: Any) -> None:
    seq = sealer.position(item.chain)
    if isinstance(item, NewTx):
        data = chain_mod.tx_bytes(
            chain=item.chain,
            seq=seq,
            key=item.key,
            kind=item.kind,
            body_hash=item.body_hash,
            round_id=item.round_id,
            reverses=item.reverses_key,
            memo=item.memo,
            detail=item.detail,
            created_at=item.created_at,
            entries=list(item.legs.items()),
            holds=[
                (h.source, h.hold_account, h.amount, h.round_id, h.seat, h.purpose)
                for h in item.holds
            ],
            closes=[(c.authorize_key, c.status, c.captured) for c in item.closes],
            end=None
            if item.end is None
            else chain_mod.end_fields(
                item.end.status,
                item.end.result,
                item.end.accounts,
                item.end.reason,
                item.end.closed_at,
            ),
        )
    elif isinstance(item, NewRound):
        data = chain_mod.round_bytes(
            chain=item.chain,
            seq=seq,
            round_id=item.id,
            table_id=item.table_id,
            game=item.game,
            config=item.config,
            seats=item.seats,
            context=item.context,
            meta=item.meta,
            commitment=item.commitment,
            seed=item.seed,
            opened_at=item.opened_at,
            players=[(seat, user, stack, item.starts[seat]) for seat, user, stack in item.players],
        )
    elif isinstance(item, NewLog):
        data = chain_mod.log_bytes(
            chain=item.chain,
            seq=seq,
            round_id=item.round_id,
            n=item.n,
            kind=item.kind,
            seat=item.seat,
            payload=item.payload,
            visible_to=item.visible_to,
            client_id=item.client_id,
            created_at=item.created_at,
        )
    elif isinstance(item, NewReveal):
        data = chain_mod.reveal_bytes(
            chain=item.chain,
            seq=seq,
            commitment=item.commitment,
            seed=item.seed,
            revealed_at=item.revealed_at,
        )
    else:  # pragma: no cover
        raise TypeError(item)
    item.seq = seq
    item.mac = sealer.seal_bytes(item.chain, seq, data)


def entries_of(tx: NewTx, found_order: Callable[[str], int] | None = None) -> tuple[Entry, ...]:
    """The written entries of a transaction, in the order they were written."""
    legs = sorted(tx.legs.items(), key=(lambda kv: found_order(kv[0])) if found_order else None)
    return tuple(Entry(name, amount, tx.balances[name]) for name, amount in legs)


__all__ = ["AccountIds", "Counters", "execute", "read_head"]
