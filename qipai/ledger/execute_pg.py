"""PostgreSQL: write a batch of plans in ONE statement, then commit.

Round trips, not the server's work, are what a ledger transaction costs on PostgreSQL, so every
write of the batch is one statement of data-modifying CTEs:

    WITH f  AS (SELECT … FROM table_leases … FOR KEY SHARE)                -- fences
         l  AS (SELECT id FROM accounts WHERE id = ANY(…) ORDER BY id FOR UPDATE)
         u  AS (UPDATE accounts … FROM (VALUES …) d, l WHERE … guard … RETURNING id, balance)
         b  AS (SELECT id, balance FROM accounts WHERE id = ANY(…))        -- balances read only
         t  AS (INSERT INTO transactions … RETURNING id, key)
         e  AS (INSERT INTO entries SELECT t.id, …, u.balance - later … JOIN t JOIN u)
         hd AS (INSERT INTO holds … JOIN t RETURNING id, authorize_tx, seat)
         hc, re, lg, rv AS (INSERT INTO hold_closures / round_ends / round_log / seed_reveals …)
         h  AS (UPDATE chain_heads … WHERE seq = <head built on> RETURNING chain)
    SELECT what each part returned

Everything whose MAC is known up front is in it. A round's header MACs its players' start
balances: when the batch goes with its COMMIT they are guessed from the balances this process last
committed and checked by the statement (`_guess_starts`); otherwise (or with no guess) a batch that
opens rounds writes them — headers, players and the chain heads — in a second statement, after
the first one read the balances. The checks are the same as
`execute.py`'s: a fence that is not the table's epoch, a guarded debit that was refused, a running
balance below zero part way through the batch, a chain head that moved: any of them raises and the
caller rolls the transaction back.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError

from qipai.ledger import accounts as acct
from qipai.ledger import chain as chain_mod
from qipai.ledger.errors import Fenced, InsufficientFunds
from qipai.ledger.execute import (
    AccountIds,
    Counters,
    Raw,
    _seal,
    account_names,
    hold_values,
    read_balances,
)
from qipai.ledger.plan import NewLog, NewReveal, NewRound, NewTx, Plan, StaleHead
from qipai.ledger.posting import FaultHook, account_rows, no_fault


def _parent(table: str, value: str) -> str:
    """The check that a row's parent exists (PostgreSQL's foreign keys of the hot rows are gone,
    migration 0004: the statement checks each reference, and a row whose parent is missing is
    dropped, which the statement's row counts refuse). A correlated scalar subquery, not a join:
    it is one primary-key probe per row in every plan. As a join, a prepared statement's generic
    plan — made once per shape, when the tables may still be small — could hash-join the whole
    parent table: measured in `bench_ledger` (auto_explain), a closure's join read all 16,000
    holds, 1.5-2 ms of a statement that otherwise takes 0.5 ms, and more as the books grow."""
    return f"(SELECT true FROM {table} WHERE {table}.id = {value})"


class _Sql:
    """One statement being built: CTEs and their parameters, in order. The text depends only on
    the batch's *shape* (how many rows of each kind, which parts and checks it has), so it is
    kept per shape (`_TEXTS`): a batch of a shape seen before only gathers its parameters, in
    the same order, and each part's text is not built at all (`body` is a callable for that)."""

    def __init__(self, shape: tuple[Any, ...]) -> None:
        self.shape = shape
        self.cached = _TEXTS.get(shape)
        self.build = self.cached is None or VERIFY_TEXTS
        self.ctes: list[str] = []
        self.names: list[str] = []
        self.params: list[Any] = []
        self.selects: list[str] = []

    def cte(self, name: str, body: Callable[[], str], params: Sequence[Any]) -> None:
        self.names.append(name)
        if self.build:
            self.ctes.append(f"{name} AS ({body()})")
        self.params.extend(params)

    def has(self, name: str) -> bool:
        return name in self.names

    def out(self, select: str) -> None:
        if self.build:
            self.selects.append(select)

    def text(self) -> str:
        if not self.build:
            assert self.cached is not None
            return self.cached
        selects = " UNION ALL ".join(self.selects) if self.selects else "SELECT NULL, NULL, NULL"
        text = f"WITH {', '.join(self.ctes)} {selects}"
        if self.cached is not None:  # VERIFY_TEXTS
            if text != self.cached:
                raise AssertionError(
                    f"two statements of shape {self.shape}: {self.cached} / {text}"
                )
            return self.cached
        if len(_TEXTS) >= 1024:  # bounded (batches of up to 64 operations have many shapes)
            _TEXTS.clear()
        _TEXTS[self.shape] = text
        return text


