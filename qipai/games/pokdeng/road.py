"""The Pok Deng road (牌路): per-table history of each position's result against the banker.

docs/rules/pokdeng.md#road, Road: blue = the player position won, grey = it lost, green = tie; an outer ring when
the result was a special, suited or pair hand; a yellow dot top-left for a pair.

**Decision (which hand rings the bead):** the ring marks the *winning* hand being a double hand
(special 7.1–7.5, suited or pair) — the hand that made the result pay or lose 2x; on a tie it marks
the position's own hand. The yellow dot marks the position's own pair (what its pair bet pays on).
A row also notes a banker pair (the banker-player mode's `B pair` bet).

The road is pure data: `road_row(hands)` makes one row from a round's hands; a `Road` is a list of
rows. It travels compactly in the round context as one string — rows separated by `;`, each row
five cell codes (`W`/`L`/`T`, then `r` for a ring, `p` for a pair) and `p`/`-` for a banker pair,
e.g. `"Wr,L,T,Wrp,L,-;…"` — so the table's road for the current shoe replays with its rounds.
The round's view carries the same string (`road_view`: `{"code": …, "counts": …}`), which the
browser draws from; `Road.to_json()` is its spelled-out equivalent (one object per bead).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from qipai.core.errors import InvalidInput
from qipai.games.pokdeng.config import BANKER, POSITIONS
from qipai.games.pokdeng.hands import KLASS_COUNT, KLASSES, Hand

RESULTS: Final = {"W": "win", "L": "lose", "T": "tie"}
COLORS: Final = {"win": "blue", "lose": "grey", "tie": "green"}
_CODE_OF: Final = {v: k for k, v in RESULTS.items()}
_ROW = r"(?:[WLT]r?p?,){5}[p-]"
ROAD_PATTERN: Final = re.compile(rf"(?:{_ROW}(?:;{_ROW})*)?")


@dataclass(frozen=True, slots=True)
class RoadCell:
    """One bead: a position's result against the banker and its markers."""

    result: str  # "win" | "lose" | "tie", from the player position's side
    ring: bool
    pair: bool

    @property
    def color(self) -> str:
        return COLORS[self.result]

    @property
    def code(self) -> str:
        return _CODE_OF[self.result] + ("r" if self.ring else "") + ("p" if self.pair else "")

    @classmethod
    def from_code(cls, code: str) -> RoadCell:
        if not isinstance(code, str) or not code or code[0] not in RESULTS:
            raise InvalidInput(f"bad road cell {code!r}")
        rest = code[1:]
        if rest not in ("", "r", "p", "rp"):
            raise InvalidInput(f"bad road cell {code!r}")
        return cls(RESULTS[code[0]], "r" in rest, "p" in rest)

    def to_json(self) -> dict[str, Any]:
        return {"result": self.result, "color": self.color, "ring": self.ring, "pair": self.pair}


def road_cell(player: Hand, banker: Hand) -> RoadCell:
    """The bead of one position (see the module's Decision on the ring)."""
    if player.rank > banker.rank:
        return RoadCell("win", player.double, player.pair)
    if player.rank < banker.rank:
        return RoadCell("lose", banker.double, player.pair)
    return RoadCell("tie", player.double, player.pair)


def cell_code(player: Hand, banker: Hand) -> str:
    """`road_cell(player, banker).code` without building the cell (the round's hot path)."""
    if player.rank > banker.rank:
        code, ring = "W", player.double
    elif player.rank < banker.rank:
        code, ring = "L", banker.double
    else:
        code, ring = "T", player.double
    if ring:
        code += "r"
    return code + "p" if player.pair else code


# cell_code for every (position hand class, banker hand class): a lookup on the hot path.
_CELL_TABLE: Final = [
    [cell_code(p, b) if p and b else "" for b in (KLASSES.get(k) for k in range(KLASS_COUNT))]
    for p in (KLASSES.get(k) for k in range(KLASS_COUNT))
]


def row_code(hands: Mapping[str, Hand]) -> str:
    """`road_row(hands).code()`, fast: five cell codes and the banker-pair flag."""
    return klass_row_code({name: hands[name].klass for name in (*POSITIONS, BANKER)})


def klass_row_code(klasses: Mapping[str, int]) -> str:
    """`row_code` from the hands' classes (`Hand.klass`: rank, double, pair), the round's hot
    path."""
    b = klasses[BANKER]
    t = _CELL_TABLE
    return ",".join(
        (
            t[klasses["P1"]][b],
            t[klasses["P2"]][b],
            t[klasses["P3"]][b],
            t[klasses["P4"]][b],
            t[klasses["P5"]][b],
            "p" if b & 1 else "-",  # the class's low bit is the pair flag (hands.py)
        )
    )


