"""Tamper evidence: every record the ledger writes carries a chained MAC.

    mac(record) = HMAC-SHA256(mac_key, mac(previous record of its chain) ‖ canonical(record))

with the key outside the database (`qipai.ledger.keys`). A *record* is one of:

* a ledger **transaction** (`transactions` row) together with everything it decides: its entries
  (account name and amount), the hold it opens (`holds` row), the holds it closes
  (`hold_closures` rows) and, for a settlement or a void, the round's end (`round_ends` row:
  status, result, posting accounts, reason);
* a round's **header** (`rounds` row: table, game, config, seats, context, meta, seed commitment,
  the sealed seed) with its players (`round_players` rows: seat, user, stack, start balance);
* a **journal record** (`round_log` row: an action or an event of a round);
* a **seed reveal** (`seed_reveals` row: a deal unit ended and its seed is public).

Chains: one per table (`table:<table id>`: its rounds' headers, journal records, reveals and the
transactions of `open_round`, `settle_round` and `void_round`) and one for everything else
(`ledger`: deposits, withdrawals, buy-ins, cash-outs, transfers, adjustments, pool funding, holds
outside rounds). A table's chain has one writer at a time — the table's owner — so tables never
contend for a chain head; the ledger chain is shared by the wallet traffic of every table.

Position and link: a record carries (`chain`, `chain_seq`, `mac`); `chain_seq` counts 1, 2, 3…
and the first record's previous MAC is 32 zero bytes. `chain_heads` keeps each chain's last
(seq, mac) as a cache for writers (a compare-and-set on it serializes writers of one chain);
`qipai audit` recomputes every chain from the records and compares. Deleting the newest records
of a chain leaves a valid shorter chain, which `qipai audit --expect-heads FILE` catches against
heads printed earlier (`--heads`), as does a player who kept the head their settled round showed.

What is *not* under the MAC, because it is derived and audit recomputes it: account balances
(the sum of entries), entries' `balance_after` (the running sum in entry order), database ids, a
round's status (whether it has an end), a hold's status (whether it has a closure) and players'
results (the sum of their stack's entries in the round's transactions).

Canonical bytes: the record as a JSON object (keys sorted, no spaces, ASCII, no NaN) — JSON
values are first normalized by a JSON round trip, exactly as the database returns them;
timestamps as `YYYY-MM-DDTHH:MM:SS.ffffffZ` (UTC, microseconds: what both databases keep).
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

GENESIS = "00" * 32
LEDGER_CHAIN = "ledger"


def table_chain(table_id: str) -> str:
    return f"table:{table_id}"


STAKES = "stakes"
"""The kind of a round's stakes transaction: one transaction opening a hold for every seat that
staked (before, one `hold` transaction per seat)."""


def hold_ref(authorize_key: str, authorize_kind: str, seat: str | None) -> str:
    """How a closing transaction's record names a hold it closes (`closes`): the key of the
    transaction that opened it — and, when that transaction is a round's stakes (one hold per
    seat), `<key>#<seat>`."""
    return f"{authorize_key}#{seat}" if authorize_kind == STAKES else authorize_key


def normal(value: Any) -> Any:
    """A JSON value as the database gives it back (tuples → lists, int keys → strings)."""
    if value is None or isinstance(value, str | int | bool):
        return value
    return json.loads(json.dumps(value, allow_nan=False))


class JText(str):
    """A JSON value already in canonical text (the writer serializes each value once: the same
    text is stored in the database and MACed)."""

    __slots__ = ()


_SLOW_ENCODE = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
).encode
_C_ENCODER = getattr(json.encoder, "c_make_encoder", None)


def _raise(value: Any) -> Any:
    raise TypeError(f"{type(value).__name__} is not JSON")


_iterencode = (
    None
    if _C_ENCODER is None
    else _C_ENCODER(
        None, _raise, json.encoder.encode_basestring_ascii, None, ":", ",", True, False, False
    )
)
"""The C encoder built once (`JSONEncoder.encode` builds one per call): the same output."""


def _ENCODE(value: Any) -> str:
    if isinstance(value, str):
        return str(json.encoder.encode_basestring_ascii(value))
    if _iterencode is None:  # pragma: no cover
        return _SLOW_ENCODE(value)
    return "".join(_iterencode(value, 0))


def jtext(value: Any) -> JText:
    """`value` in canonical JSON text, as it will read back from the database (a mapping with
    keys of mixed types is normalized first). ValueError for NaN/Infinity or non-JSON data."""
    if isinstance(value, JText):
        return value
    try:
        return JText(_ENCODE(value))
    except TypeError:
        return JText(_ENCODE(normal(value)))


def ts(value: datetime) -> str:
    """`YYYY-MM-DDTHH:MM:SS.ffffffZ` (UTC; what `strftime("%Y-%m-%dT%H:%M:%S.%fZ")` gives for
    years 1000-9999, at a fraction of its cost)."""
    if value.tzinfo is not UTC:
        value = value.astimezone(UTC)
    return value.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


_ASCII = json.encoder.encode_basestring_ascii


_ORDER: dict[tuple[Any, ...], list[tuple[Any, str]]] = {}
"""An object's keys → its keys in sorted order, each with its `"key":` prefix (records of one
kind share their keys: sorted and formatted once)."""


def _order(value: dict[Any, Any]) -> list[tuple[Any, str]]:
    keys = tuple(value)
    found = _ORDER.get(keys)
    if found is None:
        if len(_ORDER) >= 4096:  # bounded: objects with ever new keys are user data
            _ORDER.clear()
        found = _ORDER[keys] = [(k, f'"{k}":') for k in sorted(value)]
    return found


def _encode(value: Any) -> str:
    """Objects key by key (their values may be `JText`); anything else in one dump (lists in a
    record hold no `JText`); the common scalars without calling the encoder."""
    kind = type(value)
    if kind is JText:
        return value  # type: ignore[no-any-return]
    if kind is str:
        return str(_ASCII(value))
    if kind is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    if kind is dict:
        return "{" + ",".join([p + _encode(value[k]) for k, p in _order(value)]) + "}"
    return _ENCODE(value)


def canonical(record: Mapping[str, Any]) -> bytes:
    """The record's bytes: JSON with sorted keys, no spaces, ASCII, no NaN — values the writer
    serialized already (`JText`) are used as they are (the same text as a fresh dump)."""
    return _encode(dict(record)).encode("ascii")


def mac(key: bytes, previous: str, record: Mapping[str, Any]) -> str:
    return hmac.digest(key, bytes.fromhex(previous) + canonical(record), "sha256").hex()


# ----- the records -------------------------------------------------------------------------
def tx_record(
    *,
    chain: str,
    seq: int,
    key: str,
    kind: str,
    body_hash: str,
    round_id: str | None,
    reverses: str | None,
    memo: str,
    detail: Any,
    created_at: datetime,
    entries: Sequence[tuple[str, int]],
    holds: Sequence[tuple[str, str, int, str | None, str | None, str]],
    closes: Sequence[tuple[str, str, int]],
    end: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """A transaction: `entries` (account, amount), `holds` it opens (source, hold account,
    amount, round, seat, purpose), `closes` (the closed hold's authorize key, status, amount
    captured), `end` (the round end it records: status, result, accounts, reason, at)."""
    return {
        "r": "tx",
        "chain": chain,
        "seq": seq,
        "key": key,
        "kind": kind,
        "body": body_hash,
        "round": round_id,
        "reverses": reverses,
        "memo": memo,
        "detail": detail,
        "at": ts(created_at),
        "entries": sorted([str(a), int(n)] for a, n in entries),
        "holds": sorted([s, h, int(n), r, t, p] for s, h, n, r, t, p in holds),
        "closes": sorted([k, s, int(c)] for k, s, c in closes),
        "end": None if end is None else dict(end),
    }


def end_fields(
    status: str,
    result: Any,
    accounts: Any,
    reason: str | None,
    closed_at: datetime,
) -> dict[str, Any]:
    return {
        "status": status,
        "result": result,
        "accounts": accounts,
        "reason": reason,
        "at": ts(closed_at),
    }


def round_record(
    *,
    chain: str,
    seq: int,
    round_id: str,
    table_id: str,
    game: str,
    config: Any,
    seats: Any,
    context: Any,
    meta: Any,
    commitment: str,
    seed: str,
    opened_at: datetime,
    players: Sequence[tuple[str, str, str, int]],
) -> dict[str, Any]:
    """A round's header; `players` are (seat, user, stack account, start balance)."""
    return {
        "r": "round",
        "chain": chain,
        "seq": seq,
        "id": round_id,
        "table": table_id,
        "game": game,
        "config": config,
        "seats": seats,
        "context": context,
        "meta": meta,
        "commitment": commitment,
        "seed": seed,
        "at": ts(opened_at),
        "players": sorted([s, u, a, int(b)] for s, u, a, b in players),
    }


