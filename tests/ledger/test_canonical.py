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
