"""Every chained record as stored, rebuilt from the database rows into the exact objects whose
canonical bytes the writer MACed (`qipai.ledger.chain`) — what `qipai audit` recomputes, and what
sealing a database written before the chains existed (`legacy`) MACs for the first time."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, select
from sqlalchemy.orm import aliased

from qipai.ledger import chain as chain_mod
from qipai.ledger.schema import (
    accounts,
    entries,
    hold_closures,
    holds,
    round_ends,
    round_log,
    round_players,
    rounds,
    seed_reveals,
    transactions,
)


@dataclass
class Record:
    """One chained row. `build(chain, seq)` is its canonical object at that position."""

    table: str
    key: Any
    """The row's primary key (id, round id or commitment)."""
    label: str
    """How a report names it: `transaction 12 'round:…:settle'`."""
    chain: str | None
    seq: int | None
    mac: str | None
    at: datetime
    home: str
    """The chain the record belongs in by what it is (its table's, or the ledger's)."""
    build: Callable[[str, int], dict[str, Any]]
    order: int
    rounds: tuple[str, ...] = ()
    """The rounds the record is part of (a reveal: every round dealt from its seed)."""


class AccountNames(dict[int, str]):
    """Account id → name; an id with no account (a reference no foreign key checks on
    PostgreSQL, migration 0004) reads as a name no account has, so the record it is part of
    fails its MAC and the check naming it (`audit.check_references`) says why."""

    def __missing__(self, key: int) -> str:
        return f"#missing-account-{key}"


def account_names(conn: Connection) -> AccountNames:
    return AccountNames(
        (int(i), str(n)) for i, n in conn.execute(select(accounts.c.id, accounts.c.name))
    )