_TEXTS: dict[tuple[Any, ...], str] = {}
"""A batch's shape → its statement's text (`_Sql`)."""

VERIFY_TEXTS = os.environ.get("QIPAI_LEDGER_VERIFY_TEXTS") == "1"
"""Also build the text of a statement whose shape was seen before and check that it is the one
kept (the test suite turns this on for every test and the processes its tests start: a shape
that left out something the text depends on fails them); the kept text is sent either way."""


def _ids(ids: Sequence[int]) -> str:
    """Account ids as one PostgreSQL array literal (`{1,2,3}`, cast to `integer[]` in the
    statement): psycopg dumps a Python list element by element in Python, a string in C."""
    return "{" + ",".join([str(int(i)) for i in ids]) + "}"


@functools.cache
def _rows(width: int, count: int, casts: tuple[str, ...] = ()) -> str:
    cells = [f"%s{casts[i] if i < len(casts) else ''}" for i in range(width)]
    row = "(" + ", ".join(cells) + ")"
    return ", ".join([row] * count)


Heads = tuple[list[tuple[str, tuple[int, str]]], list[tuple[str, tuple[int, str], tuple[int, str]]]]


def _head_moves(
    moved: dict[str, tuple[tuple[int, str], tuple[int, str]]], new_chains: set[str]
) -> Heads:
    """The chains a batch starts (chain, head after) and those it moves (chain, before, after)."""
    fresh = [(c, after) for c, (_, after) in sorted(moved.items()) if c in new_chains]
    old = [
        (c, before, after) for c, (before, after) in sorted(moved.items()) if c not in new_chains
    ]
    return fresh, old


def _heads(sql: _Sql, heads: Heads, now: Any) -> int:
    """Add the chain heads' compare-and-set (and the first head of new chains); returns how
    many rows must come back."""
    fresh, old = heads
    if fresh:
        sql.cte(
            "hn",
            lambda: (
                "INSERT INTO chain_heads (chain, seq, mac, updated_at) VALUES "
                f"{_rows(4, len(fresh))} ON CONFLICT (chain) DO NOTHING RETURNING chain"
            ),
            [v for c, (s, m) in fresh for v in (c, s, m, now)],
        )
        sql.out("SELECT 'h', chain, 0::bigint FROM hn")
    if old:
        sql.cte(
            "h",
            lambda: (
                "UPDATE chain_heads AS c SET seq = v.new_seq, mac = v.new_mac, "
                "updated_at = v.at "
                f"FROM (VALUES {_rows(5, len(old), ('::text', '::bigint', '::bigint', '::text', '::timestamptz'))})"
                " AS v(chain, old_seq, new_seq, new_mac, at) "
                "WHERE c.chain = v.chain AND c.seq = v.old_seq RETURNING c.chain"
            ),
            [v for c, before, after in old for v in (c, before[0], after[0], after[1], now)],
        )
        sql.out("SELECT 'h', chain, 0::bigint FROM h")
    return len(fresh) + len(old)


def _wrote(got: dict[str, dict[str, int]], expected: dict[str, int]) -> None:
    """Each part wrote the rows it was given: one that did not lost a row to a join — a
    reference to a row that is not there (the statement checks what PostgreSQL's foreign keys
    checked before migration 0004) or a refused debit."""
    for part, n in expected.items():
        wrote = got.get(part, {}).get("", 0)
        if n and wrote != n:
            raise AssertionError(f"{part}: wrote {wrote} rows, not {n}")


def _heads_moved(sql: _Sql, want: int, conditions: list[str], params: list[Any]) -> None:
    """The condition that every chain head of the statement moved (`_heads`)."""
    if want:
        parts = [f"(SELECT count(*) FROM {h})" for h in ("hn", "h") if sql.has(h)]
        conditions.append(f"{' + '.join(parts)} = %s")
        params.append(want)


class OneShotRefused(StaleHead):
    """A batch sent with its COMMIT was refused by its own checks (nothing was written): the
    writer runs it again the careful way, which names the reason (Fenced, InsufficientFunds, a
    moved chain head)."""


_DIVISION_BY_ZERO = "22012"


