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
import time
from dataclasses import dataclass
from pathlib import Path

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


def compute_sums(threads: int = 2) -> Sums:
    """Run the whole exact computation (minutes on two cores)."""
    from qipai.analysis import holdem_kernels as k
    from qipai.poker.tables import tables

    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    perms, inverse = _perms()
    classes = np.array([c.cards for c in start_classes()], np.int64)
    t = tables()
    boards = k.canonical_boards(perms)
    timings["canonical boards"] = time.perf_counter() - t0
    t1 = time.perf_counter()
    acc = k.river_sums(boards, perms, inverse, classes, t.noflush, t.flush, t.card_keys, threads)
    timings["river sums over all boards"] = time.perf_counter() - t1
    t2 = time.perf_counter()
    hist, turns, rivers, flops = k.flop_values(classes, acc, np.array([0], np.int64))
    timings["flop and turn decisions"] = time.perf_counter() - t2
    timings["total"] = time.perf_counter() - t0
    return Sums(hist, turns, rivers, flops, timings)


def _class_signature() -> bytes:
    """The starting classes in kernel order: part of the cache key with the kernels' source."""
    return ";".join(f"{c.name}:{c.cards}" for c in start_classes()).encode()


def cache_path() -> Path:
    """Where the computed sums are kept (they depend only on the evaluator and this code)."""
    import platformdirs

    from qipai.analysis import holdem_kernels

    src = Path(holdem_kernels.__file__).read_bytes() + _class_signature()
    digest = hashlib.sha256(src).hexdigest()[:16]
    base = Path(platformdirs.user_cache_dir("qipai"))
    return base / f"holdem-bonus-optimal-{digest}.npz"


def load_or_compute(recompute: bool = False) -> Sums:
    """The sums from the cache, or computed (minutes) and cached."""
    path = cache_path()
    if path.exists() and not recompute:
        with np.load(path) as data:
            timings = json.loads(str(data["timings"]))
            return Sums(data["hist"], data["turns"], data["rivers"], data["flops"], timings)
    sums = compute_sums()
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(
        path,
        hist=sums.hist,
        turns=sums.turns,
        rivers=sums.rivers,
        flops=sums.flops,
        timings=np.array(json.dumps(sums.timings)),
    )
    return sums
