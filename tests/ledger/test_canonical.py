"""The MAC's canonical bytes (`qipai.ledger.chain`) are a fixed format: the writer's faster
encoding must give exactly the bytes of the definition (sorted keys, no spaces, ASCII; the
timestamps `strftime("%Y-%m-%dT%H:%M:%S.%fZ")` in UTC), whatever order a record's keys come in,
or every chain written before would stop verifying."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.ledger import chain

KEYS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_0123456789", min_size=1, max_size=8)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63)
    | st.text(max_size=12)
    | st.floats(allow_nan=False, allow_infinity=False)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=12,
)


def _definition(record: dict[str, Any]) -> bytes:
    return json.dumps(
        record, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    ).encode("ascii")


@settings(max_examples=100, deadline=None)
@given(record=st.dictionaries(KEYS, VALUES, max_size=8), data=st.data())
def test_canonical_bytes_are_the_sorted_compact_ascii_dump(
    record: dict[str, Any], data: st.DataObject
) -> None:
    expected = _definition(record)
    assert chain.canonical(record) == expected
    # the same keys inserted in another order (the encoder remembers each key order it saw)
    keys = data.draw(st.permutations(list(record)))
    assert chain.canonical({k: record[k] for k in keys}) == expected
    # values the writer serialized once (`JText`) are used as they are
    texted = {k: chain.jtext(v) for k, v in record.items()}
    assert chain.canonical(texted) == expected


@settings(max_examples=100, deadline=None)
@given(
    moment=st.datetimes(
        min_value=datetime(1000, 1, 2), max_value=datetime(9999, 12, 30), timezones=st.just(UTC)
    ),
    offset=st.integers(min_value=-14 * 60, max_value=14 * 60),
)
def test_timestamps_are_utc_with_microseconds(moment: datetime, offset: int) -> None:
    local = moment.astimezone(timezone(timedelta(minutes=offset)))
    assert chain.ts(local) == moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    assert chain.ts(moment) == moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


TEXT = st.text(max_size=10)
MAYBE = st.none() | TEXT
MOMENTS = st.datetimes(
    min_value=datetime(1000, 1, 2), max_value=datetime(9999, 12, 30), timezones=st.just(UTC)
)
SEQS = st.integers(min_value=1, max_value=2**62)
JSONISH = VALUES | VALUES.map(chain.jtext)
"""A value as the writer passes it: a Python value, or already canonical text (`JText`)."""


@settings(max_examples=150, deadline=None)
@given(
    data=st.data(),
    entries=st.lists(st.tuples(TEXT, st.integers(-(2**40), 2**40)), max_size=6),
    holds=st.lists(st.tuples(TEXT, TEXT, st.integers(0, 2**40), TEXT, TEXT, TEXT), max_size=4),
    closes=st.lists(st.tuples(TEXT, st.sampled_from(["captured", "voided"]), st.integers(0, 99))),
)
def test_the_writers_direct_bytes_are_the_records_canonical_bytes(
    data: st.DataObject,
    entries: list[tuple[str, int]],
    holds: list[tuple[str, str, int, str, str, str]],
    closes: list[tuple[str, str, int]],
) -> None:
    """`tx_bytes` & co. (the writer's hot path) give exactly `canonical(tx_record(...))`, the
    definition audit recomputes: otherwise every record written would fail its audit."""
    d = data.draw
    end = d(
        st.none()
        | st.builds(
            chain.end_fields,
            st.sampled_from(["settled", "voided"]),
            JSONISH,
            JSONISH,
            MAYBE,
            MOMENTS,
        )
    )
    tx = {
        "chain": d(TEXT),
        "seq": d(SEQS),
        "key": d(TEXT),
        "kind": d(TEXT),
        "body_hash": d(TEXT),
        "round_id": d(MAYBE),
        "reverses": d(MAYBE),
        "memo": d(TEXT),
        "detail": d(JSONISH),
        "created_at": d(MOMENTS),
        "entries": entries,
        "holds": holds,
        "closes": closes,
        "end": end,
    }
    assert chain.tx_bytes(**tx) == chain.canonical(chain.tx_record(**tx))
    header = {
        "chain": d(TEXT),
        "seq": d(SEQS),
        "round_id": d(TEXT),
        "table_id": d(TEXT),
        "game": d(TEXT),
        "config": d(JSONISH),
        "seats": d(JSONISH),
        "context": d(JSONISH),
        "meta": d(JSONISH),
        "commitment": d(TEXT),
        "seed": d(TEXT),
        "opened_at": d(MOMENTS),
        "players": d(st.lists(st.tuples(TEXT, TEXT, TEXT, st.integers(0, 2**40)), max_size=4)),
    }
    assert chain.round_bytes(**header) == chain.canonical(chain.round_record(**header))
    log = {
        "chain": d(TEXT),
        "seq": d(SEQS),
        "round_id": d(TEXT),
        "n": d(SEQS),
        "kind": d(st.sampled_from(["action", "event"])),
        "seat": d(MAYBE),
        "payload": d(JSONISH),
        "visible_to": d(st.none() | st.lists(TEXT, max_size=3).map(chain.jtext)),
        "client_id": d(MAYBE),
        "created_at": d(MOMENTS),
    }
    assert chain.log_bytes(**log) == chain.canonical(chain.log_record(**log))
    reveal = {
        "chain": d(TEXT),
        "seq": d(SEQS),
        "commitment": d(TEXT),
        "seed": d(TEXT),
        "revealed_at": d(MOMENTS),
    }
    assert chain.reveal_bytes(**reveal) == chain.canonical(chain.reveal_record(**reveal))
