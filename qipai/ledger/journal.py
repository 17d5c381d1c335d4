"""The round journal: table, game, config, seats, seed commitment and seed, every action and event
in order, status, and the settlement transaction.

A round is opened before any bet (the seed is stored from the start, but shown to players only
once revealed), actions and events are appended while it runs, and `settle` applies the game's
`RoundResult` — capturing the round's holds, posting the mapped postings, recording the result and
each player's ending balance and flipping the status — in ONE database transaction.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, RowMapping, and_, bindparam, func, select

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
from qipai.ledger import holds as holds_mod
from qipai.ledger.errors import RoundStateError, UnknownAccount, UnknownRound
from qipai.ledger.leases import Fence, check_fence
from qipai.ledger.posting import (
    FaultHook,
    TxResult,
    account_rows,
    balance_of,
    find_tx,
    no_fault,
    post,
)
from qipai.ledger.schema import round_log, round_players, rounds, utcnow

# Statements built once (building and cache-keying them per call cost more than running them).
_ROUND_EXISTS = select(rounds.c.id).where(rounds.c.id == bindparam("r_round"))
_INSERT_ROUND = rounds.insert()
_ROUND_ROW = select(rounds).where(rounds.c.id == bindparam("r_round"))
_ROUND_ROW_LOCKED = _ROUND_ROW.with_for_update()
# what settling needs of the round row (not its JSON columns, decoded for nothing)
_SETTLE_ROW = (
    select(rounds.c.table_id, rounds.c.status, rounds.c.seed_revealed)
    .where(rounds.c.id == bindparam("r_round"))
    .with_for_update()
)
_ROUND_STATUS_LOCKED = (
    select(rounds.c.status, rounds.c.table_id)
    .where(rounds.c.id == bindparam("r_round"))
    .with_for_update()
)
_PLAYER_ROWS = select(
    round_players.c.seat,
    round_players.c.user_id,
    round_players.c.account,
    round_players.c.start_balance,
).where(round_players.c.round_id == bindparam("r_round"))
_SETTLED = (
    rounds.update()
    .where(and_(rounds.c.id == bindparam("r_round"), rounds.c.status == "open"))
    .values(
        status="settled",
        result=bindparam("r_result", type_=rounds.c.result.type),
        accounts=bindparam("r_accounts", type_=rounds.c.accounts.type),
        settlement_tx=bindparam("r_tx", type_=rounds.c.settlement_tx.type),
        closed_at=bindparam("r_at", type_=rounds.c.closed_at.type),
        seed_revealed=bindparam("r_revealed", type_=rounds.c.seed_revealed.type),
    )
)
_STARTS = select(
    round_players.c.seat, round_players.c.account, round_players.c.start_balance
).where(round_players.c.round_id == bindparam("r_round"))
_INSERT_LOG = round_log.insert()
_MAX_SEQ = select(func.coalesce(func.max(round_log.c.seq), 0)).where(
    round_log.c.round_id == bindparam("r_round")
)


def settle_key(round_id: str) -> str:
    return f"round:{round_id}:settle"


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


def seat_key(round_id: str, seat: str, purpose: str) -> str:
    """The idempotency key of a seat's money movement in a round (a bet hold, a top-up…)."""
    return f"round:{round_id}:seat:{seat}:{purpose}"


