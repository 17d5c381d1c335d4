"""Simulation work spread over processes, with the same result whatever their number.

A simulation is cut into chunks of a fixed size (`CHUNK`, never derived from the process
count); each chunk's deals and bot streams come from the simulation seed and the chunk's own
indices, and the chunks' results are joined in index order. So `workers=1` and `workers=8`
return the same list, and a seed names one result (docs/math.md, "Simulation").
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

from rich.progress import Progress

T = TypeVar("T")

CHUNK = 200
"""Rounds per chunk: small enough to balance the cores, large enough to hide process overhead.
Changing it changes the rounds played from a seed where deal units span rounds."""

MAX_WORKERS = 64

WORKERS: ContextVar[int | None] = ContextVar("qipai_simulate_workers", default=None)
"""The process count `qipai simulate --workers` asked for (None: every core); read by
`run_chunks`, so a game's simulator need not pass it along."""


@dataclass(frozen=True)
class Chunk:
    """Rounds [first, last) of a simulation with seed `seed`; `options` are the game's own."""

    index: int
    first: int
    last: int
    seed: int
    options: Any


def chunks(rounds: int, seed: int, options: Any, size: int = CHUNK) -> list[Chunk]:
    return [
        Chunk(k, a, min(a + size, rounds), seed, options)
        for k, a in enumerate(range(0, rounds, size))
    ]


def default_workers() -> int:
    return max(1, min(MAX_WORKERS, os.cpu_count() or 1))


@dataclass
class Run:
    """The chunks' results in index order and the CPU seconds spent (this process and its
    finished children)."""

    results: list[Any]
    cpu_seconds: float
    workers: int


def run_chunks(
    work: Callable[[Chunk], T],
    parts: Sequence[Chunk],
    workers: int | None,
    label: str,
) -> Run:
    """`work` on every chunk, on `workers` processes (default: every core), in index order;
    a progress bar on a terminal. `work` is a module-level function (it is pickled)."""
    if workers is None:
        workers = WORKERS.get()
    n = default_workers() if workers is None else workers
    n = max(1, min(n, MAX_WORKERS, len(parts)))
    before = os.times()
    results: list[Any] = []
    total = sum(p.last - p.first for p in parts)
    with Progress(transient=True, disable=not sys.stderr.isatty()) as progress:
        task = progress.add_task(label, total=total)
        if n == 1:
            for part in parts:
                results.append(work(part))
                progress.advance(task, part.last - part.first)
        else:
            with ProcessPoolExecutor(n) as pool:
                for part, done in zip(parts, pool.map(work, parts), strict=True):
                    results.append(done)
                    progress.advance(task, part.last - part.first)
    after = os.times()  # the workers' CPU is counted once the pool has ended
    cpu = sum(
        getattr(after, f) - getattr(before, f)
        for f in ("user", "system", "children_user", "children_system")
    )
    return Run(results, cpu, n)
