"""Fair, reproducible randomness: seeds, commit-reveal, an HMAC-SHA256 counter stream.

docs/fairness.md (deal-spec/1) specifies every byte. A deal is drawn from a 256-bit seed made by
`secrets`. Before play the table publishes `commitment(seed)` (SHA-256 of the seed); when the
deal unit ends it reveals the seed, and `verify(seed, commitment)` checks that it is the one
committed to (only that: recomputing the deal is `qipai.fairness` / `docs/verify_deal.py`). The
stream's key is the unit key (`qipai.fairness.unit_key`: the seed itself without client seeds);
block i of the stream labelled L is HMAC-SHA256(key, L ‖ 0x00 ‖ i as 8 bytes big-endian);
integers are drawn by rejection sampling (never a biased modulo) and shuffles are Fisher–Yates.
Nothing in qipai deals with the `random` module.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import MutableSequence, Sequence
from functools import lru_cache
from math import ceil, log
from operator import length_hint
from struct import unpack
from typing import Any, TypeVar

from qipai.core.errors import InvalidInput

SEED_BYTES = 32
T = TypeVar("T")
# `bytes.translate` tables keeping the low `bits` bits of a byte (bits = 0 … 8).
_LOW_BITS = tuple(bytes(v & ((1 << bits) - 1) for v in range(256)) for bits in range(9))


def new_seed() -> bytes:
    """A fresh 256-bit seed from the operating system's cryptographic generator."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: hex SHA-256, published before the deal."""
    return hashlib.sha256(seed).hexdigest()


def verify(seed: bytes | str, commitment_hex: str) -> bool:
    """True when the revealed seed is the one committed to."""
    raw = seed_from_hex(seed) if isinstance(seed, str) else seed
    return hmac.compare_digest(commitment(raw), commitment_hex.lower())


def seed_from_hex(text: str) -> bytes:
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raise InvalidInput(f"seed {text!r} is not hexadecimal") from None
    if len(raw) != SEED_BYTES:
        raise InvalidInput(f"a seed is {SEED_BYTES} bytes ({2 * SEED_BYTES} hex digits)")
    return raw


@lru_cache(maxsize=256)
def _hmac_pads(key: bytes) -> tuple[Any, Any]:
    """The HMAC-SHA256 inner and outer hash states after absorbing the padded key (RFC 2104)."""
    if len(key) > 64:
        key = hashlib.sha256(key).digest()
    key = key.ljust(64, b"\x00")
    inner = hashlib.sha256(bytes(b ^ 0x36 for b in key))
    outer = hashlib.sha256(bytes(b ^ 0x5C for b in key))
    return inner, outer