def log_record(
    *,
    chain: str,
    seq: int,
    round_id: str,
    n: int,
    kind: str,
    seat: str | None,
    payload: Any,
    visible_to: Any,
    client_id: str | None,
    created_at: datetime,
) -> dict[str, Any]:
    return {
        "r": "log",
        "chain": chain,
        "seq": seq,
        "round": round_id,
        "n": n,
        "kind": kind,
        "seat": seat,
        "payload": payload,
        "to": visible_to,
        "client": client_id,
        "at": ts(created_at),
    }


def reveal_record(
    *, chain: str, seq: int, commitment: str, seed: str, revealed_at: datetime
) -> dict[str, Any]:
    return {
        "r": "reveal",
        "chain": chain,
        "seq": seq,
        "commitment": commitment,
        "seed": seed,
        "at": ts(revealed_at),
    }


# ----- the same bytes, written directly (the writer's hot path) ------------------------------
# `canonical(tx_record(...))` builds a dict and sorts its keys per record; the writer seals 7
# records per round, so these write the same bytes straight from the fields, in the sorted key
# order spelled out below. `tests/ledger/test_canonical.py` checks them byte for byte against the
# definition; `qipai audit` recomputes every MAC through the definition.
_LAST_TS: tuple[datetime | None, str] = (None, "")