def _check(sql: _Sql, conditions: list[str], params: Sequence[Any]) -> None:
    """Make the statement fail (division by zero) unless every condition holds, so that it can
    be sent together with its COMMIT: a refused batch never commits."""
    if not conditions:
        return
    if sql.build:
        sql.out(
            f"SELECT 'k', '', (1 / (CASE WHEN {' AND '.join(conditions)} THEN 1 ELSE 0 END))"
            "::bigint"
        )
    sql.params.extend(params)


def _send(raw: Raw, sql: _Sql, *, begin: bool, commit: bool) -> list[tuple[Any, ...]]:
    try:
        rows = raw.native_rows(sql.text(), sql.params, pipelined=begin or commit, commit=commit)
        if commit:
            raw.counters.one_shot += 1
        return rows
    except DBAPIError as exc:
        if commit and getattr(exc.orig, "sqlstate", None) == _DIVISION_BY_ZERO:
            raise OneShotRefused("the batch's own checks refused it") from exc
        raise


def _round_ctes(sql: _Sql, rounds: Sequence[NewRound], raw: Raw) -> None:
    """The round headers and their players (sealed already)."""
    sql.cte(
        "r",
        lambda: (
            "INSERT INTO rounds (id, table_id, game, config, seats, context, meta, "
            "seed_commitment, seed, opened_at, chain, chain_seq, mac) VALUES "
            f"{_rows(13, len(rounds))} RETURNING id"
        ),
        [
            v
            for r in rounds
            for v in (
                r.id,
                r.table_id,
                r.game,
                raw.js(r.config),
                raw.js(r.seats),
                raw.js(r.context),
                raw.js(r.meta),
                r.commitment,
                r.seed,
                r.opened_at,
                r.chain,
                r.seq,
                r.mac,
            )
        ],
    )
    players = [(r, seat, user, stack) for r in rounds for seat, user, stack in r.players]
    if players:
        sql.cte(
            "p",
            lambda: (
                "INSERT INTO round_players (round_id, seat, user_id, account, start_balance, "
                "opened_at) SELECT v.r, v.s, v.u, v.a, v.b, v.o FROM (VALUES "
                f"{_rows(6, len(players), ('::text', '::text', '::text', '::text', '::bigint', '::timestamptz'))})"
                f" AS v(r, s, u, a, b, o) JOIN r ON r.id = v.r WHERE {_parent('users', 'v.u')}"
                " RETURNING 1"
            ),  # (the references PostgreSQL's foreign keys checked: migration 0004)
            [
                v
                for r, seat, user, stack in players
                for v in (r.id, seat, user, stack, r.starts[seat], r.opened_at)
            ],
        )
        sql.out("SELECT 'p', '', count(*) FROM p")


def _guess_starts(
    writing: Sequence[Plan], found: dict[str, tuple[int, bool]], ids: AccountIds
) -> dict[int, int] | None:
    """A batch that opens rounds, sent with its COMMIT: the players' start balances (what their
    stacks held before their plan) from the balances this process last committed, so that the
    headers are sealed up front and go in the batch's one statement (which checks the guess:
    a wrong one refuses the batch, and it runs again the careful way, in two statements). Sets
    each header's `starts`; returns the guessed balance of each player's stack before the
    batch, or None when one is not known."""
    before: dict[int, int] = {}
    for plan in writing:
        for item in plan.items:
            if isinstance(item, NewRound):
                for _, _, stack in item.players:
                    aid = found[stack][0]
                    if aid not in ids.balances:
                        return None
                    before[aid] = ids.balances[aid]
    running = dict(before)
    for plan in writing:  # as `execute_pg` reads them: what the stacks held before the plan
        for item in plan.items:
            if isinstance(item, NewRound):
                item.starts = {seat: running[found[s][0]] for seat, _, s in item.players}
        for item in plan.items:
            if isinstance(item, NewTx):
                for name, amount in item.legs.items():
                    aid = found[name][0]
                    if aid in running:
                        running[aid] += amount
    return before


