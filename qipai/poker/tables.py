"""Lookup tables of the hand evaluator, built once per process on first use (not at import).

Two tables give every hand of 5, 6 or 7 cards its strength (see `categories.py`):

* `flush[mask]` — for the ranks (a 13-bit mask) that a hand holds in its flush suit: the best
  straight flush or flush they make (8,192 entries).
* `noflush[BASE[n] + key]` — for an n-card hand without a flush: `key` is the sum of one additive
  key per card's rank. The rank keys are chosen so that every multiset of up to seven ranks (each
  rank at most four times) of one size has its own sum (the scheme of Kenneth Shackleton's
  SKPokerEval), so the sum is a perfect hash of the rank counts. Sums of different sizes overlap
  (the deuce's key is 0), so each size has its own dense block; uint16, 43 MB in all, of which a
  7-card evaluation touches only the first 15.6 MB. The batched kernels use the compact copy
  below instead (`compact`, `offsets`); the dense one stays for the `strength*` kernels.

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
from typing import Any

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
# The compact no-flush table: the same entries packed by row displacement (rows of 2**ROW_SHIFT
# keys; each size has its own rows of `offsets`, starting at ROWBASE5/6/7):
# strength = compact[key + offsets[ROWBASE_n + (key >> ROW_SHIFT)]]. About 240 kB in all, so it
# stays in the L2 cache, where the dense table (15.6 MB for 7 cards) needs L3. Measured here
# (`benchmarks/bench_evaluator.py`): the same speed per CPU-second as the dense table when the
# shared machine was calm, up to 2x faster while other processes thrashed the L3 cache.
ROW_SHIFT = 9
ROWS7 = (SIZE7 >> ROW_SHIFT) + 1
ROWS6 = (SIZE6 >> ROW_SHIFT) + 1
ROWS5 = (SIZE5 >> ROW_SHIFT) + 1
ROWBASE7 = 0
ROWBASE6 = ROWS7
ROWBASE5 = ROWS7 + ROWS6

_RANK_KEYS = np.array(RANK_KEYS, dtype=np.int64)
TABLES_VERSION = 2
# CRC-32 of the built arrays (in `_SHAPES` order); `tests/poker` checks a fresh build against it.
TABLES_CRC32 = 0xE67220F5

Arrays = dict[str, npt.NDArray[Any]]


def card_keys() -> npt.NDArray[np.int64]:
    """The 52 per-card keys: rank key + one in the card's suit counter (card id = rank*4+suit)."""
    ids = np.arange(52, dtype=np.int64)
    keys: npt.NDArray[np.int64] = _RANK_KEYS[ids >> 2] + (
        np.int64(1) << (SUIT_SHIFT + 4 * (ids & 3))
    )
    return keys


@dataclass(frozen=True)
class Tables:
    """The evaluator's tables, as the numba kernels take them (see `kernels.py`).

    `noflush` is the dense no-flush table (`noflush[BASE_n + key]`); `compact` and `offsets` the
    same entries packed (`compact[key + offsets[ROWBASE_n + (key >> ROW_SHIFT)]]`).
    """

    noflush: npt.NDArray[np.uint16]
    flush: npt.NDArray[np.uint16]
    card_keys: npt.NDArray[np.int64]
    compact: npt.NDArray[np.uint16]
    offsets: npt.NDArray[np.int32]


def _shapes() -> dict[str, tuple[tuple[int, ...] | None, type]]:
    return {
        "noflush": ((NOFLUSH_LEN,), np.uint16),
        "flush": ((1 << 13,), np.uint16),
        "compact": (None, np.uint16),
        "offsets": ((ROWS7 + ROWS6 + ROWS5,), np.int32),
    }


def build_tables() -> Arrays:
    """Compute every table from scratch (numba; a few seconds the first time it compiles)."""
    from qipai.poker.build import build, first_fit, plain_keys

    noflush = np.zeros(NOFLUSH_LEN, dtype=np.uint16)
    flush = np.zeros(1 << 13, dtype=np.uint16)
    build(noflush, flush)
    width = 1 << ROW_SHIFT
    offsets = np.zeros(ROWS7 + ROWS6 + ROWS5, dtype=np.int64)
    parts: list[npt.NDArray[np.uint16]] = []
    used = 0
    for n, rows, rowbase, base in (
        (7, ROWS7, ROWBASE7, BASE7),
        (6, ROWS6, ROWBASE6, BASE6),
        (5, ROWS5, ROWBASE5, BASE5),
    ):
        keys = plain_keys(n)
        starts = np.searchsorted(keys >> ROW_SHIFT, np.arange(rows + 1))
        order = np.argsort(-np.diff(starts), kind="stable")
        own = np.zeros(rows, dtype=np.int64)
        length = first_fit(keys & (width - 1), starts, order, own, width)
        values = np.zeros(length, dtype=np.uint16)
        values[keys + own[keys >> ROW_SHIFT]] = noflush[base + keys]
        offsets[rowbase : rowbase + rows] = own + used
        parts.append(values)
        used += length
    return {
        "noflush": noflush,
        "flush": flush,
        "compact": np.concatenate(parts),
        "offsets": offsets.astype(np.int32),
    }


def checksum(arrays: Arrays) -> int:
    crc = 0
    for name in _shapes():
        crc = zlib.crc32(np.ascontiguousarray(arrays[name]).tobytes(), crc)
    return crc


def cache_dir() -> Path:
    env = os.environ.get("QIPAI_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return platformdirs.user_cache_path("qipai")


def _load(path: Path) -> Arrays | None:
    try:
        with np.load(path) as data:
            arrays = {name: data[name] for name in _shapes()}
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile):
        return None  # missing or unreadable: rebuild
    for name, (shape, dtype) in _shapes().items():
        arr = arrays[name]
        if arr.dtype != dtype or arr.ndim != 1 or (shape is not None and arr.shape != shape):
            return None
    if checksum(arrays) != TABLES_CRC32:
        return None
    return arrays


def _save(path: Path, arrays: Arrays) -> None:
    """Write atomically; a cache that cannot be written is simply skipped."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            np.savez(fh, **arrays)  # type: ignore[arg-type]  # numpy stubs type **kwds badly
        os.replace(tmp, path)
    except OSError:
        pass


@cache
def tables() -> Tables:
    """The evaluator's lookup tables: from the disk cache, else built (and cached)."""
    path = cache_dir() / f"poker-tables-v{TABLES_VERSION}.npz"
    arrays = _load(path)
    if arrays is None:
        arrays = build_tables()
        _save(path, arrays)
    arrays["card_keys"] = card_keys()
    for arr in arrays.values():
        arr.setflags(write=False)
    return Tables(**arrays)