def _ts(value: datetime) -> str:
    """`ts`, remembering the last timestamp (a plan's records share one)."""
    global _LAST_TS
    last, text = _LAST_TS
    if value is last:
        return text
    text = ts(value)
    _LAST_TS = (value, text)
    return text


def _s(value: Any) -> str:
    """A field that is a string (or None) in every record the writer makes; anything else (a
    `JText`, or a caller's other type) as the definition encodes it."""
    return str(_ASCII(value)) if type(value) is str else _encode(value)


def tx_bytes(
    *,
    chain: str,
    seq: int,
    key: str,
    kind: str,
    body_hash: str,
    round_id: str | None,
    reverses: str | None,
    memo: str,
    detail: Any,
    created_at: datetime,
    entries: Sequence[tuple[str, int]],
    holds: Sequence[tuple[str, str, int, str | None, str | None, str]],
    closes: Sequence[tuple[str, str, int]],
    end: Mapping[str, Any] | None,
) -> bytes:
    """`canonical(tx_record(...))` with the same arguments (an empty list is written `[]`
    without the encoder: a stake's hold closes nothing, a settlement opens no hold)."""
    return (
        f'{{"at":"{_ts(created_at)}","body":{_s(body_hash)},"chain":{_s(chain)},'
        f'"closes":{_ENCODE(sorted([k, s, int(c)] for k, s, c in closes)) if closes else "[]"},'
        f'"detail":{_encode(detail)},'
        f'"end":{"null" if end is None else _encode(dict(end))},'
        f'"entries":{_ENCODE(sorted([str(a), int(n)] for a, n in entries))},'
        f'"holds":{_ENCODE(sorted([s, h, int(n), r, t, p] for s, h, n, r, t, p in holds)) if holds else "[]"},'
        f'"key":{_s(key)},"kind":{_s(kind)},"memo":{_s(memo)},"r":"tx",'
        f'"reverses":{_s(reverses)},"round":{_s(round_id)},"seq":{_encode(seq)}}}'
    ).encode("ascii")


