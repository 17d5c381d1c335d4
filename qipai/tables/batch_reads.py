"""What resuming many tables needs from the ledger, read for all of them at once.

A takeover pass (`qipai.cluster.ownership`) and a host's start-up recovery resume tens to
hundreds of tables. Read one table at a time — its recent client ids, its open rounds, each
round's header, players, seed reveal, journal and holds (`Ledger.open_rounds` →
`journal.fetch`) — that is about nine statements per table, and on a busy host each statement
waits for the GIL and a connection: measured, ≈ 1.1 s of wall per table for 15–20 ms of
CPU (docs/scaling.md, "Takeover at scale"). Here each kind is one statement for every table of
the pass (`= ANY(...)` / `IN (...)`), so N tables cost a constant number of round trips.

Only what `Table.recover` and `Journal.remember_all` use is read: an `OpenRound` is the round's
record (header, seats' players, seed) and its journaled actions (events are rebuilt by the
replay), exactly as `LedgerAdapter.open_rounds` builds it from `journal.fetch`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, and_, exists, func, select

from qipai.ledger import Ledger
from qipai.ledger.journal import open_seed
from qipai.ledger.schema import (
    round_ends,
    round_log,
    round_players,
    rounds,
    seed_reveals,
    table_leases,
    transactions,
)


def open_rounds_of(ledger: Ledger, table_ids: Sequence[str] | None) -> list[dict[str, Any]]:
    """The open rounds (neither settled nor voided) of `table_ids` (None: of every table),
    oldest first, each as the subset of `journal.fetch`'s JSON that crash recovery reads
    (`round_id`, `table_id`, `game`, `config`, `seats`, `context`, `meta`, `seed_commitment`,
    `seed` opened, `players` with `seat`/`user_id`, `log` with `kind`/`seat`/`payload`/
    `client_id`): three statements however many tables and rounds."""
    if table_ids is not None and not table_ids:
        return []
    seed_key = ledger.keys.seed_key

    def work(conn: Connection) -> list[dict[str, Any]]:
        ended = exists().where(round_ends.c.round_id == rounds.c.id)  # anti-join on the key
        query = (
            select(rounds, seed_reveals.c.seed.label("revealed"))
            .outerjoin(seed_reveals, seed_reveals.c.seed_commitment == rounds.c.seed_commitment)
            .where(~ended)
            .order_by(rounds.c.opened_at, rounds.c.id)
        )
        if table_ids is not None:
            query = query.where(rounds.c.table_id.in_(sorted(set(table_ids))))
        heads = conn.execute(query).mappings().all()
        if not heads:
            return []
        ids = [str(h["id"]) for h in heads]
        players: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
        for rid, seat, user in conn.execute(
            select(round_players.c.round_id, round_players.c.seat, round_players.c.user_id)
            .where(round_players.c.round_id.in_(ids))
            .order_by(round_players.c.round_id, round_players.c.seat)
        ):
            players[str(rid)].append({"seat": seat, "user_id": user})
        logs: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
        for rid, kind, seat, payload, client_id in conn.execute(
            select(
                round_log.c.round_id,
                round_log.c.kind,
                round_log.c.seat,
                round_log.c.payload,
                round_log.c.client_id,
            )
            .where(round_log.c.round_id.in_(ids))
            .order_by(round_log.c.round_id, round_log.c.seq)
        ):
            logs[str(rid)].append(
                {"kind": kind, "seat": seat, "payload": payload, "client_id": client_id}
            )
        out: list[dict[str, Any]] = []
        for head in heads:
            rid = str(head["id"])
            revealed = head["revealed"]
            out.append(
                {
                    "round_id": rid,
                    "table_id": head["table_id"],
                    "game": head["game"],
                    "config": head["config"],
                    "seats": head["seats"],
                    "context": head["context"],
                    "meta": head["meta"],
                    "seed_commitment": head["seed_commitment"],
                    "seed": str(revealed) if revealed is not None else open_seed(seed_key, head),
                    "players": players[rid],
                    "log": logs[rid],
                }
            )
        return out

    return ledger._read(work)  # a read transaction (SQLite: BEGIN DEFERRED)


def recent_client_ids_of(
    ledger: Ledger, table_ids: Sequence[str], limit: int
) -> dict[str, list[tuple[str, str]]]:
    """Table id -> (client id, player) of its last `limit` journaled actions, oldest first
    (`LedgerAdapter.recent_client_ids` for many tables in one statement: a window per table)."""
    found: dict[str, list[tuple[str, str]]] = {t: [] for t in table_ids}
    if not table_ids:
        return found
    rank = (
        func.row_number()
        .over(
            partition_by=rounds.c.table_id,
            order_by=(rounds.c.opened_at.desc(), round_log.c.seq.desc()),
        )
        .label("rank")
    )
    inner = (
        select(
            rounds.c.table_id,
            round_log.c.client_id,
            round_players.c.user_id,
            rank,
        )
        .select_from(
            round_log.join(rounds, rounds.c.id == round_log.c.round_id).outerjoin(
                round_players,
                and_(
                    round_players.c.round_id == round_log.c.round_id,
                    round_players.c.seat == round_log.c.seat,
                ),
            )
        )
        .where(rounds.c.table_id.in_(sorted(set(table_ids))), round_log.c.client_id.is_not(None))
        .subquery()
    )
    query = (
        select(inner.c.table_id, inner.c.client_id, inner.c.user_id)
        .where(inner.c.rank <= limit)
        .order_by(inner.c.table_id, inner.c.rank.desc())  # oldest first
    )
    rows = ledger._read(lambda conn: conn.execute(query).all())
    for table_id, client_id, user in rows:
        found.setdefault(str(table_id), []).append((str(client_id), str(user or "")))
    return found


def chain_heads_of(ledger: Ledger, round_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Round id -> the chain head (`chain`, `seq`, `mac`) of the transaction that ended it, for
    the ended rounds of `round_ids` (`journal.fetch`'s `chain_head`, one statement for all: a
    restored table shows its last result's head, `layout._restore_chain_head`)."""
    if not round_ids:
        return {}
    wanted = sorted(set(round_ids))
    rows = ledger._read(
        lambda conn: conn.execute(
            select(
                round_ends.c.round_id,
                transactions.c.chain,
                transactions.c.chain_seq,
                transactions.c.mac,
            )
            .join(transactions, transactions.c.id == round_ends.c.tx_id)
            .where(round_ends.c.round_id.in_(wanted))
        ).all()
    )
    return {str(r): {"chain": c, "seq": q, "mac": m} for r, c, q, m in rows}


def unleased(ledger: Ledger, table_ids: Sequence[str]) -> set[str]:
    """The tables of `table_ids` that have no lease row yet (never claimed: a batch claim,
    `Ledger.claim_tables`, only takes rows that exist)."""
    if not table_ids:
        return set()
    wanted = sorted(set(table_ids))
    rows = ledger._read(
        lambda conn: conn.execute(
            select(table_leases.c.table_id).where(table_leases.c.table_id.in_(wanted))
        ).all()
    )
    return set(wanted) - {str(r[0]) for r in rows}


__all__ = ["chain_heads_of", "open_rounds_of", "recent_client_ids_of", "unleased"]
