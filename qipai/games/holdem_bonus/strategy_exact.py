"""The exact optimal strategy of Texas Hold'em Bonus and its return, over every deal.

What the player knows at each decision, and what is enumerated:

* River bet (after the turn card): hole cards + four board cards. Bet iff the expected result of
  one unit, over the 46 river cards × 990 dealer hands, is positive: R(h, B4) > 0, where
  R(h, B4) = Σ_r Σ_dealer (win − loss).
* Turn bet (after the flop): hole + flop. Betting is worth Σ_t [R(h, F+t) + max(0, R(h, F+t))];
  not betting is worth 0 under the source's rule (the river bet is given up) and
  Σ_t max(0, R(h, F+t)) under the common rule (the river bet stays open).
* Flop bet (play or fold) with the two hole cards: play iff the flop-bet line is worth more than
  losing the ante, averaged over all C(50,3) flops.

R is computed once for all 169 starting-hand classes (suit isomorphism: one representative per
class) and all 270,725 four-card boards. For each of the 134,459 five-card boards that are least
among their suit permutations, every two-card hand's strength (project evaluator) is ranked once;
the counts of dealer hands below/above each player hand follow by inclusion–exclusion over the two
hole cards. Each of the board's distinct suit images then gives the outcomes of every class
representative, added into R of the five four-card sub-boards (each card in turn as the river).
Everything is integer arithmetic; the final returns are exact Fractions.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

RANKS = "23456789TJQKA"
FLOPS = 19600  # C(50, 3)
UNIT = 47 * 46 * 990  # turn × river × dealer hands, per flop


@dataclass(frozen=True)
class StartClass:
    """One of the 169 starting-hand classes: e.g. 'AKs', 'AKo', 'TT', its representative cards
    (ids) and how many of the 1,326 two-card hands it stands for."""

    name: str
    cards: tuple[int, int]
    combos: int


def start_classes() -> list[StartClass]:
    out = []
    for r1 in range(12, -1, -1):
        for r2 in range(r1, -1, -1):
            if r1 == r2:
                out.append(StartClass(RANKS[r1] * 2, (r1 * 4, r1 * 4 + 1), 6))
            else:
                name = RANKS[r1] + RANKS[r2]
                out.append(StartClass(name + "s", (r1 * 4, r2 * 4), 4))
                out.append(StartClass(name + "o", (r1 * 4, r2 * 4 + 1), 12))
    return out


def class_of(c1: int, c2: int) -> str:
    """The class name of two card ids ('AKs', 'AKo', 'TT')."""
    r1, r2 = max(c1 >> 2, c2 >> 2), min(c1 >> 2, c2 >> 2)
    if r1 == r2:
        return RANKS[r1] * 2
    return RANKS[r1] + RANKS[r2] + ("s" if (c1 & 3) == (c2 & 3) else "o")


def _perms() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    perms = np.array(list(itertools.permutations(range(4))), np.int64)
    return perms, np.argsort(perms, axis=1).astype(np.int64)


STRATEGIES = (
    "optimal, source rule",
    "optimal, common rule",
    "simple, source rule",
    "simple, common rule",
)


@dataclass(frozen=True)
class Sums:
    """The kernel's integer sums per starting class (see `holdem_kernels.flop_values`)."""

    hist: npt.NDArray[np.int64]  # (169, 4, 11): deals by net per ante −5 … +5 when playing
    turns: npt.NDArray[np.int64]  # (169, 4): flops with a turn bet
    rivers: npt.NDArray[np.int64]  # (169, 4): (flop, turn) pairs with a river bet
    flops: npt.NDArray[np.int64]  # (169,): flops per class (C(50, 3))
    timings: dict[str, float]
    # (169, 2, 2450) uint8: the optimal turn bet (1) or check (0) of each class representative on
    # each of its 19,600 flops (`holdem_kernels.flop_index`), source rule then common rule,
    # bit-packed along the flops (numpy.packbits): `qipai.games.holdem_bonus.strategy`'s turn lookup.
    turn_bets: npt.NDArray[np.uint8]


Progress = Callable[[int, int], None]  # (parts done, parts): the first build's progress bar
RIVER_PARTS = 40  # the river sums are computed in this many parts, so a bar can show them


def river_sums_in_parts(
    boards: npt.NDArray[Any],
    perms: npt.NDArray[Any],
    inverse: npt.NDArray[Any],
    classes: npt.NDArray[np.int64],
    threads: int,
    parts: int = RIVER_PARTS,
    progress: Progress | None = None,
) -> npt.NDArray[np.int32]:
    """The river sums over all `boards`, computed over `parts` slices of them and added: each
    board adds its outcomes into the sums, so the parts add up to the whole (a test checks it)."""
    from qipai.games.holdem_bonus import analysis_kernels as k
    from qipai.poker.tables import tables

    t = tables()
    slices = [s for s in np.array_split(np.arange(len(boards)), max(1, parts)) if s.size]
    total: npt.NDArray[np.int32] | None = None
    for done, rows in enumerate(slices, 1):
        part = k.river_sums(
            np.ascontiguousarray(boards[rows]),
            perms,
            inverse,
            classes,
            t.noflush,
            t.flush,
            t.card_keys,
            threads,
        )
        if total is None:
            total = part
        else:
            total += part
        if progress is not None:
            progress(done, len(slices))
    assert total is not None, "no boards"
    return total