def round_bytes(
    *,
    chain: str,
    seq: int,
    round_id: str,
    table_id: str,
    game: str,
    config: Any,
    seats: Any,
    context: Any,
    meta: Any,
    commitment: str,
    seed: str,
    opened_at: datetime,
    players: Sequence[tuple[str, str, str, int]],
) -> bytes:
    """`canonical(round_record(...))` with the same arguments."""
    return (
        f'{{"at":"{_ts(opened_at)}","chain":{_s(chain)},"commitment":{_s(commitment)},'
        f'"config":{_encode(config)},"context":{_encode(context)},"game":{_s(game)},'
        f'"id":{_s(round_id)},"meta":{_encode(meta)},'
        f'"players":{_ENCODE(sorted([s, u, a, int(b)] for s, u, a, b in players))},'
        f'"r":"round","seats":{_encode(seats)},"seed":{_s(seed)},"seq":{_encode(seq)},'
        f'"table":{_s(table_id)}}}'
    ).encode("ascii")


def log_bytes(
    *,
    chain: str,
    seq: int,
    round_id: str,
    n: int,
    kind: str,
    seat: str | None,
    payload: Any,
    visible_to: Any,
    client_id: str | None,
    created_at: datetime,
) -> bytes:
    """`canonical(log_record(...))` with the same arguments."""
    return (
        f'{{"at":"{_ts(created_at)}","chain":{_s(chain)},"client":{_s(client_id)},'
        f'"kind":{_s(kind)},"n":{_encode(n)},"payload":{_encode(payload)},"r":"log",'
        f'"round":{_s(round_id)},"seat":{_s(seat)},"seq":{_encode(seq)},'
        f'"to":{_encode(visible_to)}}}'
    ).encode("ascii")


def reveal_bytes(
    *, chain: str, seq: int, commitment: str, seed: str, revealed_at: datetime
) -> bytes:
    """`canonical(reveal_record(...))` with the same arguments."""
    return (
        f'{{"at":"{_ts(revealed_at)}","chain":{_s(chain)},"commitment":{_s(commitment)},'
        f'"r":"reveal","seed":{_s(seed)},"seq":{_encode(seq)}}}'
    ).encode("ascii")


class Sealer:
    """Assigns chain positions and MACs to the records of one database transaction, from each
    chain's head (`heads`: chain → (seq, mac) before this transaction)."""

    def __init__(self, key: bytes, heads: Mapping[str, tuple[int, str]]) -> None:
        self.key = key
        self.start = dict(heads)
        self.now = dict(heads)

    def position(self, chain: str) -> int:
        """The position the next record of `chain` gets."""
        return self.now[chain][0] + 1

    def seal(self, record: dict[str, Any]) -> str:
        """The MAC of `record` (its `chain` and `seq` as `position` said); advances the head."""
        chain, seq = record["chain"], record["seq"]
        last, previous = self.now[chain]
        if seq != last + 1:
            raise AssertionError(f"record {seq} of chain {chain} out of order (head {last})")
        value = mac(self.key, previous, record)
        self.now[chain] = (seq, value)
        return value

    def seal_bytes(self, chain: str, seq: int, data: bytes) -> str:
        """`seal`, for a record already in its canonical bytes (`tx_bytes` …)."""
        last, previous = self.now[chain]
        if seq != last + 1:
            raise AssertionError(f"record {seq} of chain {chain} out of order (head {last})")
        value = hmac.digest(self.key, bytes.fromhex(previous) + data, "sha256").hex()
        self.now[chain] = (seq, value)
        return value

    def moved(self) -> dict[str, tuple[tuple[int, str], tuple[int, str]]]:
        """chain → (head before, head after) for every chain this transaction wrote to."""
        return {c: (self.start[c], self.now[c]) for c in self.now if self.now[c] != self.start[c]}


__all__ = [
    "GENESIS",
    "LEDGER_CHAIN",
    "Sealer",
    "canonical",
    "end_fields",
    "log_bytes",
    "log_record",
    "mac",
    "normal",
    "reveal_bytes",
    "reveal_record",
    "round_bytes",
    "round_record",
    "table_chain",
    "ts",
    "tx_bytes",
    "tx_record",
]
