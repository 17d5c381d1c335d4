"""Two-tile Pai Gow hands: classification, names and the whole ranking (docs/rules/paigow.md#hand-order), in one place.

A hand is an unordered pair of tiles. `evaluate` classifies it as one of the 22 named hands
(至尊宝, the eleven civil pairs, the four mixed pairs, 天王 … 地高九) or as a points hand (9 … 0,
丁三 and 二四 each counting 3 or 6, whichever is better), and gives it an integer `strength`:
a higher strength beats a lower one, and equal strengths are "equal hands", which the tie
policy settles (`outcome`). Forms of one named hand are equal; equal points are split by the
higher tile, then the lower tile, by single-tile order; two 0-point hands are always equal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from qipai.core.errors import InvalidInput
from qipai.core.tiles import TILE_INFO, Tile, parse_tile, require_available

from .config import HighNine, TiePolicy

Outcome = Literal["banker", "player", "push"]

DING_THREE = Tile(
    1, 2
)  # 丁三, 3 pips; may count as 6 (docs/rules/paigow.md#ding-three-and-er-si swap)
ER_SI = Tile(2, 4)  # 二四, 6 pips; may count as 3
HEAVEN = Tile(6, 6)
EARTH = Tile(1, 1)
NINES = frozenset({Tile(4, 5), Tile(3, 6)})  # 杂九
EIGHTS = frozenset(
    {Tile(4, 4), Tile(2, 6), Tile(3, 5)}
)  # 人 and 杂八 (docs/rules/paigow.md#hand-order: 天杠/地杠)
SEVENS = frozenset({Tile(1, 6), Tile(2, 5), Tile(3, 4)})  # 高脚七 and 杂七
# docs/rules/paigow.md#high-nine Decision: with high_nine = named, only the forms the source's text names count:
# "天高九:天牌配雜牌七中的二五牌", "地高九:地牌配高腳七牌".
NAMED_HIGH_NINE = {HEAVEN: Tile(2, 5), EARTH: Tile(1, 6)}


@dataclass(frozen=True)
class HandClass:
    """One line of the hand order: `rank` 1 = 至尊宝 … 22 = 地高九, 23 = 9 points … 32 = 0 points."""

    rank: int
    key: str
    zh: str  # simplified, as docs/rules/paigow.md#hand-order writes it
    zh_hant: str  # traditional, as the source writes it
    en: str


# docs/rules/paigow.md#hand-order hand order, high to low (source: 牌型大小).
_NAMED: list[tuple[str, str, str, str]] = [
    ("supreme", "至尊宝", "至尊寶", "Supreme (Gee Joon)"),
    ("pair-heaven", "双天", "雙天", "pair of Heavens"),
    ("pair-earth", "双地", "雙地", "pair of Earths"),
    ("pair-man", "双人", "雙人", "pair of Men"),
    ("pair-goose", "双鹅", "雙鵝", "pair of Geese"),
    ("pair-plum", "双梅", "雙梅", "pair of Plums"),
    ("pair-long-three", "双长三", "雙長三", "pair of Long Threes"),
    ("pair-bench", "双板凳", "雙板凳", "pair of Benches"),
    ("pair-axe", "双斧头", "雙斧頭", "pair of Axes"),
    ("pair-red-head", "双红头", "雙紅頭", "pair of Red-head Tens"),
    ("pair-tall-seven", "双高脚", "雙高腳", "pair of Tall Sevens"),
    ("pair-copper-hammer", "双零霖", "雙零霖", "pair of Copper-hammer Sixes"),
    ("mixed-nines", "杂九", "雜九", "mixed nines (pair)"),
    ("mixed-eights", "杂八", "雜八", "mixed eights (pair)"),
    ("mixed-sevens", "杂七", "雜七", "mixed sevens (pair)"),
    ("mixed-fives", "杂五", "雜五", "mixed fives (pair)"),
    ("heaven-king", "天王", "天王", "Heaven King (Wong)"),
    ("earth-king", "地王", "地王", "Earth King"),
    ("heaven-bar", "天杠", "天槓", "Heaven Bar (Gong)"),
    ("earth-bar", "地杠", "地槓", "Earth Bar"),
    ("heaven-high-nine", "天高九", "天高九", "Heaven High Nine"),
    ("earth-high-nine", "地高九", "地高九", "Earth High Nine"),
]
_ZH_DIGITS = "零一二三四五六七八九"
_EN_DIGITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")

HAND_CLASSES: tuple[HandClass, ...] = tuple(
    [HandClass(i + 1, key, zh, hant, en) for i, (key, zh, hant, en) in enumerate(_NAMED)]
    + [
        HandClass(
            len(_NAMED) + 10 - p,
            f"points-{p}",
            f"{_ZH_DIGITS[p]}点",
            f"{_ZH_DIGITS[p]}點",
            f"{_EN_DIGITS[p]} point{'s' if p != 1 else ''}",
        )
        for p in range(9, -1, -1)
    ]
)
CLASS_BY_KEY: dict[str, HandClass] = {c.key: c for c in HAND_CLASSES}
NAMED_COUNT = len(_NAMED)  # 22

# The civil pairs in order, by tile (docs/rules/paigow.md#hand-order: 双天 > 双地 > … > 双零霖).
_CIVIL_PAIR_KEY = {
    tile: _NAMED[1 + TILE_INFO[tile].single_rank][0] for tile in TILE_INFO if TILE_INFO[tile].civil
}
# The four mixed (杂) pairs: the two different tiles of one 杂 kind.
_MIXED_PAIR_KEY = {
    frozenset({Tile(4, 5), Tile(3, 6)}): "mixed-nines",
    frozenset({Tile(2, 6), Tile(3, 5)}): "mixed-eights",
    frozenset({Tile(2, 5), Tile(3, 4)}): "mixed-sevens",
    frozenset({Tile(1, 4), Tile(2, 3)}): "mixed-fives",
}


def tile_values(tile: Tile) -> tuple[int, ...]:
    """The pip counts a tile may stand for: 丁三 and 二四 are each 3 or 6 (docs/rules/paigow.md#ding-three-and-er-si)."""
    if tile in (DING_THREE, ER_SI):
        return (3, 6) if tile == DING_THREE else (6, 3)
    return (tile.pips,)


def best_points(a: Tile, b: Tile) -> tuple[int, int, int]:
    """(points, value of a, value of b): the best (pips mod 10) over the 3-or-6 choices.

    Source: "若獲得一零霖六牌及二四牌,可以視為6+6=12,只有2點;亦可視為6+3=9點". The face value is
    listed first, so among equal totals a tile keeps its face value.
    """
    best = (-1, 0, 0)
    for va in tile_values(a):
        for vb in tile_values(b):
            points = (va + vb) % 10
            if points > best[0]:
                best = (points, va, vb)
    return best


@dataclass(frozen=True)
class Hand:
    """An evaluated hand: its class, points, the values counted for 丁三/二四, and strength."""

    tiles: tuple[Tile, Tile]  # higher tile first by single-tile order
    cls: HandClass
    points: int
    values: tuple[int, int]  # the pip values counted for each tile (3-or-6 choice shown)
    strength: int

    def to_json(self) -> dict[str, Any]:
        return {
            "tiles": [str(t) for t in self.tiles],
            "tile_names": [{"zh": t.zh, "en": t.en} for t in self.tiles],
            "zh": self.cls.zh,
            "zh_hant": self.cls.zh_hant,
            "en": self.cls.en,
            "key": self.cls.key,
            "rank": self.cls.rank,
            "points": self.points,
            "values": list(self.values),
            "strength": self.strength,
        }


def _classify(hi: Tile, lo: Tile, high_nine: HighNine) -> str | None:
    """The named hand of a pair of tiles (hi ≥ lo by single-tile order), or None for points."""
    pair = {hi, lo}
    if pair == {DING_THREE, ER_SI}:
        return "supreme"
    if hi == lo:
        return _CIVIL_PAIR_KEY.get(hi)  # only civil tiles come twice
    mixed = _MIXED_PAIR_KEY.get(frozenset(pair))
    if mixed:
        return mixed
    for top, king, bar, high in (
        (HEAVEN, "heaven-king", "heaven-bar", "heaven-high-nine"),
        (EARTH, "earth-king", "earth-bar", "earth-high-nine"),
    ):
        if top not in pair:
            continue
        other = lo if hi == top else hi
        if other in NINES:
            return king
        if other in EIGHTS:
            return bar
        if other in SEVENS and (high_nine == "any-seven" or other == NAMED_HIGH_NINE[top]):
            return high
    return None


# strength = (class score) × 400 + tie-break; the tie-break (< 17 × 17 = 289) only for 1–9 points.
_CLASS_SCALE = 400


@lru_cache(maxsize=2048)
def _evaluate(a: Tile, b: Tile, high_nine: HighNine) -> Hand:
    hi, lo = sorted((a, b), key=lambda t: (t.single_rank, -t.low))
    points, vhi, vlo = best_points(hi, lo)
    key = _classify(hi, lo, high_nine)
    tie_break = 0
    if key is None:
        key = f"points-{points}"
        if points > 0:
            # docs/rules/paigow.md#equal-hands Decision: equal points → the higher tile, then the lower tile, by
            # single-tile order (so 二四 beats 丁三 with the other tile equal); 0 points: equal.
            tie_break = (16 - hi.single_rank) * 17 + (16 - lo.single_rank)
    cls = CLASS_BY_KEY[key]
    strength = (len(HAND_CLASSES) - cls.rank) * _CLASS_SCALE + tie_break
    return Hand((hi, lo), cls, points, (vhi, vlo), strength)


def evaluate(tiles: Sequence[Tile], high_nine: HighNine = "any-seven") -> Hand:
    """Evaluate a two-tile hand (docs/rules/paigow.md#hand-order)."""
    if len(tiles) != 2:
        raise InvalidInput(f"a Pai Gow hand has 2 tiles, got {len(tiles)}")
    require_available(tiles, "one hand")
    return _evaluate(tiles[0], tiles[1], high_nine)


def parse_hand(tokens: Sequence[str] | str, high_nine: HighNine = "any-seven") -> Hand:
    """Evaluate a hand given as tile tokens (`["6-6", "4-5"]` or `"天 4-5"`)."""
    if isinstance(tokens, str):
        tokens = tokens.replace(",", " ").split()
    return evaluate([parse_tile(t) for t in tokens], high_nine)


def outcome(banker: Hand, player: Hand, tie_policy: TiePolicy = "banker") -> Outcome:
    """Who wins a pairing: the stronger hand; equal hands per the tie policy (docs/rules/paigow.md#hand-order)."""
    if player.strength > banker.strength:
        return "player"
    if player.strength < banker.strength:
        return "banker"
    return "banker" if tie_policy == "banker" else "push"
