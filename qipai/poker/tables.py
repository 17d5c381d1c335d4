"""Lookup tables of the hand evaluator, built once per process on first use (not at import).

Two tables give every hand of 5, 6 or 7 cards its strength (see `categories.py`):

* `flush[mask]` — for the ranks (a 13-bit mask) that a hand holds in its flush suit: the best
  straight flush or flush they make (8,192 entries).
* `noflush[BASE[n] + key]` — for an n-card hand without a flush: `key` is the sum of one additive
  key per card's rank. The rank keys are chosen so that every multiset of up to seven ranks (each
  rank at most four times) of one size has its own sum (the scheme of Kenneth Shackleton's
  SKPokerEval), so the sum is a perfect hash of the rank counts. Sums of different sizes overlap
  (the deuce's key is 0), so each size has its own dense block; uint16, 43 MB in all, of which a
  7-card evaluation touches only the first 15.6 MB. Dense beat a row-displaced compact table in
  `benchmarks/bench_evaluator.py` on this machine.

The per-card key packs the rank key in the low 32 bits and a 4-bit counter per suit above:
summing the card keys gives both the rank hash and the suit counts; a suit count of five or more
shows as `(counts + 0x3333) & 0x8888 != 0`.

`build.py` computes the tables in numba; they are then kept in the user's cache directory
(`QIPAI_CACHE_DIR` overrides it), so a later process only reads two files and needs no numba
at all to evaluate single hands. A file that fails its checksum is rebuilt.
"""

from __future__ import annotations

import os
import zipfile
import zlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

# Additive rank keys, deuce first: all multisets of n <= 7 ranks (each <= 4 times) sum distinctly.
RANK_KEYS: tuple[int, ...] = (
    0,
    1,
    5,
    22,
    98,
    453,
    2031,
    8698,
    22854,
    83661,
    262349,
    636345,
    1479181,
)
SUIT_SHIFT = 32
RANK_MASK = (1 << SUIT_SHIFT) - 1
FLUSH_BITS = 0x8888
SIZE7 = 4 * RANK_KEYS[12] + 3 * RANK_KEYS[11] + 1  # largest 7-card key + 1
SIZE6 = 4 * RANK_KEYS[12] + 2 * RANK_KEYS[11] + 1
SIZE5 = 4 * RANK_KEYS[12] + 1 * RANK_KEYS[11] + 1
BASE7 = 0
BASE6 = SIZE7
BASE5 = SIZE7 + SIZE6
NOFLUSH_LEN = SIZE7 + SIZE6 + SIZE5

_RANK_KEYS = np.array(RANK_KEYS, dtype=np.int64)
TABLES_VERSION = 1
# CRC-32 of noflush then flush as built; `tests/poker` checks a fresh build against it.
TABLES_CRC32 = 0x1F82EDF5


def card_keys() -> npt.NDArray[np.int64]:
    """The 52 per-card keys: rank key + one in the card's suit counter (card id = rank*4+suit)."""
    ids = np.arange(52, dtype=np.int64)
    keys: npt.NDArray[np.int64] = _RANK_KEYS[ids >> 2] + (
        np.int64(1) << (SUIT_SHIFT + 4 * (ids & 3))
    )
    return keys


@dataclass(frozen=True)
class Tables:
    """The evaluator's tables, as the numba kernels take them (see `kernels.py`)."""

    noflush: npt.NDArray[np.uint16]
    flush: npt.NDArray[np.uint16]
    card_keys: npt.NDArray[np.int64]


def build_tables() -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.uint16]]:
    """Compute (noflush, flush) from scratch."""
    from qipai.poker.build import build

    noflush = np.zeros(NOFLUSH_LEN, dtype=np.uint16)
    flush = np.zeros(1 << 13, dtype=np.uint16)
    build(noflush, flush)
    return noflush, flush


def checksum(noflush: npt.NDArray[np.uint16], flush: npt.NDArray[np.uint16]) -> int:
    return zlib.crc32(flush.tobytes(), zlib.crc32(noflush.tobytes()))


def cache_dir() -> Path:
    env = os.environ.get("QIPAI_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return platformdirs.user_cache_path("qipai")


def _load(path: Path) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.uint16]] | None:
    try:
        with np.load(path) as data:
            noflush, flush = data["noflush"], data["flush"]
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile):
        return None  # missing or unreadable: rebuild
    if (
        noflush.shape != (NOFLUSH_LEN,)
        or flush.shape != (1 << 13,)
        or noflush.dtype != np.uint16
        or flush.dtype != np.uint16
        or checksum(noflush, flush) != TABLES_CRC32
    ):
        return None
    return noflush, flush


def _save(path: Path, noflush: npt.NDArray[np.uint16], flush: npt.NDArray[np.uint16]) -> None:
    """Write atomically; a cache that cannot be written is simply skipped."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            np.savez(fh, noflush=noflush, flush=flush)
        os.replace(tmp, path)
    except OSError:
        pass


@cache
def tables() -> Tables:
    """The evaluator's lookup tables: from the disk cache, else built (and cached)."""
    path = cache_dir() / f"poker-tables-v{TABLES_VERSION}.npz"
    loaded = _load(path)
    if loaded is None:
        loaded = build_tables()
        _save(path, *loaded)
    noflush, flush = loaded
    keys = card_keys()
    for arr in (noflush, flush, keys):
        arr.setflags(write=False)
    return Tables(noflush=noflush, flush=flush, card_keys=keys)