def execute_pg(
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
    """`one_shot`: when nothing runs after the batch's last statement (no caller's `also`, no
    test fault hook), that statement carries every check itself and goes with the COMMIT in one
    round trip (`OneShotRefused` if its checks refuse it); the caller's transaction then has
    nothing left to commit."""
    writing = [p for p in plans if p.writes]
    one_shot = one_shot and fault is no_fault and all(p.extra is None for p in writing)
    if not writing:
        return
    raw = Raw(conn, counters)
    for plan in writing:
        if (
            plan.fence is not None
            and plan.fence_table is not None
            and plan.fence[0] != plan.fence_table
        ):
            raise Fenced(
                f"fence is for table {plan.fence[0]!r}, but this write is for {plan.fence_table!r}"
            )
        headers = [i for i, it in enumerate(plan.items) if isinstance(it, NewRound)]
        if headers and headers != [len(plan.items) - 1]:
            raise AssertionError("a round's header must be the last record of its plan")

    names = account_names(writing)
    found = ids.get(names)
    if found is None:
        rows = account_rows(conn, names)
        counters.statements += 1
        found = {n: (rows[n][0], acct.parse(n).allow_negative) for n in names}
        if resolved is not None:
            resolved.update(found)

    txs = [it for p in writing for it in p.items if isinstance(it, NewTx)]
    logs = [it for p in writing for it in p.items if isinstance(it, NewLog)]
    reveals = [it for p in writing for it in p.items if isinstance(it, NewReveal)]
    rounds = [it for p in writing for it in p.items if isinstance(it, NewRound)]

    # the balance moves, in order; each entry's balance after = final balance - later moves
    order: list[tuple[NewTx, str, int, int]] = []  # (tx, account, account id, amount)
    for t in txs:
        for name, amount in sorted(t.legs.items(), key=lambda kv: found[kv[0]][0]):
            order.append((t, name, found[name][0], amount))
    total: dict[int, int] = {}
    for _, _, aid, amount in order:
        total[aid] = total.get(aid, 0) + amount
    later: list[int] = []
    seen: dict[int, int] = {}
    for _, _, aid, amount in reversed(order):
        later.append(seen.get(aid, 0))
        seen[aid] = seen.get(aid, 0) + amount
    later.reverse()
    moved = {aid: d for aid, d in total.items() if d != 0}
    needed = {found[s][0] for r in rounds for _, _, s in r.players}
    read_only = sorted((needed | set(total)) - set(moved))

    # seal everything but the round headers (they are last in their chains)
    heads: dict[str, tuple[int, str]] = {}
    new_chains: set[str] = set()
    for plan in writing:
        for chain, head in plan.heads.items():
            heads.setdefault(chain, head)
        new_chains |= plan.new_chains
    sealer = chain_mod.Sealer(mac_key, heads)
    guessed = _guess_starts(writing, found, ids) if rounds and one_shot else None
    for plan in writing:
        for item in plan.items:
            if guessed is not None or not isinstance(item, NewRound):
                _seal(sealer, item)

    now = max(
        [t.created_at for t in txs]
        + [r.opened_at for r in rounds]
        + [g.created_at for g in logs]
        + [v.revealed_at for v in reveals]
    )
    fences = sorted({p.fence[0] for p in writing if p.fence is not None})
    fenced = [p.fence for p in writing if p.fence is not None]
    held = [(t, h) for t in txs for h in t.holds]
    closes = [(t, c) for t in txs for c in t.closes]
    ends = [t for t in txs if t.end is not None]
    guarded = sorted({aid for _, name, aid, _ in order if not found[name][1]})
    seated = sum(len(r.players) for r in rounds)
    first_heads = not rounds or guessed is not None
    head_moves = _head_moves(sealer.moved(), new_chains) if first_heads else ([], [])
    commit_now = one_shot and first_heads
    # everything the statement's text depends on (`_Sql`); what is not here is a parameter
    shape = (
        bool(fences),
        len(fenced) if commit_now else 0,
        len(moved),
        bool(read_only),
        len(txs),
        len(order),
        bool(guarded) and commit_now,
        len(held),
        len(closes),
        len(ends),
        len(logs),
        len(reveals),
        (len(rounds), sum(len(r.players) for r in rounds)) if guessed is not None else None,
        len(guessed) if guessed is not None and commit_now else 0,
        len(head_moves[0]),
        len(head_moves[1]),
        commit_now,
    )
    sql = _Sql(shape)
    if fences:
        sql.cte(
            "f",
            lambda: (
                "SELECT table_id, epoch FROM table_leases WHERE table_id = ANY(%s) FOR KEY SHARE"
            ),
            [fences],
        )
        sql.out("SELECT 'f', table_id, epoch FROM f")
    if moved:
        ids_moved = sorted(moved)
        sql.cte(
            "l",
            lambda: "SELECT id FROM accounts WHERE id = ANY(%s::integer[]) ORDER BY id FOR UPDATE",
            [_ids(ids_moved)],
        )
        sql.cte(
            "u",
            lambda: (
                "UPDATE accounts AS a SET balance = a.balance + d.delta "
                f"FROM (VALUES {_rows(2, len(ids_moved), ('::integer', '::bigint'))}) AS d(id, delta), l "
                "WHERE a.id = d.id AND a.id = l.id AND (a.allow_negative OR a.balance + d.delta >= 0) "
                "RETURNING a.id, a.balance"
            ),
            [v for aid in ids_moved for v in (aid, moved[aid])],
        )
        sql.out("SELECT 'u', id::text, balance FROM u")
    if read_only:
        sql.cte(
            "b",
            lambda: "SELECT id, balance FROM accounts WHERE id = ANY(%s::integer[])",
            [_ids(read_only)],
        )
        sql.out("SELECT 'b', id::text, balance FROM b")
    if txs:
        sql.cte(
            "t",
            lambda: (
                "INSERT INTO transactions (key, kind, body_hash, round_id, reverses, memo, detail, "
                f"created_at, chain, chain_seq, mac) VALUES {_rows(11, len(txs))} RETURNING id, key"
            ),
            [
                v
                for t in txs
                for v in (
                    t.key,
                    t.kind,
                    t.body_hash,
                    t.round_id,
                    t.reverses_id,
                    t.memo,
                    raw.js(t.detail),
                    t.created_at,
                    t.chain,
                    t.seq,
                    t.mac,
                )
            ],
        )
        sql.out("SELECT 't', key, id::bigint FROM t")
    if order:
        balances = (
            "COALESCE(u.balance, b.balance)"
            if read_only and moved
            else ("u.balance" if moved else "b.balance")
        )
        joins = ""
        if moved:
            joins += " LEFT JOIN u ON u.id = v.a"
        if read_only:
            joins += " LEFT JOIN b ON b.id = v.a"
        sql.cte(
            "e",
            lambda: (
                "INSERT INTO entries (tx_id, account_id, amount, balance_after, created_at) "
                f"SELECT t.id, v.a, v.m, {balances} - v.o, v.c FROM (VALUES "
                f"{_rows(5, len(order), ('::text', '::integer', '::bigint', '::bigint', '::timestamptz'))})"
                f" AS v(k, a, m, o, c) JOIN t ON t.key = v.k{joins}"
                f" WHERE {balances} IS NOT NULL RETURNING account_id, balance_after"
            ),  # (a refused debit: checked below)
            [
                v
                for (t, _, aid, amount), o in zip(order, later, strict=True)
                for v in (t.key, aid, amount, o, t.created_at)
            ],
        )
        sql.out("SELECT 'e', '', count(*) FROM e")
    if held:
        sql.cte(
            "hd",
            lambda: (
                "INSERT INTO holds (source_account_id, hold_account_id, amount, round_id, seat, "
                "purpose, authorize_tx, created_at) SELECT v.s, v.h, v.m, v.r, v.st, v.p, t.id, v.c "
                f"FROM (VALUES {_rows(8, len(held), ('::text', '::integer', '::integer', '::bigint', '::text', '::text', '::text', '::timestamptz'))})"
                " AS v(k, s, h, m, r, st, p, c) JOIN t ON t.key = v.k RETURNING id, authorize_tx, seat"
            ),
            [v for t, h in held for v in (t.key, *hold_values(h, found), t.created_at)],
        )
        sql.out(
            "SELECT 'hd', t.key || '#' || COALESCE(hd.seat, ''), hd.id::bigint FROM hd "
            "JOIN t ON t.id = hd.authorize_tx"
        )
    if closes:
        sql.cte(
            "hc",
            lambda: (
                "INSERT INTO hold_closures (hold_id, tx_id, status, captured, closed_at) "
                "SELECT v.h, t.id, v.s, v.m, v.c FROM (VALUES "
                f"{_rows(5, len(closes), ('::text', '::integer', '::text', '::bigint', '::timestamptz'))})"
                f" AS v(k, h, s, m, c) JOIN t ON t.key = v.k WHERE {_parent('holds', 'v.h')}"
                " RETURNING 1"
            ),
            [v for t, c in closes for v in (t.key, c.hold_id, c.status, c.captured, t.created_at)],
        )
        sql.out("SELECT 'hc', '', count(*) FROM hc")
    if ends:
        sql.cte(
            "re",
            lambda: (
                "INSERT INTO round_ends (round_id, status, tx_id, result, accounts, reason, closed_at) "
                "SELECT v.r, v.s, t.id, v.res, v.acc, v.why, v.c FROM (VALUES "
                f"{_rows(7, len(ends), ('::text', '::text', '::text', '::json', '::json', '::text', '::timestamptz'))})"
                " AS v(k, r, s, res, acc, why, c) JOIN t ON t.key = v.k"
                f" WHERE {_parent('rounds', 'v.r')} RETURNING 1"
            ),
            [
                v
                for t in ends
                if t.end is not None
                for v in (
                    t.key,
                    t.end.round_id,
                    t.end.status,
                    raw.js(t.end.result),
                    raw.js(t.end.accounts),
                    t.end.reason,
                    t.end.closed_at,
                )
            ],
        )
        sql.out("SELECT 're', '', count(*) FROM re")
    if logs:
        sql.cte(
            "lg",
            lambda: (
                "INSERT INTO round_log (round_id, seq, kind, seat, payload, visible_to, client_id, "
                "created_at, chain, chain_seq, mac) SELECT v.r, v.n, v.k, v.s, v.p, v.t, v.c, v.at, "
                "v.ch, v.q, v.m FROM (VALUES "
                f"{_rows(11, len(logs), ('::text', '::integer', '::text', '::text', '::json', '::json', '::text', '::timestamptz', '::text', '::bigint', '::text'))})"
                " AS v(r, n, k, s, p, t, c, at, ch, q, m)"
                f" WHERE {_parent('rounds', 'v.r')} RETURNING 1"
            ),
            [
                v
                for g in logs
                for v in (
                    g.round_id,
                    g.n,
                    g.kind,
                    g.seat,
                    raw.js(g.payload),
                    raw.js(g.visible_to),
                    g.client_id,
                    g.created_at,
                    g.chain,
                    g.seq,
                    g.mac,
                )
            ],
        )
        sql.out("SELECT 'lg', '', count(*) FROM lg")
    if reveals:
        sql.cte(
            "rv",
            lambda: (
                "INSERT INTO seed_reveals (seed_commitment, seed, revealed_at, chain, chain_seq, mac) "
                f"VALUES {_rows(6, len(reveals))} RETURNING 1"
            ),
            [
                x
                for v in reveals
                for x in (v.commitment, v.seed, v.revealed_at, v.chain, v.seq, v.mac)
            ],
        )
        sql.out("SELECT 'rv', '', count(*) FROM rv")
    if guessed is not None:
        _round_ctes(sql, rounds, raw)
    want_heads = _heads(sql, head_moves, now) if first_heads else 0
    commit_now = commit_now and bool(sql.names)
    # the rows each part must write (a part short of them lost a row to a join or a guard):
    # checked by the statement itself when it commits, by `_wrote` after it otherwise
    rows_of = {
        "e": len(order),
        "hc": len(closes),
        "re": len(ends),
        "lg": len(logs),
        "rv": len(reveals),
        "p": seated if guessed is not None else 0,
    }
    if commit_now:
        # everything checked below, checked by the statement itself
        conditions: list[str] = []
        params: list[Any] = []
        if guessed:
            # the players' balances before this batch are the ones the headers were sealed with
            parts = [p for p in ("u", "b") if sql.has(p)]
            if not parts:
                raise AssertionError("a round's players have no balance to check")
            joins = " ".join(f"LEFT JOIN {p} ON {p}.id = x.a" for p in parts)
            actual = f"COALESCE({', '.join(f'{p}.balance' for p in parts)})"
            conditions.append(
                f"NOT EXISTS (SELECT 1 FROM (VALUES {_rows(2, len(guessed), ('::integer', '::bigint'))})"
                f" AS x(a, want) {joins} WHERE {actual} IS DISTINCT FROM x.want)"
            )
            params += [
                v
                for aid, before in sorted(guessed.items())
                for v in (aid, before + total.get(aid, 0))
            ]
        if fenced:
            conditions.append(
                f"NOT EXISTS (SELECT 1 FROM (VALUES {_rows(2, len(fenced), ('::text', '::bigint'))})"
                " AS x(t, ep) LEFT JOIN f ON f.table_id = x.t WHERE f.epoch IS DISTINCT FROM x.ep)"
            )
            params += [v for table, epoch in fenced for v in (table, epoch)]
        if moved:
            conditions.append("(SELECT count(*) FROM u) = %s")
            params.append(len(moved))
        if order:
            conditions.append("(SELECT count(*) FROM e) = %s")
            params.append(len(order))
            if guarded:
                conditions.append(
                    "NOT EXISTS (SELECT 1 FROM e WHERE e.balance_after < 0 "
                    "AND e.account_id = ANY(%s::integer[]))"
                )
                params.append(_ids(guarded))
        for part, n in rows_of.items():
            if n and part != "e":  # (the entries' count is checked above)
                conditions.append(f"(SELECT count(*) FROM {part}) = %s")
                params.append(n)
        _heads_moved(sql, want_heads, conditions, params)
        _check(sql, conditions, params)
    answer = _send(raw, sql, begin=True, commit=commit_now) if sql.names else []

    got: dict[str, dict[str, int]] = {}
    for part, key, value in answer:
        if part is not None:
            got.setdefault(str(part), {})[str(key)] = int(value)
    epochs = got.get("f", {})
    for plan in writing:
        if plan.fence is None:
            continue
        table, epoch = plan.fence
        if table not in epochs:
            raise Fenced(f"table {table!r} has no lease: claim it first")
        if epochs[table] != epoch:
            raise Fenced(
                f"table {table!r} lease epoch {epoch} is stale (now {epochs[table]}): "
                "another host owns the table"
            )
    fault("after_tx_insert")
    after = {int(k): v for k, v in got.get("u", {}).items()}
    for aid, delta in moved.items():
        if aid not in after:
            name = next(n for n, (i, _) in found.items() if i == aid)
            have = read_balances(raw, [aid]).get(aid, 0)
            raise InsufficientFunds(f"{name} holds {have}, cannot pay {-delta}")
    fault("after_first_update")
    after.update({int(k): v for k, v in got.get("b", {}).items()})
    running = {aid: after[aid] - total.get(aid, 0) for aid in after}
    for plan in writing:
        header = plan.items[-1] if plan.items and isinstance(plan.items[-1], NewRound) else None
        if header is not None:
            starts = {seat: running[found[s][0]] for seat, _, s in header.players}
            if guessed is not None and starts != header.starts:  # the statement checked it
                raise AssertionError(f"round {header.id}: sealed {header.starts}, read {starts}")
            header.starts = starts
        for item in plan.items:
            if not isinstance(item, NewTx):
                continue
            for name, amount in sorted(item.legs.items(), key=lambda kv: found[kv[0]][0]):
                aid, may_go_negative = found[name]
                before = running[aid]
                running[aid] = before + amount
                if running[aid] < 0 and not may_go_negative:
                    raise InsufficientFunds(f"{name} holds {before}, cannot pay {-amount}")
                item.balances[name] = running[aid]
    tx_ids = got.get("t", {})
    hold_ids = got.get("hd", {})
    for t in txs:
        t.id = tx_ids[t.key]
    for t, h in held:  # (a transaction's holds differ by seat: one per seat, or just one)
        h.id = hold_ids[f"{t.key}#{h.seat or ''}"]
    _wrote(got, rows_of)
    fault("after_holds_closed")

    if rounds and guessed is None:
        for r in rounds:
            _seal(sealer, r)
        head_moves = _head_moves(sealer.moved(), new_chains)
        sql = _Sql(
            (
                "headers",
                len(rounds),
                sum(len(r.players) for r in rounds),
                len(head_moves[0]),
                len(head_moves[1]),
                one_shot,
            )
        )
        _round_ctes(sql, rounds, raw)
        want_heads = _heads(sql, head_moves, now)
        commit_now = one_shot
        if commit_now:
            conditions, params = [], []
            if seated:
                conditions.append("(SELECT count(*) FROM p) = %s")
                params.append(seated)
            _heads_moved(sql, want_heads, conditions, params)
            _check(sql, conditions, params)
        answer = _send(raw, sql, begin=False, commit=commit_now)
        got = {}
        for part, key, value in answer:
            if part is not None:
                got.setdefault(str(part), {})[str(key)] = int(value)
        _wrote(got, {"p": seated})
    if len(got.get("h", {})) != want_heads:
        raise StaleHead("a chain moved since this write read it")
    for plan in writing:
        if plan.extra is not None:
            plan.extra(conn)
    fault("before_commit")


__all__ = ["OneShotRefused", "execute_pg"]
