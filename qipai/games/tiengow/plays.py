"""Tien Gow plays: the nine kinds, their orders, and the legal leads, beats and discards.

docs/rules/tiengow.md#kinds-of-play: a lead is one of nine kinds (文牌, 武牌, 文对, 武对, 文武, 至尊, 三文, 三武, 四文武);
only a play of the same kind, strictly higher than the best play so far, beats it ("equal does not
beat: the first played holds"). Any other player discards (垫牌) the same number of tiles face down.

Tiles in a hand are *instances*: `(id, Tile)` pairs, so that the two 天 tiles are distinct objects.
Classification looks only at the faces; the legal-play lists are lists of id tuples.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations

from qipai.core.tiles import Tile


class Kind(Enum):
    """The nine kinds of play (value = the JSON name)."""

    CIVIL = "civil"  # 文牌
    MILITARY = "military"  # 武牌
    CIVIL_PAIR = "civil_pair"  # 文对
    MILITARY_PAIR = "military_pair"  # 武对
    MIXED_PAIR = "mixed_pair"  # 文武
    SUPREME = "supreme"  # 至尊 (武尊)
    THREE_CIVIL = "three_civil"  # 三文
    THREE_MILITARY = "three_military"  # 三武
    FOUR = "four"  # 四文武


KIND_ZH: dict[Kind, str] = {
    Kind.CIVIL: "文牌",
    Kind.MILITARY: "武牌",
    Kind.CIVIL_PAIR: "文对",
    Kind.MILITARY_PAIR: "武对",
    Kind.MIXED_PAIR: "文武",
    Kind.SUPREME: "至尊",
    Kind.THREE_CIVIL: "三文",
    Kind.THREE_MILITARY: "三武",
    Kind.FOUR: "四文武",
}

KIND_SIZE: dict[Kind, int] = {
    Kind.CIVIL: 1,
    Kind.MILITARY: 1,
    Kind.CIVIL_PAIR: 2,
    Kind.MILITARY_PAIR: 2,
    Kind.MIXED_PAIR: 2,
    Kind.SUPREME: 2,
    Kind.THREE_CIVIL: 3,
    Kind.THREE_MILITARY: 3,
    Kind.FOUR: 4,
}


def _t(low: int, high: int) -> Tile:
    return Tile(low, high)


# docs/rules/tiengow.md#tiles: civil (文) singles, high to low: 天 6-6, 地 1-1, 人 4-4, 鹅 1-3, 梅 5-5, 长三 3-3,
# 板凳 2-2, 虎头 5-6, 红头十 4-6, 高脚七 1-6, 大头六 1-5.
CIVIL_ORDER: tuple[tuple[str, Tile], ...] = (
    ("天", _t(6, 6)),
    ("地", _t(1, 1)),
    ("人", _t(4, 4)),
    ("鹅", _t(1, 3)),
    ("梅", _t(5, 5)),
    ("长三", _t(3, 3)),
    ("板凳", _t(2, 2)),
    ("虎头", _t(5, 6)),
    ("红头十", _t(4, 6)),
    ("高脚七", _t(1, 6)),
    ("大头六", _t(1, 5)),
)
# Military (武) singles, high to low: 九 (4-5 = 3-6) > 八 (2-6 = 3-5) > 七 (2-5 = 3-4) > 大鸡六 2-4
# > 五 (1-4 = 2-3) > 细鸡六 1-2. Tiles of one rank are equal.
MILITARY_ORDER: tuple[tuple[str, tuple[Tile, ...]], ...] = (
    ("九", (_t(4, 5), _t(3, 6))),
    ("八", (_t(2, 6), _t(3, 5))),
    ("七", (_t(2, 5), _t(3, 4))),
    ("大鸡六", (_t(2, 4),)),
    ("五", (_t(1, 4), _t(2, 3))),
    ("细鸡六", (_t(1, 2),)),
)
CIVIL_RANK: dict[Tile, int] = {tile: i for i, (_, tile) in enumerate(CIVIL_ORDER)}
MILITARY_RANK: dict[Tile, int] = {
    tile: i for i, (_, tiles) in enumerate(MILITARY_ORDER) for tile in tiles
}
TILE_NAME: dict[Tile, str] = {tile: name for name, tile in CIVIL_ORDER} | {
    tile: name for name, tiles in MILITARY_ORDER for tile in tiles
}
# The four families of mixed plays: the civil tile and the military rank that go together
# (天九, 地八, 人七, 鹅五), highest first.
FAMILIES: tuple[tuple[str, int, int], ...] = (
    ("天九", 0, 0),  # (name, civil rank of 天, military rank of 九)
    ("地八", 1, 1),
    ("人七", 2, 2),
    ("鹅五", 3, 4),
)
WU_ZUN = frozenset({_t(2, 4), _t(1, 2)})  # 至尊宝: 大鸡六 + 细鸡六
BIG_HEAD_SIX = _t(1, 5)  # 大头六: a pair of them is 文尊 when the setting is on
HIGH_SEVEN_PAIR_RANK = 9  # 双高脚七, the one civil pair that beats 文尊
BIG_HEAD_SIX_PAIR_RANK = 10  # 双大头六 (文尊 when the setting is on)
# 武对, high to low: 杂九 > 杂八 > 杂七 > 杂五 (military rank -> pair rank).
MILITARY_PAIR_RANK: dict[int, int] = {0: 0, 1: 1, 2: 2, 4: 3}
MILITARY_PAIR_NAMES: tuple[str, ...] = ("杂九", "杂八", "杂七", "杂五")


@dataclass(frozen=True)
class Play:
    """A classified play: its kind, its rank within the kind (0 = highest) and its name."""

    kind: Kind
    rank: int
    name: str
    wen_zun: bool = False  # a pair of 大头六 played with the 文尊 setting on

    @property
    def size(self) -> int:
        return KIND_SIZE[self.kind]

    @property
    def zun(self) -> bool:
        """True for a play that collects 尊钱 when played (武尊, or 文尊 when on)."""
        return self.kind is Kind.SUPREME or self.wen_zun

    @property
    def name_en(self) -> str:
        """The play's English name, built like the Chinese one (双天 = pair of heaven, …)."""
        return english_name(self)

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind.value,
            "kind_zh": KIND_ZH[self.kind],
            "rank": self.rank,
            "zh": self.name,
            "en": self.name_en,
            "zun": self.zun,
        }


