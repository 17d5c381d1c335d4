"""Seeds at rest: the seed of a deal unit still in play is stored only sealed with AES-256-GCM
(`cryptography`), under the seed key derived from the ledger's key (`qipai.ledger.keys`), which
never enters the database.

Sealed form: `gcm1:<nonce, 24 hex>:<ciphertext and tag, hex>`, with the associated data
`qipai-seed|<round id>|<seed commitment>` binding the box to its round: a box copied onto another
round does not open. The ledger opens a box only to deal (crash recovery, `open_rounds`), for an
operator's `round(include_seed=True)` / `qipai verify`, and at reveal, when the deal unit ended and
the seed is written in the clear to `seed_reveals` (it is public from then on).
"""

from __future__ import annotations

import hashlib
import hmac
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from qipai.ledger.errors import KeyMismatch

PREFIX = "gcm1:"


def _aad(round_id: str, commitment: str) -> bytes:
    return f"qipai-seed|{round_id}|{commitment}".encode()


def seal_seed(key: bytes, seed: bytes, round_id: str, commitment: str) -> str:
    nonce = os.urandom(12)
    box = AESGCM(key).encrypt(nonce, seed, _aad(round_id, commitment))
    return f"{PREFIX}{nonce.hex()}:{box.hex()}"


def is_sealed(stored: str) -> bool:
    return stored.startswith(PREFIX)


def open_seed(key: bytes, stored: str, round_id: str, commitment: str) -> bytes:
    """The seed in a box; KeyMismatch if the key (or the box's round) is not the one it was
    sealed with, or the box was altered."""
    if not is_sealed(stored):
        raise KeyMismatch(f"round {round_id}'s seed is not sealed")
    try:
        _, nonce, box = stored.split(":")
        return AESGCM(key).decrypt(
            bytes.fromhex(nonce), bytes.fromhex(box), _aad(round_id, commitment)
        )
    except (InvalidTag, ValueError) as exc:
        raise KeyMismatch(
            f"round {round_id}'s sealed seed does not open with this key (wrong key or altered)"
        ) from exc


def seal_bytes(key: bytes, data: bytes, context: str) -> str:
    """Seal any small secret the card room keeps beside the ledger (e.g. a table layout's seed
    of the unit in play); `context` names what it is, and must be given again to open it."""
    nonce = os.urandom(12)
    box = AESGCM(key).encrypt(nonce, data, f"qipai-data|{context}".encode())
    return f"{PREFIX}{nonce.hex()}:{box.hex()}"


def seal_stable(key: bytes, data: bytes, context: str) -> str:
    """`seal_bytes` with a synthetic nonce (HMAC of the context and the data under the key): the
    same secret in the same context seals to the same text, so a table layout that did not
    change saves as the same text (no database write), while a different seed gives a different
    nonce. Equal boxes tell only that the secret did not change, which the layout says anyway."""
    nonce = hmac.new(key, b"qipai-nonce|" + context.encode() + b"|" + data, hashlib.sha256)
    box = AESGCM(key).encrypt(nonce.digest()[:12], data, f"qipai-data|{context}".encode())
    return f"{PREFIX}{nonce.digest()[:12].hex()}:{box.hex()}"


def open_bytes(key: bytes, stored: str, context: str) -> bytes:
    try:
        prefix, nonce, box = stored.split(":")
        if prefix + ":" != PREFIX:
            raise ValueError("not sealed")
        return AESGCM(key).decrypt(
            bytes.fromhex(nonce), bytes.fromhex(box), f"qipai-data|{context}".encode()
        )
    except (InvalidTag, ValueError) as exc:
        raise KeyMismatch(f"sealed {context} does not open with this key") from exc
