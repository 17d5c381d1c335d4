"""The first build of the exact Hold'em Bonus strategy shows its progress: the river sums, nearly
all of the work, are computed in parts whose sums add up to the whole (so a progress bar costs
nothing in exactness)."""

from __future__ import annotations

import numpy as np

from qipai.games.holdem_bonus import analysis_kernels as k
from qipai.games.holdem_bonus.strategy_exact import _perms, river_sums_in_parts, start_classes


def test_the_parts_add_up_to_the_whole_and_report_progress() -> None:
    perms, inverse = _perms()
    classes = np.array([c.cards for c in start_classes()], np.int64)
    boards = k.canonical_boards(perms)[[0, 20_000, 134_000]]
    whole = river_sums_in_parts(boards, perms, inverse, classes, threads=2, parts=1)
    seen: list[tuple[int, int]] = []
    parts = river_sums_in_parts(
        boards,
        perms,
        inverse,
        classes,
        threads=2,
        parts=3,
        progress=lambda d, n: seen.append((d, n)),
    )
    assert whole.any()
    assert np.array_equal(parts, whole)
    assert seen == [(1, 3), (2, 3), (3, 3)]