# English names for the UI, by rank, parallel to CIVIL_ORDER / MILITARY_ORDER / FAMILIES.
CIVIL_EN: tuple[str, ...] = (
    "heaven",
    "earth",
    "man",
    "goose",
    "plum",
    "long three",
    "bench",
    "tiger head",
    "red-head ten",
    "tall seven",
    "big-head six",
)
MILITARY_EN: tuple[str, ...] = (
    "nine",
    "eight",
    "seven",
    "big chicken six",
    "five",
    "small chicken six",
)
FAMILIES_EN: tuple[str, ...] = ("heaven nine", "earth eight", "man seven", "goose five")
MILITARY_PAIR_EN: tuple[str, ...] = ("mixed nines", "mixed eights", "mixed sevens", "mixed fives")


def english_name(play: Play) -> str:
    """The English name of a classified play (the UI's English text; `name` stays Chinese)."""
    kind, rank = play.kind, play.rank
    if kind is Kind.CIVIL:
        return CIVIL_EN[rank]
    if kind is Kind.MILITARY:
        return MILITARY_EN[rank]
    if kind is Kind.CIVIL_PAIR:
        return "civil supreme" if play.wen_zun else f"pair of {CIVIL_EN[rank]}"
    if kind is Kind.MILITARY_PAIR:
        return MILITARY_PAIR_EN[rank]
    if kind is Kind.SUPREME:
        return "supreme"
    family = FAMILIES_EN[rank]
    if kind is Kind.MIXED_PAIR:
        return family
    if kind is Kind.THREE_CIVIL:
        return f"three-civil {family}"
    if kind is Kind.THREE_MILITARY:
        return f"three-military {family}"
    return f"four {family}"


def _family_of(civil_rank: int, military_rank: int) -> int | None:
    for index, (_, c, m) in enumerate(FAMILIES):
        if c == civil_rank and m == military_rank:
            return index
    return None


def classify(tiles: Sequence[Tile], wen_zun: bool = False) -> Play | None:
    """The play these tiles make, or None when they are not one of the nine kinds."""
    n = len(tiles)
    civil = sorted(CIVIL_RANK[t] for t in tiles if t in CIVIL_RANK)
    military = sorted(MILITARY_RANK[t] for t in tiles if t in MILITARY_RANK)
    if n == 1:
        if civil:
            return Play(Kind.CIVIL, civil[0], CIVIL_ORDER[civil[0]][0])
        return Play(Kind.MILITARY, military[0], MILITARY_ORDER[military[0]][0])
    if n == 2:
        if len(civil) == 2:
            if civil[0] != civil[1]:
                return None
            rank = civil[0]
            if wen_zun and rank == BIG_HEAD_SIX_PAIR_RANK:
                return Play(Kind.CIVIL_PAIR, rank, "文尊", wen_zun=True)
            return Play(Kind.CIVIL_PAIR, rank, "双" + CIVIL_ORDER[rank][0])
        if len(military) == 2:
            if frozenset(tiles) == WU_ZUN:
                return Play(Kind.SUPREME, 0, "至尊")
            # 武对: the two *different* tiles of one military rank (杂九 = 4-5 + 3-6, ...).
            if military[0] != military[1] or tiles[0] == tiles[1]:
                return None
            if military[0] not in MILITARY_PAIR_RANK:
                return None
            rank = MILITARY_PAIR_RANK[military[0]]
            return Play(Kind.MILITARY_PAIR, rank, MILITARY_PAIR_NAMES[rank])
        family = _family_of(civil[0], military[0])
        if family is None:
            return None
        return Play(Kind.MIXED_PAIR, family, FAMILIES[family][0])
    if n == 3:
        if len(civil) == 2 and civil[0] == civil[1]:
            family = _family_of(civil[0], military[0])
            if family is None:
                return None
            return Play(Kind.THREE_CIVIL, family, "三文" + FAMILIES[family][0])
        if len(civil) == 1 and military[0] == military[1] and tiles_distinct(tiles):
            family = _family_of(civil[0], military[0])
            if family is None:
                return None
            return Play(Kind.THREE_MILITARY, family, "三武" + FAMILIES[family][0])
        return None
    if n == 4:
        if len(civil) == 2 and civil[0] == civil[1] and military[0] == military[1]:
            if not tiles_distinct([t for t in tiles if t in MILITARY_RANK]):
                return None
            family = _family_of(civil[0], military[0])
            if family is None:
                return None
            return Play(Kind.FOUR, family, "四" + FAMILIES[family][0])
        return None
    return None


