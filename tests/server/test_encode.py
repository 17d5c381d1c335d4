"""`sockets.encode` (orjson) writes what the stdlib's compact `json.dumps` wrote: the same
text for every message without floats, the same values with them; an integer past 64 bits
still goes out (stdlib fallback)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from qipai.server.sockets import encode

SCALARS = st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text()
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


def stdlib(message: Any) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


@given(st.dictionaries(st.text(), VALUES, max_size=6))
def test_the_same_text_as_the_stdlib(message: dict[str, Any]) -> None:
    assert encode(message) == stdlib(message)


@given(
    st.dictionaries(
        st.text(), st.floats(allow_nan=False, allow_infinity=False) | VALUES, max_size=6
    )
)
def test_floats_keep_their_values(message: dict[str, Any]) -> None:
    assert json.loads(encode(message)) == message


def test_an_integer_past_64_bits_still_goes_out() -> None:
    message = {"type": "state", "big": 2**70, "name": "庄家"}
    assert encode(message) == stdlib(message)