class Rng:
    """A deterministic byte stream keyed by a seed; `fork(label)` gives independent sub-streams.

    Forks let one seed drive several independent draws of a game (the shoe, the cut card, the dice
    of round 2) so that each can be recomputed without replaying the others.
    """

    __slots__ = ("_buffer", "_counter", "_label", "_offset", "seed")

    def __init__(self, seed: bytes, label: str = "") -> None:
        if not isinstance(seed, bytes | bytearray) or len(seed) < 16:
            raise InvalidInput("an Rng seed must be at least 16 bytes")
        self.seed = bytes(seed)
        self._label = label.encode("utf-8")
        self._counter = 0
        self._buffer = b""
        self._offset = 0

    @classmethod
    def from_hex(cls, text: str) -> Rng:
        return cls(seed_from_hex(text))

    @property
    def label(self) -> str:
        """This stream's label (forks nest as `a/b`); with `seed` it names the stream exactly,
        so callers may cache what they derive from a stream under `(seed, label)`."""
        return self._label.decode("utf-8")

    def fork(self, label: str) -> Rng:
        """An independent stream for a named purpose (labels nest: `a/b`)."""
        prefix = self._label.decode("utf-8")
        return Rng(self.seed, f"{prefix}/{label}" if prefix else label)

    def _block(self) -> bytes:
        message = self._label + b"\x00" + self._counter.to_bytes(8, "big")
        self._counter += 1
        # HMAC-SHA256(seed, message) from the seed's precomputed pad states: the same bytes as
        # hmac.new(seed, message, sha256).digest() (tested), at about a third of the cost.
        inner, outer = _hmac_pads(self.seed)
        h = inner.copy()
        h.update(message)
        o = outer.copy()
        o.update(h.digest())
        block: bytes = o.digest()
        return block

    def next_bytes(self, n: int) -> bytes:
        """The next n bytes of the stream."""
        out = bytearray()
        while len(out) < n:
            if self._offset >= len(self._buffer):
                self._buffer = self._block()
                self._offset = 0
            take = min(n - len(out), len(self._buffer) - self._offset)
            out += self._buffer[self._offset : self._offset + take]
            self._offset += take
        return bytes(out)

    def randbelow(self, n: int) -> int:
        """Uniform integer in [0, n) by rejection sampling on the fewest whole bytes."""
        if n <= 0:
            raise InvalidInput("randbelow needs a positive bound")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        nbytes = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            value = int.from_bytes(self.next_bytes(nbytes), "big") & mask
            if value < n:
                return value

    def randrange(self, start: int, stop: int) -> int:
        """Uniform integer in [start, stop)."""
        return start + self.randbelow(stop - start)

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates in place: every permutation equally likely (the last item can stay put).

        Draws exactly what `randbelow(i + 1)` for i = n−1 … 1 would (same bytes, same rejections,
        same stream state afterwards — tested against that reference), but fast: the draws come
        in groups of equal width (every i in (2^(b−1), 2^b − 1] draws b bits), and each group
        reads the stream ahead about as far as it is expected to need (HMAC blocks computed
        inline) and decodes all those draws at once in C (`bytes.translate` masks 1-byte draws,
        `struct` unpacks 2-byte ones). Blocks read ahead but not used are dropped: the stream is
        left exactly where the reference leaves it (the last block a draw used, its offset).
        """
        i = len(items) - 1
        if i < 1:
            return
        inner, outer = _hmac_pads(self.seed)
        prefix = self._label + b"\x00"
        counter = self._counter
        head = self._buffer[self._offset :]
        buf = head
        off = 0  # bytes of `buf` used
        while i > 0:
            bits = i.bit_length()
            mask = (1 << bits) - 1
            low = mask >> 1  # this group: every i in (low, mask] draws `bits` bits
            width = (bits + 7) >> 3
            while True:
                avail = len(buf) - off
                # Bytes the rest of this group is expected to read: i + 1 of the mask + 1
                # values are accepted, so draw j takes (mask + 1)/(j + 1) tries on average.
                expect = width * (mask + 1) * log((i + 1) / (low + 1))
                if avail < expect or avail < width:
                    for _ in range(max(1, ceil((expect - avail) / 32))):
                        # `_block()` inline: HMAC-SHA256(seed, label ‖ 0 ‖ counter)
                        h = inner.copy()
                        h.update(prefix + counter.to_bytes(8, "big"))
                        counter += 1
                        o = outer.copy()
                        o.update(h.digest())
                        buf += o.digest()
                    avail = len(buf) - off
                count = avail // width
                if width <= 2:
                    # This chunk's draws, masked, decoded in C.
                    values: bytes | tuple[int, ...]
                    if width == 1:
                        values = buf[off : off + count].translate(_LOW_BITS[bits])
                    else:
                        chunk = bytearray(buf[off : off + 2 * count])
                        chunk[0::2] = chunk[0::2].translate(_LOW_BITS[bits - 8])  # high bytes
                        values = unpack(f">{count}H", chunk)
                    draws = iter(values)
                    for i in range(i, low, -1):  # noqa: B020 - i goes on after the loop
                        for value in draws:  # rejection: the first draw <= i is j
                            if value <= i:
                                break
                        else:  # the chunk ran out before a draw for this i was accepted
                            break
                        items[i], items[value] = items[value], items[i]
                    else:
                        i = low  # the group is done
                    off += (count - length_hint(draws)) * width
                else:  # more than 65,536 items: one draw at a time
                    for _ in range(count):
                        value = int.from_bytes(buf[off : off + width], "big") & mask
                        off += width
                        if value <= i:
                            items[i], items[value] = items[value], items[i]
                            i -= 1
                            if i == low:
                                break
                if i == low:
                    break
        # The reference fetched a block exactly when a draw needed a byte of it.
        extra = off - len(head)  # bytes used beyond the buffer's unread head
        if extra <= 0:
            self._offset += off
        else:
            blocks = (extra + 31) >> 5  # blocks a draw needed a byte of
            end = len(head) + 32 * blocks
            self._counter += blocks
            self._buffer = buf[end - 32 : end]
            self._offset = off - (end - 32)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise InvalidInput("choice from an empty sequence")
        return items[self.randbelow(len(items))]

    def weighted_choice(self, items: Sequence[T], weights: Sequence[int]) -> T:
        """Pick with probability proportional to non-negative integer weights (all zero = uniform)."""
        if len(items) != len(weights) or not items:
            raise InvalidInput("weighted_choice needs one weight per item")
        if any(w < 0 for w in weights):
            raise InvalidInput("weights must be non-negative")
        total = sum(weights)
        if total == 0:
            return self.choice(items)
        point = self.randbelow(total)
        for item, weight in zip(items, weights, strict=True):
            if point < weight:
                return item
            point -= weight
        raise AssertionError("unreachable")  # pragma: no cover

    def dice(self, count: int = 2, sides: int = 6) -> tuple[int, ...]:
        return tuple(1 + self.randbelow(sides) for _ in range(count))