def tiles_distinct(tiles: Iterable[Tile]) -> bool:
    """True when no face repeats (a military face exists once, so a repeat is impossible in play;
    checking keeps `classify` exact for arbitrary input)."""
    listed = list(tiles)
    return len(set(listed)) == len(listed)


def beats(new: Play, best: Play) -> bool:
    """Whether `new` beats the best play so far (docs/rules/tiengow.md#kinds-of-play: same kind, strictly higher).

    至尊 is never beaten. 文尊 (setting on) beats every civil pair except 双高脚七, which beats it.
    Equal plays do not beat: the first played holds.
    """
    if new.kind is not best.kind or best.kind is Kind.SUPREME:
        return False
    if best.wen_zun:
        return new.kind is Kind.CIVIL_PAIR and new.rank == HIGH_SEVEN_PAIR_RANK
    if new.wen_zun:
        return best.rank != HIGH_SEVEN_PAIR_RANK
    return new.rank < best.rank


Hand = Sequence[tuple[int, Tile]]


def _subsets(hand: Hand, size: int) -> Iterable[tuple[tuple[int, Tile], ...]]:
    return combinations(sorted(hand), size)


def legal_leads(hand: Hand, wen_zun: bool = False) -> list[tuple[tuple[int, ...], Play]]:
    """Every set of 1–4 tiles of the hand that makes one of the nine kinds, with its play."""
    out: list[tuple[tuple[int, ...], Play]] = []
    for size in range(1, min(4, len(hand)) + 1):
        for subset in _subsets(hand, size):
            play = classify([t for _, t in subset], wen_zun)
            if play is not None:
                out.append((tuple(i for i, _ in subset), play))
    return out


def may_win_last_trick(dong: int, size: int) -> bool:
    """docs/rules/tiengow.md#two-dong-rule, the two-栋 rule: nobody may end the game with fewer than 2 栋, so winning the
    last trick (worth `size` 栋) is allowed only if `dong + size >= 2`. A player with no 栋 after
    seven tiles must discard the last one; with none after six, winning the last two as a
    combination is allowed."""
    return dong + size >= 2


def legal_beats(
    hand: Hand,
    best: Play,
    wen_zun: bool = False,
    *,
    last_trick: bool = False,
    dong: int = 0,
) -> list[tuple[tuple[int, ...], Play]]:
    """Every set of the hand's tiles that beats `best` (same size and kind, strictly higher);
    none on the last trick when the two-栋 rule forbids this player to win it."""
    if len(hand) < best.size:
        return []
    if last_trick and not may_win_last_trick(dong, best.size):
        return []
    out: list[tuple[tuple[int, ...], Play]] = []
    for subset in _subsets(hand, best.size):
        play = classify([t for _, t in subset], wen_zun)
        if play is not None and beats(play, best):
            out.append((tuple(i for i, _ in subset), play))
    return out


def legal_discards(hand: Hand, size: int) -> list[tuple[int, ...]]:
    """Every set of `size` tiles of the hand: a discard (垫牌) may be any tiles."""
    return [tuple(i for i, _ in subset) for subset in _subsets(hand, size)]


def tile_json(tile_id: int, tile: Tile) -> dict[str, object]:
    """One tile instance as the client sees it."""
    return {
        "id": tile_id,
        "tile": str(tile),
        "zh": TILE_NAME[tile],
        "en": CIVIL_EN[CIVIL_RANK[tile]]
        if tile in CIVIL_RANK
        else MILITARY_EN[MILITARY_RANK[tile]],
        "civil": tile in CIVIL_RANK,
        # where a player holds it: civil high to low (0-10), then military high to low (11-16)
        "order": CIVIL_RANK[tile] if tile in CIVIL_RANK else len(CIVIL_ORDER) + MILITARY_RANK[tile],
    }