def compute_sums(threads: int = 2, progress: Progress | None = None) -> Sums:
    """Run the whole exact computation (minutes on two cores); `progress(done, parts)` is called
    as the river sums, nearly all of the work, advance."""
    from qipai.games.holdem_bonus import analysis_kernels as k

    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    perms, inverse = _perms()
    classes = np.array([c.cards for c in start_classes()], np.int64)
    boards = k.canonical_boards(perms)
    timings["canonical boards"] = time.perf_counter() - t0
    t1 = time.perf_counter()
    acc = river_sums_in_parts(boards, perms, inverse, classes, threads, progress=progress)
    timings["river sums over all boards"] = time.perf_counter() - t1
    t2 = time.perf_counter()
    hist, turns, rivers, flops, bets = k.flop_values(classes, acc, np.array([0], np.int64))
    timings["flop and turn decisions"] = time.perf_counter() - t2
    timings["total"] = time.perf_counter() - t0
    return Sums(hist, turns, rivers, flops, timings, np.packbits(bets, axis=-1))


def _class_signature() -> bytes:
    """The starting classes in kernel order: part of the cache key with the kernels' source."""
    return ";".join(f"{c.name}:{c.cards}" for c in start_classes()).encode()


# 3: key covers the evaluator too; the cache dir honours QIPAI_CACHE_DIR
# 4: the file also holds the turn decision table (`turn_bets`)
CACHE_VERSION = 4
# What reading a missing, truncated, foreign or older cache file raises: it is treated as absent.
_UNREADABLE = (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile)


def cache_path() -> Path:
    """Where the computed sums are kept: `qipai.poker.tables.cache_dir()` (the user cache dir, or
    `QIPAI_CACHE_DIR`).

    The file name carries a digest of everything the sums depend on: the source of the
    kernels (board ranking, decisions, nets, the simple strategy's rules — all in
    `holdem_kernels.py`), of the evaluator kernel (`qipai/poker/kernels.py`), the evaluator
    tables' checksum and the starting classes. Changing any of them computes afresh instead of
    reading stale sums; old files are simply left behind (delete the directory to reclaim them,
    or pass `recompute=True`)."""
    from qipai.games.holdem_bonus import analysis_kernels as holdem_kernels
    from qipai.poker import kernels as poker_kernels
    from qipai.poker.tables import TABLES_CRC32, cache_dir

    digest = hashlib.sha256(Path(holdem_kernels.__file__).read_bytes())
    digest.update(Path(poker_kernels.__file__).read_bytes())
    digest.update(f"{TABLES_CRC32:08x}".encode())
    digest.update(_class_signature())
    return cache_dir() / f"holdem-bonus-optimal-v{CACHE_VERSION}-{digest.hexdigest()[:16]}.npz"


def load_or_compute(recompute: bool = False) -> Sums:
    """The sums from the cache, or computed (minutes on two cores) and cached."""
    path = cache_path()
    if path.exists() and not recompute:
        try:
            with np.load(path) as data:
                timings = json.loads(str(data["timings"]))
                return Sums(
                    data["hist"],
                    data["turns"],
                    data["rivers"],
                    data["flops"],
                    timings,
                    data["turn_bets"],
                )
        except _UNREADABLE:
            pass  # a damaged cache file is recomputed and replaced
    sums = _compute_with_a_bar()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            np.savez(
                fh,
                hist=sums.hist,
                turns=sums.turns,
                rivers=sums.rivers,
                flops=sums.flops,
                turn_bets=sums.turn_bets,
                timings=np.array(json.dumps(sums.timings)),
            )
        os.replace(tmp, path)  # atomic: a concurrent reader never sees half a file
    except OSError:
        pass  # an unwritable cache is skipped
    return sums


def _compute_with_a_bar() -> Sums:
    """The first build, with a progress bar on standard error where that is a terminal (the
    build takes minutes; later runs read the cache in about a second)."""
    import sys

    if not sys.stderr.isatty():
        return compute_sums()
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn("Hold'em Bonus exact strategy, first build (cached afterwards)"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("river sums", total=RIVER_PARTS)
        return compute_sums(
            progress=lambda done, parts: bar.update(task, completed=done, total=parts)
        )


def load_turn_bets() -> npt.NDArray[np.uint8] | None:
    """The packed turn decision table (`Sums.turn_bets`) from the cache file alone, or None when
    there is no usable cache: never computes. Reads only that member of the file (~830 kB), so
    `qipai.games.holdem_bonus.strategy` can load it once, lazily, for the bots' instant turn decisions."""
    path = cache_path()
    if not path.exists():
        return None
    try:
        with np.load(path) as data:
            bets = np.ascontiguousarray(data["turn_bets"], np.uint8)
    except _UNREADABLE:
        return None
    if bets.shape != (len(start_classes()), 2, FLOPS // 8):
        return None
    return bets