def open_round(
    conn: Connection,
    *,
    round_id: str,
    table_id: str,
    game: str,
    config: Mapping[str, Any],
    seats: Sequence[Seat],
    players: Mapping[str, str],
    seed: bytes,
    context: Mapping[str, Any] | None,
    meta: Mapping[str, Any] | None = None,
    also: Sequence[str] = (),
) -> dict[str, tuple[int, int]]:
    """Journal the round header and its players; returns name → (id, balance) of the players'
    stacks and of the accounts in `also` (read in the same statement, created if missing)."""
    acct.check_id(table_id, "table")
    if not acct.valid_id(round_id):
        raise RoundStateError(f"invalid round id {round_id!r}: use 1-64 letters, digits, _ . @ -")
    if not isinstance(game, str) or not 0 < len(game) <= 32:
        raise RoundStateError(f"invalid game name {game!r}")
    if conn.execute(_ROUND_EXISTS, {"r_round": round_id}).first() is not None:
        raise RoundStateError(f"round {round_id!r} already exists")
    seat_ids = [s.id for s in seats]
    unknown = set(players) - set(seat_ids)
    if unknown:
        raise RoundStateError(f"players mapped to seats not in the round: {sorted(unknown)}")
    now = utcnow()
    conn.execute(
        _INSERT_ROUND,
        {
            "id": round_id,
            "table_id": table_id,
            "game": game,
            "config": dict(config),
            "seats": [s.to_json() for s in seats],
            "context": None if context is None else dict(context),
            "meta": None if meta is None else dict(meta),
            "seed_commitment": commit(seed),
            "seed": seed.hex(),
            "seed_revealed": False,
            "status": "open",
            "opened_at": now,
        },
    )
    stacks = {seat: acct.stack(user_id, table_id) for seat, user_id in players.items()}
    # an unknown player has no stack yet, and account_rows refuses to create one for them
    rows = account_rows(conn, [*stacks.values(), *also])
    if stacks:
        conn.execute(
            round_players.insert(),
            [
                {
                    "round_id": round_id,
                    "seat": seat,
                    "user_id": players[seat],
                    "account": stack,
                    "start_balance": rows[stack][1],
                    "opened_at": now,
                }
                for seat, stack in stacks.items()
            ],
        )
    return rows


def _round_row(conn: Connection, round_id: str, *, lock: bool = False) -> RowMapping:
    query = _ROUND_ROW_LOCKED if lock else _ROUND_ROW
    row = conn.execute(query, {"r_round": round_id}).mappings().first()
    if row is None:
        raise UnknownRound(f"no round {round_id!r}")
    return row


def _event_row(item: Event | Mapping[str, Any]) -> tuple[dict[str, Any], list[str] | None]:
    """An event's stored payload and audience. A plain JSON event may carry its audience under
    "to" (a list of seat ids); without it the event is public."""
    if isinstance(item, Event):
        return item.to_json(), None if item.to is None else list(item.to)
    payload = {k: v for k, v in item.items() if k != "to"}
    to = item.get("to")
    return payload, None if to is None else [str(s) for s in to]


def append(
    conn: Connection,
    round_id: str,
    items: Sequence[RecordedAction | Event | Mapping[str, Any]],
    client_id: str | None = None,
    *,
    fence: Fence | None = None,
) -> int:
    """Append actions and events in order; returns the last sequence number.

    `client_id` (the client's id for the action, if any) is stored with the first action so that a
    client's retry can be recognized after a restart."""
    return append_groups(conn, round_id, [(items, client_id)], fence=fence)


def append_groups(
    conn: Connection,
    round_id: str,
    groups: Sequence[tuple[Sequence[RecordedAction | Event | Mapping[str, Any]], str | None]],
    last_seq: int | None = None,
    *,
    fence: Fence | None = None,
) -> int:
    """Append several (items, client_id) groups in order, in one statement: what `append` does
    for each group (a table journals the simultaneous moves of its bots in one transaction).

    `last_seq`: the round's last sequence number as the caller remembers it (saves reading it);
    if someone else appended since, the unique (round, seq) constraint refuses the insert."""
    found = conn.execute(_ROUND_STATUS_LOCKED, {"r_round": round_id}).first()
    if found is None:
        raise UnknownRound(f"no round {round_id!r}")
    status = found[0]
    check_fence(conn, fence, str(found[1]))
    if status != "open":
        raise RoundStateError(f"round {round_id!r} is {status}; its log is closed")
    if last_seq is None:
        last_seq = int(conn.execute(_MAX_SEQ, {"r_round": round_id}).scalar_one())
    seq = last_seq
    now = utcnow()
    values = []
    for items, first_client_id in groups:
        client_id = first_client_id
        for item in items:
            seq += 1
            if isinstance(item, RecordedAction):
                values.append(
                    {
                        "round_id": round_id,
                        "seq": seq,
                        "kind": "action",
                        "seat": item.seat,
                        "payload": dict(item.action),
                        "visible_to": None,
                        "client_id": client_id,
                        "created_at": now,
                    }
                )
                client_id = None
            else:
                payload, to = _event_row(item)
                values.append(
                    {
                        "round_id": round_id,
                        "seq": seq,
                        "kind": "event",
                        "seat": None,
                        "payload": payload,
                        "visible_to": to,
                        "client_id": None,
                        "created_at": now,
                    }
                )
    if values:
        conn.execute(_INSERT_LOG, values)
    return seq


