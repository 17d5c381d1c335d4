"""Identifiers the card room and the ledger make: round ids ordered by time.

A round's id is the key of a row in every round table (`rounds`, `round_players`, `round_ends`,
`seed_reveals`, `holds`) and part of its transactions' keys. A random id (UUID version 4) puts
each new round at a random place in each of those indexes, so every round a commit carries
dirties its own leaf page of each of them — pages written to the WAL, and read back from disk
once the books outgrow the cache. An id that starts with the time (UUID version 7, RFC 9562
§5.7) puts every new round at the end of each index, where the rounds of one commit share their
pages (counted in docs/ledger.md §8).

It is still unguessable: 74 of its 128 bits are random (`secrets`). It reveals when the round
was opened, to the millisecond, which every record of the round shows anyway.
"""

from __future__ import annotations

import secrets
import time

ROUND_ID_LENGTH = 32
"""Characters in a round id this module makes (hexadecimal digits)."""

_HEX = frozenset("0123456789abcdef")


def is_whole_round_id(text: str) -> bool:
    """Whether `text` has the form of a whole id `new_round_id` makes (32 lowercase hex digits),
    not a part of one (a search for it can use the key's index)."""
    return len(text) == ROUND_ID_LENGTH and _HEX.issuperset(text)


def new_round_id(now_ms: int | None = None) -> str:
    """A new round id: a version-7 UUID as 32 lowercase hex digits (the form `uuid4().hex`
    had). Its first 12 digits are the Unix time in milliseconds (`now_ms`, default now), so ids
    sort by when they were made; the rest is random."""
    ms = time.time_ns() // 1_000_000 if now_ms is None else now_ms
    if not 0 <= ms < 1 << 48:
        raise ValueError(f"a version-7 UUID holds 48 bits of milliseconds, not {ms}")
    value = (ms << 80) | secrets.randbits(80)
    value = (value & ~(0xF << 76)) | (0x7 << 76)  # version 7 (RFC 9562 §5.7)
    value = (value & ~(0x3 << 62)) | (0x2 << 62)  # variant 0b10
    return f"{value:032x}"  # (what `uuid.UUID(int=value).hex` gives, without the object)
