"""Unbiased draws, exhaustively where the space allows: `randbelow`'s rejection sampling over
every byte value, Fisher–Yates over every draw sequence of tiny decks, and the engine's shuffle
counted over permutations and positions (each with a biased negative control that must fail)."""

from __future__ import annotations

import hashlib
import itertools
import math
from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest
from scipy import stats

from qipai.core.rng import Rng

KEY = hashlib.sha256(b"shuffle tests").digest()


class Scripted(Rng):
    """An Rng whose bytes are given (to drive `randbelow` through every input)."""

    def __init__(self, data: bytes) -> None:
        super().__init__(KEY)
        self.data = bytearray(data)

    def next_bytes(self, n: int) -> bytes:
        out, self.data = bytes(self.data[:n]), self.data[n:]
        assert len(out) == n, "script ran out"
        return out


@pytest.mark.parametrize(
    "n", [*range(2, 300), 1000, 4097, 65535, 65536, pytest.param(65537, marks=pytest.mark.slow)]
)
def test_randbelow_maps_every_input_uniformly(n: int) -> None:
    """Over every value of the draw's bytes, each accepted result comes from the same number
    of inputs (so uniform bytes give a uniform result) and the rejected rest is redrawn."""
    width = ((n - 1).bit_length() + 7) // 8
    hits: Counter[int] = Counter()
    rejected = 0
    for value in range(256**width):
        rng = Scripted(value.to_bytes(width, "big") + bytes(width))
        got = rng.randbelow(n)
        if len(rng.data) == width:  # accepted at the first draw
            hits[got] += 1
        else:
            rejected += 1
            assert got == 0  # the redraw read the zero bytes
    assert set(hits) == set(range(n))
    assert len(set(hits.values())) == 1  # every result equally often
    # the fewest whole bytes, masked to bit_length(n − 1) bits: fewer than half are rejected
    assert rejected / 256**width < 0.5


def fisher_yates(n: int, draws: list[int]) -> tuple[int, ...]:
    """docs/fairness.md §Shuffle with given draws j_i for i = n−1 … 1."""
    items = list(range(n))
    for i, j in zip(range(n - 1, 0, -1), draws, strict=True):
        items[i], items[j] = items[j], items[i]
    return tuple(items)


@pytest.mark.parametrize("n", range(1, 8))
def test_fisher_yates_is_a_bijection_from_draws_to_permutations(n: int) -> None:
    """Every one of the n! draw sequences (j_i uniform in [0, i]) gives a different permutation,
    so uniform draws give every permutation with probability exactly 1/n!."""
    sequences = itertools.product(*[range(i + 1) for i in range(n - 1, 0, -1)])
    perms = Counter(fisher_yates(n, list(s)) for s in sequences)
    assert len(perms) == math.factorial(n)
    assert set(perms.values()) == {1}


def test_the_engine_shuffle_is_fisher_yates_over_randbelow() -> None:
    for k in range(300):
        key = hashlib.sha256(b"fy %d" % k).digest()
        n = 2 + k % 60
        items = list(range(n))
        Rng(key, "s").shuffle(items)
        ref = Rng(key, "s")
        assert tuple(items) == fisher_yates(n, [ref.randbelow(i + 1) for i in range(n - 1, 0, -1)])


def _naive(rng: Rng) -> Callable[[list[int]], None]:
    """The classic biased shuffle (swap each position with any position): the control."""

    def shuffle(items: list[int]) -> None:
        for i in range(len(items)):
            j = rng.randbelow(len(items))
            items[i], items[j] = items[j], items[i]

    return shuffle


def _permutation_pvalue(shuffle: Callable[[list[int]], None], n: int, trials: int) -> float:
    counts = Counter()
    for _ in range(trials):
        items = list(range(n))
        shuffle(items)
        counts[tuple(items)] += 1
    observed = [counts[p] for p in itertools.permutations(range(n))]
    return float(stats.chisquare(observed).pvalue)


@pytest.mark.parametrize(("n", "trials"), [(3, 30_000), (4, 48_000)])
def test_every_permutation_of_a_tiny_deck_is_equally_often(n: int, trials: int) -> None:
    assert _permutation_pvalue(Rng(KEY, f"perm{n}").shuffle, n, trials) > 0.001
    assert _permutation_pvalue(_naive(Rng(KEY, f"naive{n}")), n, trials) < 1e-6


def _position_pvalue(shuffle: Callable[[list[int]], None], n: int, trials: int) -> float:
    counts = np.zeros((n, n), dtype=np.int64)
    for _ in range(trials):
        items = list(range(n))
        shuffle(items)
        counts[np.asarray(items), np.arange(n)] += 1
    expected = trials / n
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    return float(stats.chi2.sf(chi2, (n - 1) ** 2))


@pytest.mark.parametrize(("n", "trials"), [(6, 30_000), (32, 20_000)])
def test_card_and_tile_positions_are_uniform(n: int, trials: int) -> None:
    """Chi-square over card × position for a small deck and for the 32 tiles."""
    assert _position_pvalue(Rng(KEY, f"pos{n}").shuffle, n, trials) > 0.001
    assert _position_pvalue(_naive(Rng(KEY, f"naive-pos{n}")), n, trials) < 1e-6
