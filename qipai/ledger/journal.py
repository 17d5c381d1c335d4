"""The round journal, read back: a round's header (table, game, config, seats, context, meta, seed
commitment, the seed once revealed), every action and event in order, its holds, and how it
ended (status, result, settlement transaction and the chain head it left), with each player's
start balance and result.

Nothing here is stored mutably: the status is whether the round has an end (`round_ends`), a
hold's status whether it has a closure, and a player's result the sum of the entries on their
table stack in the round's transactions (what the chained records say). The writes are
`qipai.ledger.book` (`OpenRound`, `Append`, `Settle`, `VoidRound`, `Reveal`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, and_, func, select

from qipai.ledger import holds as holds_mod
from qipai.ledger import sealing
from qipai.ledger.book import seat_key, settle_key, stakes_key, void_key
from qipai.ledger.errors import RoundStateError, UnknownRound
from qipai.ledger.schema import (
    accounts,
    entries,
    round_ends,
    round_log,
    round_players,
    rounds,
    seed_reveals,
    transactions,
)

META_MAX_BYTES = 16_384


def check_meta(meta: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A round's identification as JSON (an object of at most 16 kB), or RoundStateError."""
    if meta is None:
        return None
    if not isinstance(meta, Mapping):
        raise RoundStateError(f"round meta must be a JSON object, not {type(meta).__name__}")
    try:
        text = json.dumps(dict(meta), sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise RoundStateError(f"round meta is not JSON: {exc}") from None
    if len(text.encode()) > META_MAX_BYTES:
        raise RoundStateError(f"round meta is over {META_MAX_BYTES} bytes")
    loaded = json.loads(text)
    assert isinstance(loaded, dict)
    return loaded


def log_of(conn: Connection, round_id: str) -> list[dict[str, Any]]:
    rows = conn.execute(
        select(round_log).where(round_log.c.round_id == round_id).order_by(round_log.c.seq)
    ).mappings()
    return [
        {
            "seq": int(r["seq"]),
            "kind": r["kind"],
            "seat": r["seat"],
            "payload": r["payload"],
            "to": r["visible_to"],
            "client_id": r["client_id"],
            "at": r["created_at"].isoformat(),
        }
        for r in rows
    ]


def results_of(conn: Connection, round_ids: list[str]) -> dict[tuple[str, str], int]:
    """(round, stack account) → the sum of the stack's entries in the round's transactions:
    the player's result of the round (stake held and returned, winnings, losses)."""
    if not round_ids:
        return {}
    found = conn.execute(
        select(transactions.c.round_id, accounts.c.name, func.sum(entries.c.amount))
        .join(entries, entries.c.tx_id == transactions.c.id)
        .join(accounts, accounts.c.id == entries.c.account_id)
        .where(and_(transactions.c.round_id.in_(round_ids), accounts.c.kind == "stack"))
        .group_by(transactions.c.round_id, accounts.c.name)
    ).all()
    return {(str(r), str(a)): int(n) for r, a, n in found}


def open_seed(keys_seed: bytes, row: Any) -> str:
    """A round's seed (hex), opened from its sealed box."""
    return sealing.open_seed(
        keys_seed, str(row["seed"]), str(row["id"]), str(row["seed_commitment"])
    ).hex()


def fetch(
    conn: Connection, round_id: str, *, include_seed: bool, seed_key: bytes | None = None
) -> dict[str, Any]:
    """The whole journal of a round as JSON. The seed is shown once revealed, or to an operator
    (`include_seed=True`, which opens the sealed seed with `seed_key`)."""
    row = conn.execute(select(rounds).where(rounds.c.id == round_id)).mappings().first()
    if row is None:
        raise UnknownRound(f"no round {round_id!r}")
    end = (
        conn.execute(select(round_ends).where(round_ends.c.round_id == round_id)).mappings().first()
    )
    revealed = conn.execute(
        select(seed_reveals.c.seed).where(seed_reveals.c.seed_commitment == row["seed_commitment"])
    ).scalar()
    players = conn.execute(
        select(round_players)
        .where(round_players.c.round_id == round_id)
        .order_by(round_players.c.seat)
    ).mappings()
    seed: str | None = None if revealed is None else str(revealed)
    if seed is None and include_seed:
        if seed_key is None:
            raise RoundStateError("opening a sealed seed needs the ledger's key")
        seed = open_seed(seed_key, row)
    settle_head = None
    if end is not None:
        tx = conn.execute(
            select(transactions.c.chain, transactions.c.chain_seq, transactions.c.mac).where(
                transactions.c.id == end["tx_id"]
            )
        ).first()
        if tx is not None:
            settle_head = {"chain": tx[0], "seq": tx[1], "mac": tx[2]}
    nets = results_of(conn, [round_id]) if end is not None else {}
    return {
        "round_id": row["id"],
        "table_id": row["table_id"],
        "game": row["game"],
        "config": row["config"],
        "seats": row["seats"],
        "context": row["context"],
        "meta": row["meta"],
        "seed_commitment": row["seed_commitment"],
        "seed": seed,
        "seed_revealed": revealed is not None,
        "status": "open" if end is None else end["status"],
        "accounts": None if end is None else end["accounts"],
        "result": None if end is None else end["result"],
        "settlement_tx": None if end is None or end["status"] != "settled" else end["tx_id"],
        "void_reason": None if end is None else end["reason"],
        "chain_head": settle_head,
        "opened_at": row["opened_at"].isoformat(),
        "closed_at": None if end is None else end["closed_at"].isoformat(),
        "players": [
            _player(p, end is not None, nets.get((round_id, str(p["account"])), 0)) for p in players
        ],
        "log": log_of(conn, round_id),
        "holds": [h.to_json() for h in holds_mod.of_round(conn, round_id)],
    }


def _player(p: Any, ended: bool, net: int) -> dict[str, Any]:
    start = int(p["start_balance"])
    return {
        "seat": p["seat"],
        "user_id": p["user_id"],
        "account": p["account"],
        "start_balance": start,
        "end_balance": start + net if ended else None,
        "net": net if ended else None,
    }


__all__ = [
    "check_meta",
    "fetch",
    "log_of",
    "results_of",
    "seat_key",
    "settle_key",
    "stakes_key",
    "void_key",
]
