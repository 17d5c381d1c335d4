"""The 32 Chinese dominoes (骨牌) used by Pai Gow and Tien Gow (docs/rules/paigow.md#tiles, §5).

A `Tile` is identified by its pips (low, high). The set holds two of each of the eleven civil
(文) tiles and one of each of the ten military (武) tiles. `single_rank` is the single-tile order
of docs/rules/paigow.md#single-tile-order (天 highest = 0); the two tiles of one 杂 kind share a rank.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from qipai.core.errors import InvalidInput


class TileParseError(InvalidInput):
    code = "bad_tile"


@dataclass(frozen=True, order=True)
class Tile:
    """One domino by its pips; names and order come from `TILE_INFO`."""

    low: int
    high: int

    @property
    def pips(self) -> int:
        return self.low + self.high

    @property
    def points(self) -> int:
        """Pai Gow points: pips mod 10 (丁三/二四 substitution is a hand rule, not a tile's)."""
        return self.pips % 10

    @property
    def info(self) -> TileInfo:
        return TILE_INFO[self]

    @property
    def zh(self) -> str:
        return self.info.zh

    @property
    def en(self) -> str:
        return self.info.en

    @property
    def civil(self) -> bool:
        return self.info.civil

    @property
    def single_rank(self) -> int:
        return self.info.single_rank

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    def __repr__(self) -> str:
        return f"Tile({self.low}-{self.high})"


@dataclass(frozen=True)
class TileInfo:
    zh: str
    zh_hant: str
    en: str
    civil: bool
    single_rank: int  # 0 = 天, highest; equal for the two tiles of one 杂 kind
    copies: int
    aliases: tuple[str, ...] = ()


def _t(low: int, high: int) -> Tile:
    return Tile(min(low, high), max(low, high))


# docs/rules/paigow.md#single-tile-order: single-tile order 天 > 地 > 人 > 鹅 > 梅 > 长三 > 板凳 > 斧头 > 红头十 > 高脚七 > 零霖六
# > 杂九 > 杂八 > 杂七 > 杂五 > 二四 > 丁三.
TILE_INFO: dict[Tile, TileInfo] = {
    _t(6, 6): TileInfo("天", "天", "heaven", True, 0, 2, ("teen",)),
    _t(1, 1): TileInfo("地", "地", "earth", True, 1, 2, ("day",)),
    _t(4, 4): TileInfo("人", "人", "man", True, 2, 2, ("yun",)),
    _t(1, 3): TileInfo("鹅", "鵝", "goose", True, 3, 2, ("和", "harmony", "gor")),
    _t(5, 5): TileInfo("梅", "梅", "plum", True, 4, 2, ("梅花", "mooy")),
    _t(3, 3): TileInfo("长三", "長三", "long three", True, 5, 2, ("长", "長", "chong")),
    _t(2, 2): TileInfo("板凳", "板凳", "bench", True, 6, 2, ("bon",)),
    _t(5, 6): TileInfo("斧头", "斧頭", "axe", True, 7, 2, ("虎头", "虎頭", "foo")),
    _t(4, 6): TileInfo("红头十", "紅頭十", "red-head ten", True, 8, 2, ("红头", "紅頭", "ping")),
    _t(1, 6): TileInfo("高脚七", "高腳七", "tall seven", True, 9, 2, ("高脚", "高腳", "tit")),
    _t(1, 5): TileInfo(
        "零霖六",
        "零霖六",
        "copper-hammer six",
        True,
        10,
        2,
        ("零霖", "大头六", "大頭六", "铜锤六", "銅錘六", "拎冧六", "look"),
    ),
    _t(4, 5): TileInfo("杂九", "雜九", "mixed nine", False, 11, 1),
    _t(3, 6): TileInfo("杂九", "雜九", "mixed nine", False, 11, 1),
    _t(2, 6): TileInfo("杂八", "雜八", "mixed eight", False, 12, 1),
    _t(3, 5): TileInfo("杂八", "雜八", "mixed eight", False, 12, 1),
    _t(2, 5): TileInfo("杂七", "雜七", "mixed seven", False, 13, 1),
    _t(3, 4): TileInfo("杂七", "雜七", "mixed seven", False, 13, 1),
    _t(1, 4): TileInfo("杂五", "雜五", "mixed five", False, 14, 1),
    _t(2, 3): TileInfo("杂五", "雜五", "mixed five", False, 14, 1),
    _t(2, 4): TileInfo(
        "二四", "二四", "two-four", False, 15, 1, ("大鸡六", "大雞六", "gee joon six")
    ),
    _t(1, 2): TileInfo(
        "丁三", "丁三", "ding three", False, 16, 1, ("细鸡六", "細雞六", "gee joon three")
    ),
}

TILE_KINDS: tuple[Tile, ...] = tuple(sorted(TILE_INFO, key=lambda t: (TILE_INFO[t].single_rank, t)))


def full_set() -> list[Tile]:
    """The 32 tiles, highest first: two of each civil tile, one of each military tile."""
    return [tile for tile in TILE_KINDS for _ in range(TILE_INFO[tile].copies)]


def _name_index() -> dict[str, list[Tile]]:
    index: dict[str, list[Tile]] = {}
    for tile, info in TILE_INFO.items():
        for name in (info.zh, info.zh_hant, info.en, *info.aliases):
            key = name.strip().lower()
            if tile not in index.setdefault(key, []):
                index[key].append(tile)
    return index


_BY_NAME = _name_index()


def parse_tile(token: str) -> Tile:
    """Parse pips (`6-6`, `1-2`, `2/4`) or a name (`天`, `丁三`, `heaven`, `雜九 4-5` is by pips)."""
    if not isinstance(token, str):
        raise TileParseError(f"bad tile {token!r}: expected pips like '6-6' or a name like '天'")
    text = token.strip()
    for sep in ("-", "/", ":"):
        if sep in text:
            parts = text.split(sep)
            if len(parts) == 2 and all(p.strip().isdigit() for p in parts):
                tile = _t(int(parts[0]), int(parts[1]))
                if tile not in TILE_INFO:
                    raise TileParseError(f"bad tile {token!r}: {tile} is not one of the 32 tiles")
                return tile
    found = _BY_NAME.get(text.lower())
    if not found:
        raise TileParseError(f"bad tile {token!r}: not a tile name or pips like '6-6'")
    if len(found) > 1:
        options = " or ".join(str(t) for t in found)
        raise TileParseError(f"ambiguous tile {token!r}: it may be {options}; give the pips")
    return found[0]


def parse_tiles(tokens: str | Iterable[str]) -> list[Tile]:
    if isinstance(tokens, str):
        tokens = tokens.replace(",", " ").split()
    return [parse_tile(t) for t in tokens]


def require_available(tiles: Sequence[Tile], what: str = "tiles") -> None:
    """Refuse a multiset of tiles the 32-tile set cannot supply (a tile used too often)."""
    for tile, count in Counter(tiles).items():
        if count > TILE_INFO[tile].copies:
            raise InvalidInput(
                f"tile {tile} ({tile.zh}) used {count} times in {what}; "
                f"the set has {TILE_INFO[tile].copies}"
            )