def load(conn: Connection, round_ids: Collection[str] | None = None) -> list[Record]:
    """Every record of every chain (and every row that should be in one), unsorted; with
    `round_ids`, only those rounds' records: their headers, journal records, transactions and
    the reveals of their seeds (what `qipai verify` and crash recovery check of one round)."""
    only = None if round_ids is None else sorted(set(round_ids))

    def of_rounds(query: Any, column: Any) -> Any:
        return query if only is None else query.where(column.in_(only))

    table_of_round = {
        str(r): str(t)
        for r, t in conn.execute(of_rounds(select(rounds.c.id, rounds.c.table_id), rounds.c.id))
    }
    names = account_names(conn)
    round_txs = of_rounds(select(transactions.c.id), transactions.c.round_id)
    keys: dict[int, str] = {}
    kinds: dict[int, str] = {}
    key_query = select(transactions.c.id, transactions.c.key, transactions.c.kind)
    if only is not None:  # the round's transactions and those that opened the holds they close
        key_query = key_query.where(
            transactions.c.id.in_(round_txs)
            | transactions.c.id.in_(
                select(holds.c.authorize_tx).where(
                    holds.c.id.in_(
                        select(hold_closures.c.hold_id).where(hold_closures.c.tx_id.in_(round_txs))
                    )
                )
            )
        )
    for i, k, kind in conn.execute(key_query):
        keys[int(i)], kinds[int(i)] = str(k), str(kind)

    legs: dict[int, list[tuple[str, int]]] = {}
    for tx_id, aid, amount in conn.execute(
        select(entries.c.tx_id, entries.c.account_id, entries.c.amount).where(
            entries.c.tx_id.in_(round_txs)
        )
        if only is not None
        else select(entries.c.tx_id, entries.c.account_id, entries.c.amount)
    ):
        legs.setdefault(int(tx_id), []).append((names[int(aid)], int(amount)))
    opened: dict[int, list[tuple[str, str, int, str | None, str | None, str]]] = {}
    authorize_of: dict[int, int] = {}
    seat_of: dict[int, str | None] = {}
    hold_query = select(holds)
    if only is not None:
        hold_query = hold_query.where(
            holds.c.authorize_tx.in_(round_txs)
            | holds.c.id.in_(
                select(hold_closures.c.hold_id).where(hold_closures.c.tx_id.in_(round_txs))
            )
        )
    for row in conn.execute(hold_query).mappings():
        authorize_of[int(row["id"])] = int(row["authorize_tx"])
        seat_of[int(row["id"])] = row["seat"]
        opened.setdefault(int(row["authorize_tx"]), []).append(
            (
                names[int(row["source_account_id"])],
                names[int(row["hold_account_id"])],
                int(row["amount"]),
                row["round_id"],
                row["seat"],
                str(row["purpose"]),
            )
        )
    closed: dict[int, list[tuple[str, str, int]]] = {}
    closure_query = select(hold_closures)
    if only is not None:
        closure_query = closure_query.where(hold_closures.c.tx_id.in_(round_txs))
    for row in conn.execute(closure_query).mappings():
        hold_id = int(row["hold_id"])
        authorize = authorize_of.get(hold_id)
        closed.setdefault(int(row["tx_id"]), []).append(
            (
                chain_mod.hold_ref(keys[authorize], kinds[authorize], seat_of[hold_id])
                if authorize in keys
                else f"#missing-hold-{hold_id}",
                str(row["status"]),
                int(row["captured"]),
            )
        )
    ends: dict[int, dict[str, Any]] = {}
    for row in conn.execute(of_rounds(select(round_ends), round_ends.c.round_id)).mappings():
        ends[int(row["tx_id"])] = chain_mod.end_fields(
            str(row["status"]), row["result"], row["accounts"], row["reason"], row["closed_at"]
        )

    def home_of(round_id: str | None) -> str:
        table = None if round_id is None else table_of_round.get(round_id)
        return chain_mod.LEDGER_CHAIN if table is None else chain_mod.table_chain(table)

    out: list[Record] = []
    for row in conn.execute(of_rounds(select(transactions), transactions.c.round_id)).mappings():
        tid = int(row["id"])

        def build_tx(chain: str, seq: int, row: Any = row, tid: int = tid) -> dict[str, Any]:
            return chain_mod.tx_record(
                chain=chain,
                seq=seq,
                key=str(row["key"]),
                kind=str(row["kind"]),
                body_hash=str(row["body_hash"]),
                round_id=row["round_id"],
                reverses=None if row["reverses"] is None else keys.get(int(row["reverses"])),
                memo=str(row["memo"]),
                detail=row["detail"],
                created_at=row["created_at"],
                entries=legs.get(tid, []),
                holds=opened.get(tid, []),
                closes=closed.get(tid, []),
                end=ends.get(tid),
            )

        out.append(
            Record(
                "transactions",
                tid,
                f"transaction {tid} {row['key']!r}",
                row["chain"],
                row["chain_seq"],
                row["mac"],
                row["created_at"],
                home_of(row["round_id"]),
                build_tx,
                1,
                () if row["round_id"] is None else (str(row["round_id"]),),
            )
        )

    players: dict[str, list[tuple[str, str, str, int]]] = {}
    for row in conn.execute(of_rounds(select(round_players), round_players.c.round_id)).mappings():
        players.setdefault(str(row["round_id"]), []).append(
            (str(row["seat"]), str(row["user_id"]), str(row["account"]), int(row["start_balance"]))
        )
    for row in conn.execute(of_rounds(select(rounds), rounds.c.id)).mappings():
        rid = str(row["id"])

        def build_round(chain: str, seq: int, row: Any = row, rid: str = rid) -> dict[str, Any]:
            return chain_mod.round_record(
                chain=chain,
                seq=seq,
                round_id=rid,
                table_id=str(row["table_id"]),
                game=str(row["game"]),
                config=row["config"],
                seats=row["seats"],
                context=row["context"],
                meta=row["meta"],
                commitment=str(row["seed_commitment"]),
                seed=str(row["seed"]),
                opened_at=row["opened_at"],
                players=players.get(rid, []),
            )

        out.append(
            Record(
                "rounds",
                rid,
                f"round {rid} (header)",
                row["chain"],
                row["chain_seq"],
                row["mac"],
                row["opened_at"],
                chain_mod.table_chain(str(row["table_id"])),
                build_round,
                0,
                (rid,),
            )
        )

    for row in conn.execute(of_rounds(select(round_log), round_log.c.round_id)).mappings():
        lid = int(row["id"])

        def build_log(chain: str, seq: int, row: Any = row) -> dict[str, Any]:
            return chain_mod.log_record(
                chain=chain,
                seq=seq,
                round_id=str(row["round_id"]),
                n=int(row["seq"]),
                kind=str(row["kind"]),
                seat=row["seat"],
                payload=row["payload"],
                visible_to=row["visible_to"],
                client_id=row["client_id"],
                created_at=row["created_at"],
            )

        out.append(
            Record(
                "round_log",
                lid,
                f"journal record {row['seq']} of round {row['round_id']}",
                row["chain"],
                row["chain_seq"],
                row["mac"],
                row["created_at"],
                home_of(str(row["round_id"])),
                build_log,
                2,
                (str(row["round_id"]),),
            )
        )

    first_round = aliased(rounds)
    revealed_home: dict[str, str] = {}
    dealt_from: dict[str, list[str]] = {}
    for c, t, r in conn.execute(
        of_rounds(
            select(first_round.c.seed_commitment, first_round.c.table_id, first_round.c.id),
            first_round.c.id,
        )
    ):
        revealed_home[str(c)] = chain_mod.table_chain(str(t))
        dealt_from.setdefault(str(c), []).append(str(r))
    reveal_query = select(seed_reveals)
    if only is not None:
        reveal_query = reveal_query.where(seed_reveals.c.seed_commitment.in_(list(revealed_home)))
    for row in conn.execute(reveal_query).mappings():
        commitment = str(row["seed_commitment"])

        def build_reveal(chain: str, seq: int, row: Any = row) -> dict[str, Any]:
            return chain_mod.reveal_record(
                chain=chain,
                seq=seq,
                commitment=str(row["seed_commitment"]),
                seed=str(row["seed"]),
                revealed_at=row["revealed_at"],
            )

        out.append(
            Record(
                "seed_reveals",
                commitment,
                f"seed reveal of {commitment[:16]}…",
                row["chain"],
                row["chain_seq"],
                row["mac"],
                row["revealed_at"],
                revealed_home.get(commitment, chain_mod.LEDGER_CHAIN),
                build_reveal,
                3,
                tuple(dealt_from.get(commitment, ())),
            )
        )
    return out


__all__ = ["Record", "load"]