def default_accounts(
    table_id: str, players: Mapping[str, str], overrides: Mapping[str, str] | None
) -> dict[str, str]:
    """Posting account → ledger account: seats (and the players' own ids) to the players' table
    stacks, house accounts to
    the ledger's (`jackpot` to the table's pool `jackpot:<table>`), then the caller's overrides."""
    mapping = {user: acct.stack(user, table_id) for user in players.values()}
    mapping.update({seat: acct.stack(user, table_id) for seat, user in players.items()})
    mapping.update(
        {
            HOUSE: acct.HOUSE,
            COMMISSION: acct.COMMISSION,
            ROUNDING: acct.ROUNDING,
            JACKPOT: acct.jackpot(table_id),
        }
    )
    mapping.update(overrides or {})
    return mapping


def settlement_legs(
    result: RoundResult, mapping: Mapping[str, str], captured: Sequence[holds_mod.Hold]
) -> dict[str, int]:
    """The net movement of every ledger account when `result` settles with these holds captured."""
    legs: dict[str, int] = {}
    for posting in result.postings:
        if posting.account not in mapping:
            raise UnknownAccount(
                f"posting account {posting.account!r} has no ledger account (pass accounts=)"
            )
        name = mapping[posting.account]
        legs[name] = legs.get(name, 0) + posting.amount
    for hold in captured:
        legs[hold.hold_account] = legs.get(hold.hold_account, 0) - hold.amount
        legs[hold.account] = legs.get(hold.account, 0) + hold.amount
    return {k: v for k, v in legs.items() if v != 0}


def settle(
    conn: Connection,
    *,
    round_id: str,
    result: RoundResult,
    accounts: Mapping[str, str] | None,
    reveal_seed: bool,
    fault: FaultHook = no_fault,
    fence: Fence | None = None,
) -> TxResult:
    key = settle_key(round_id)
    body = {
        "op": "settle",
        "round": round_id,
        "result": result.to_json(),
        "accounts": dict(accounts or {}),
    }
    row = conn.execute(_SETTLE_ROW, {"r_round": round_id}).mappings().first()
    if row is None:
        raise UnknownRound(f"no round {round_id!r}")
    check_fence(conn, fence, str(row["table_id"]))
    earlier = find_tx(conn, key, body)
    if earlier is not None:
        return earlier
    if row["status"] != "open":
        raise RoundStateError(f"round {round_id!r} is already {row['status']}")
    player_rows = conn.execute(_PLAYER_ROWS, {"r_round": round_id}).all()
    players = {str(r[0]): str(r[1]) for r in player_rows}
    mapping = default_accounts(str(row["table_id"]), players, accounts)
    open_holds = holds_mod.of_round(conn, round_id, status="open", lock=True)
    legs = settlement_legs(result, mapping, open_holds)
    tx = post(
        conn,
        key=key,
        kind="settle",
        legs=legs,
        body=body,
        memo=f"settle round {round_id}",
        round_id=round_id,
        detail={
            "postings": [p.to_json() for p in result.postings],
            "holds": [h.id for h in open_holds],
        },
        allow_empty=True,
        fault=fault,
        checked=True,
    )
    holds_mod.close_all(conn, open_holds, status="captured", tx_id=tx.tx_id)
    fault("after_holds_closed")
    used = {p.account: mapping[p.account] for p in result.postings}
    done = conn.execute(
        _SETTLED,
        {
            "r_round": round_id,
            "r_result": result.to_json(),
            "r_accounts": used,
            "r_tx": tx.tx_id,
            "r_at": utcnow(),
            "r_revealed": bool(reveal_seed) or bool(row["seed_revealed"]),
        },
    )
    if done.rowcount != 1:
        raise RoundStateError(f"round {round_id!r} was closed concurrently")
    _record_end_balances(conn, round_id, tx, [(r[0], r[2], r[3]) for r in player_rows])
    return tx


_SET_END = (
    round_players.update()
    .where(
        and_(
            round_players.c.round_id == bindparam("r_id"),
            round_players.c.seat == bindparam("r_seat"),
        )
    )
    .values(end_balance=bindparam("r_end"), net=bindparam("r_net"))
)