@dataclass(frozen=True, slots=True)
class RoadRow:
    """One round on the road: the five positions' beads and whether the banker had a pair."""

    cells: tuple[RoadCell, ...]
    banker_pair: bool

    def code(self) -> str:
        """Compact form: five cell codes then `p` (banker pair) or `-`, comma-separated."""
        return ",".join([*(c.code for c in self.cells), "p" if self.banker_pair else "-"])

    @classmethod
    def from_code(cls, code: str) -> RoadRow:
        if not re.fullmatch(_ROW, code):
            raise InvalidInput(f"bad road row {code!r}")
        parts = code.split(",")
        return cls(tuple(RoadCell.from_code(c) for c in parts[:5]), parts[5] == "p")

    def to_json(self) -> dict[str, Any]:
        return {
            "cells": {p: c.to_json() for p, c in zip(POSITIONS, self.cells, strict=True)},
            "banker_pair": self.banker_pair,
        }


def road_row(hands: Mapping[str, Hand]) -> RoadRow:
    """The road row of a dealt round (`hands` has P1–P5 and B)."""
    banker = hands[BANKER]
    return RoadRow(tuple(road_cell(hands[p], banker) for p in POSITIONS), banker.pair)


def check_road_code(text: object) -> None:
    """Refuse anything that is not a road in its compact string form (cheap: one regex)."""
    if not isinstance(text, str) or not ROAD_PATTERN.fullmatch(text):
        raise InvalidInput(f"bad road {text!r}: expected rows like 'Wr,L,T,Wrp,L,-' joined by ';'")


class Road:
    """A table's road for the current shoe: rows in play order, fed one round at a time."""

    __slots__ = ("rows",)

    def __init__(self, rows: Iterable[RoadRow] = ()) -> None:
        self.rows: list[RoadRow] = list(rows)

    def add(self, hands: Mapping[str, Hand]) -> RoadRow:
        row = road_row(hands)
        self.rows.append(row)
        return row

    def counts(self, position: str) -> dict[str, int]:
        """Wins, losses and ties of one position so far (the summary beside the road)."""
        i = POSITIONS.index(position)
        out = {"win": 0, "lose": 0, "tie": 0}
        for row in self.rows:
            out[row.cells[i].result] += 1
        return out

    def encode(self) -> str:
        """The compact string form carried in the round context."""
        return ";".join(r.code() for r in self.rows)

    @classmethod
    def decode(cls, text: object) -> Road:
        check_road_code(text)
        assert isinstance(text, str)
        return cls(RoadRow.from_code(r) for r in text.split(";")) if text else cls()

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": [r.to_json() for r in self.rows],
            "counts": {p: self.counts(p) for p in POSITIONS},
        }


_COUNTS_CACHE: dict[str, dict[str, dict[str, int]]] = {}
_COUNTS_CACHE_SIZE: Final = 64


def _zero_counts() -> dict[str, dict[str, int]]:
    return {p: {"win": 0, "lose": 0, "tie": 0} for p in POSITIONS}


def road_counts(text: str) -> dict[str, dict[str, int]]:
    """`{p: Road.decode(text).counts(p) for p in POSITIONS}`, built incrementally: a shoe's road
    grows by one row a round, so the counts of its first rows are reused (the view's hot path).
    The returned dicts are shared between views and must not be changed."""
    hit = _COUNTS_CACHE.get(text)
    if hit is not None:
        return hit
    head, _, last = text.rpartition(";")
    base = _COUNTS_CACHE.get(head) if head else None
    if base is not None and re.fullmatch(_ROW, last):
        counts = {p: dict(c) for p, c in base.items()}
        rows = [last]
    else:
        check_road_code(text)
        counts = _zero_counts()
        rows = text.split(";") if text else []
    for row in rows:
        for position, cell in zip(POSITIONS, row.split(","), strict=False):  # 5 cells, then B
            counts[position][RESULTS[cell[0]]] += 1
    _COUNTS_CACHE[text] = counts
    if len(_COUNTS_CACHE) > _COUNTS_CACHE_SIZE:
        # the card room's table threads share this cache: two of them may evict the same
        # oldest entry (a KeyError that suspended the table, seen under load),
        # or one may insert between `iter` and `next` here; either is harmless, so ignored
        with contextlib.suppress(KeyError, RuntimeError, StopIteration):
            _COUNTS_CACHE.pop(next(iter(_COUNTS_CACHE)))
    return counts


def road_view(text: str) -> dict[str, Any]:
    """The road as the round's view carries it: `{"code": text, "counts": road_counts(text)}`.

    Why the compact string and not `Road.to_json()`: the view goes to every client after every
    change, and the per-bead JSON (result, colour, ring, pair; five beads a row) was 8.9 kB of
    an 11.4 kB view at round 25 of a shoe; the string says the same (`Road.decode(code)
    .to_json()` rebuilds it; the colour follows from the result, `COLORS`) in 0.55 kB with the
    counts. `road_counts` validates the text (cheaply, for a road that grew by one row)."""
    return {"code": text, "counts": road_counts(text)}
