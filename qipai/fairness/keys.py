"""Deal units' stream keys under `deal-spec/1`: the server seed combined with client seeds.

docs/fairness.md ("Keys") is the specification; this module is its reference implementation.

A *deal unit* (a round; a Pok Deng shoe; a two-round Pai Gow game) draws everything from one
`Rng` whose key is `unit_key(server_seed, client_seeds)`:

* no client seeds (the table setting is off, or no seated player has one): the key **is** the
  server seed, exactly as before client seeds existed, so every recorded round still verifies;
* otherwise the key is `HMAC-SHA256(server_seed, "deal-spec/1" ‖ 0x00 ‖ entries)`, where the
  entries, sorted by seat id (byte order), are `len(seat) ‖ seat ‖ len(client seed) ‖ client
  seed` (each length one byte, the texts ASCII).

The server seed is committed to (`qipai.core.rng.commitment`) before the client seeds are fixed,
and the client seeds are fixed before the unit's first deal: the operator cannot pick a seed
for known client seeds, and no player knows the server seed (docs/fairness.md, "Seed grinding").
The round's `meta` records `deal_meta(client_seeds)` so that anyone can rebuild the key.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from typing import Any

from qipai.core.errors import InvalidInput
from qipai.core.rng import seed_from_hex

DEAL_SPEC = "deal-spec/1"
"""The version of the deal specification (docs/fairness.md) a round was dealt under."""

CLIENT_SEED_MAX = 64
SEAT_ID_MAX = 32
_PRINTABLE = frozenset(range(0x21, 0x7F))  # printable ASCII without the space


def check_client_seed(value: object, what: str = "client seed") -> str:
    """A client seed is 1–64 printable ASCII characters (no spaces); anything else is refused
    with an `InvalidInput` naming the problem."""
    if not isinstance(value, str):
        raise InvalidInput(f"a {what} is text, got {type(value).__name__}")
    if not 1 <= len(value) <= CLIENT_SEED_MAX:
        raise InvalidInput(f"a {what} is 1–{CLIENT_SEED_MAX} characters, got {len(value)}")
    bad = sorted({c for c in value if ord(c) not in _PRINTABLE})
    if bad:
        raise InvalidInput(
            f"a {what} takes printable ASCII without spaces; {bad[0]!r} is not allowed"
        )
    return value


def _check_seat(seat: object) -> str:
    if not isinstance(seat, str) or not 1 <= len(seat) <= SEAT_ID_MAX:
        raise InvalidInput(f"a seat id is 1–{SEAT_ID_MAX} characters of text, got {seat!r}")
    if any(ord(c) not in _PRINTABLE for c in seat):
        raise InvalidInput(f"seat id {seat!r} must be printable ASCII without spaces")
    return seat


def check_client_seeds(client_seeds: Mapping[str, str] | None) -> dict[str, str]:
    """The client seeds by seat, validated, sorted by seat id (the order the key uses)."""
    if client_seeds is None:
        return {}
    if not isinstance(client_seeds, Mapping):
        raise InvalidInput("client seeds are an object {seat: client seed}")
    checked = {
        _check_seat(seat): check_client_seed(seed, f"client seed of seat {seat!r}")
        for seat, seed in client_seeds.items()
    }
    return {seat: checked[seat] for seat in sorted(checked, key=lambda s: s.encode("ascii"))}


def new_client_seed() -> str:
    """A random client seed (32 hex digits), as the browser makes one."""
    return secrets.token_hex(16)


def unit_key_message(client_seeds: Mapping[str, str]) -> bytes:
    """The HMAC message of `unit_key`: `deal-spec/1 ‖ 0x00 ‖ (len ‖ seat ‖ len ‖ seed)*`."""
    out = bytearray(DEAL_SPEC.encode("ascii") + b"\x00")
    for seat, seed in check_client_seeds(client_seeds).items():
        for text in (seat, seed):
            raw = text.encode("ascii")
            out += bytes([len(raw)]) + raw
    return bytes(out)


def unit_key(server_seed: bytes, client_seeds: Mapping[str, str] | None = None) -> bytes:
    """The key of a deal unit's stream (`Rng(unit_key(...))`); see the module docstring.

    With no client seeds it is the server seed itself (deals of existing seeds unchanged)."""
    if not isinstance(server_seed, bytes | bytearray) or len(server_seed) < 16:
        raise InvalidInput("a server seed is at least 16 bytes")
    seeds = check_client_seeds(client_seeds)
    if not seeds:
        return bytes(server_seed)
    return hmac.new(bytes(server_seed), unit_key_message(seeds), hashlib.sha256).digest()


def deal_meta(client_seeds: Mapping[str, str] | None = None) -> dict[str, Any]:
    """What a round's `meta` must hold for its deal to be rebuilt: the spec version and the
    client seeds by seat (`{}` when off). Every round of a unit records the unit's seeds."""
    return {"deal_spec": DEAL_SPEC, "client_seeds": check_client_seeds(client_seeds)}


def meta_client_seeds(meta: Mapping[str, Any] | None) -> dict[str, str]:
    """The client seeds a round's `meta` records (none for rounds recorded before meta, or
    with client seeds off); an unknown deal-spec version is refused."""
    if not meta:
        return {}
    spec = meta.get("deal_spec", DEAL_SPEC)
    if spec != DEAL_SPEC:
        raise InvalidInput(f"round dealt under {spec!r}; this build knows {DEAL_SPEC!r}")
    seeds = meta.get("client_seeds") or {}
    return check_client_seeds(seeds)


def round_key(record: Mapping[str, Any]) -> bytes:
    """The stream key of a journaled round (`Ledger.round(..., include_seed=True)`: its `seed`
    hex and its `meta`): what `Round.replay` must be given instead of the bare seed."""
    seed = record.get("seed")
    if not isinstance(seed, str):
        raise InvalidInput("the round's seed is not revealed")
    meta = record.get("meta")
    return unit_key(
        seed_from_hex(seed), meta_client_seeds(meta if isinstance(meta, Mapping) else None)
    )


__all__ = [
    "CLIENT_SEED_MAX",
    "DEAL_SPEC",
    "SEAT_ID_MAX",
    "check_client_seed",
    "check_client_seeds",
    "deal_meta",
    "meta_client_seeds",
    "new_client_seed",
    "round_key",
    "unit_key",
    "unit_key_message",
]