def _record_end_balances(
    conn: Connection,
    round_id: str,
    tx: TxResult,
    rows: Sequence[tuple[Any, Any, Any]] | None = None,
) -> None:
    """Each player's table stack after the round, and its change since the round opened.
    `rows` (seat, account, start balance) when the caller already read them in this transaction."""
    if rows is None:
        rows = [tuple(r) for r in conn.execute(_STARTS, {"r_round": round_id})]
    values = []
    for seat, account, start in rows:
        after = tx.balance_after(str(account))
        end = after if after is not None else balance_of(conn, str(account))
        values.append({"r_id": round_id, "r_seat": seat, "r_end": end, "r_net": end - int(start)})
    if values:
        conn.execute(_SET_END, values)


def void_round(
    conn: Connection,
    *,
    round_id: str,
    reason: str,
    fault: FaultHook = no_fault,
    fence: Fence | None = None,
) -> TxResult:
    """Cancel an unfinished round: every open hold returns to its source, status `voided`."""
    key = f"round:{round_id}:void"
    body = {"op": "void_round", "round": round_id}
    row = _round_row(conn, round_id, lock=True)
    check_fence(conn, fence, str(row["table_id"]))
    earlier = find_tx(conn, key, body)
    if earlier is not None:
        return earlier
    if row["status"] != "open":
        raise RoundStateError(f"round {round_id!r} is already {row['status']}")
    open_holds = holds_mod.of_round(conn, round_id, status="open", lock=True)
    legs: dict[str, int] = {}
    for hold in open_holds:
        legs[hold.hold_account] = legs.get(hold.hold_account, 0) - hold.amount
        legs[hold.account] = legs.get(hold.account, 0) + hold.amount
    tx = post(
        conn,
        key=key,
        kind="void_round",
        legs=legs,
        body=body,
        memo=reason,
        round_id=round_id,
        detail={"holds": [h.id for h in open_holds]},
        allow_empty=True,
        fault=fault,
        checked=True,
    )
    holds_mod.close_all(conn, open_holds, status="voided", tx_id=tx.tx_id)
    conn.execute(
        rounds.update()
        .where(rounds.c.id == round_id)
        .values(status="voided", closed_at=utcnow(), seed_revealed=True)
    )
    _record_end_balances(conn, round_id, tx)
    return tx


def reveal(conn: Connection, seed_commitment: str) -> int:
    """Reveal the seed of every round dealt from this commitment (a shoe ended); returns count."""
    done = conn.execute(
        rounds.update()
        .where(rounds.c.seed_commitment == seed_commitment.lower())
        .values(seed_revealed=True)
    )
    return int(done.rowcount)


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


def fetch(conn: Connection, round_id: str, *, include_seed: bool) -> dict[str, Any]:
    """The whole journal of a round as JSON. The seed is shown once revealed, or to an operator
    (`include_seed=True`)."""
    row = _round_row(conn, round_id)
    players = conn.execute(
        select(round_players)
        .where(round_players.c.round_id == round_id)
        .order_by(round_players.c.seat)
    ).mappings()
    show_seed = include_seed or bool(row["seed_revealed"])
    return {
        "round_id": row["id"],
        "table_id": row["table_id"],
        "game": row["game"],
        "config": row["config"],
        "seats": row["seats"],
        "context": row["context"],
        "meta": row["meta"],
        "seed_commitment": row["seed_commitment"],
        "seed": row["seed"] if show_seed else None,
        "seed_revealed": bool(row["seed_revealed"]),
        "status": row["status"],
        "accounts": row["accounts"],
        "result": row["result"],
        "settlement_tx": row["settlement_tx"],
        "opened_at": row["opened_at"].isoformat(),
        "closed_at": None if row["closed_at"] is None else row["closed_at"].isoformat(),
        "players": [
            {
                "seat": p["seat"],
                "user_id": p["user_id"],
                "account": p["account"],
                "start_balance": p["start_balance"],
                "end_balance": p["end_balance"],
                "net": p["net"],
            }
            for p in players
        ],
        "log": log_of(conn, round_id),
        "holds": [h.to_json() for h in holds_mod.of_round(conn, round_id)],
    }
