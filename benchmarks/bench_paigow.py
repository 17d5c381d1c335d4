"""Pai Gow speed: hand evaluation, whole two-round games, `qipai settle` documents, bot odds.

Run: `uv run python benchmarks/bench_paigow.py`. Prints one line per figure.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable
from pathlib import Path

from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.core.tiles import full_set
from qipai.games import settle_document
from qipai.games.paigow import PaigowConfig, PaigowRound
from qipai.games.paigow.bots import _odds
from qipai.games.paigow.hands import _evaluate, outcome

IDS = ["S1", "S2", "S3", "S4"]


def rate(label: str, unit: str, count: int, run: Callable[[], None], repeat: int = 3) -> None:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t0)
    print(f"{label:<52} {count / best:>12,.0f} {unit}/s")


def main() -> None:
    tiles = full_set()
    pairs = list(itertools.combinations(tiles, 2))
    raw = _evaluate.__wrapped__

    rate(
        "hand evaluation, uncached (496 hands)",
        "hands",
        496,
        lambda: [raw(a, b, "any-seven") for a, b in pairs],
    )
    hands = [_evaluate(a, b, "any-seven") for a, b in pairs]
    rate(
        "hand comparison, all 496 x 496 pairs",
        "pairs",
        496 * 496,
        lambda: [outcome(x, y) for x in hands for y in hands],
        repeat=1,
    )

    config = PaigowConfig()

    def games(n: int) -> None:
        for g in range(n):
            seed = g.to_bytes(32, "big")
            context = None
            stacks = [5000] * 4
            for _ in range(2):
                r = PaigowRound.start(
                    config,
                    [Seat(i, s) for i, s in zip(IDS, stacks, strict=True)],
                    Rng(seed),
                    context,
                )
                r.act("S1", {"type": "bid", "multiple": 1 + g % 4})
                r.expire()
                r.expire()
                r.expire()
                stacks = [s + r.result().net(i) for i, s in zip(IDS, stacks, strict=True)]
                context = r.next_round().context

    rate("two-round games (bid, bets, deal, reveal, settle)", "games", 300, lambda: games(300))

    doc = json.loads(
        (Path(__file__).parents[1] / "qipai/games/paigow/examples/issue-example.json").read_text()
    )
    rate(
        "qipai settle documents (in process)",
        "docs",
        500,
        lambda: [settle_document(doc) for _ in range(500)],
    )

    def odds() -> None:
        _odds.cache_clear()
        _odds(tuple(sorted(tiles[8:])), "any-seven")

    rate("bot pairing odds over 24 unseen tiles, uncached", "decisions", 1, odds)


if __name__ == "__main__":
    main()
