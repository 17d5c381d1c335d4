from __future__ import annotations

from collections import Counter

import pytest

from qipai.core.errors import InvalidInput
from qipai.core.tiles import (
    TILE_INFO,
    Tile,
    TileParseError,
    full_set,
    parse_tile,
    parse_tiles,
    require_available,
)

# docs/rules/paigow.md#single-tile-order, written out independently: (pips, zh, copies), highest single first.
EXPECTED_ORDER = [
    ((6, 6), "天", 2),
    ((1, 1), "地", 2),
    ((4, 4), "人", 2),
    ((1, 3), "鹅", 2),
    ((5, 5), "梅", 2),
    ((3, 3), "长三", 2),
    ((2, 2), "板凳", 2),
    ((5, 6), "斧头", 2),
    ((4, 6), "红头十", 2),
    ((1, 6), "高脚七", 2),
    ((1, 5), "零霖六", 2),
    ((4, 5), "杂九", 1),
    ((3, 6), "杂九", 1),
    ((2, 6), "杂八", 1),
    ((3, 5), "杂八", 1),
    ((2, 5), "杂七", 1),
    ((3, 4), "杂七", 1),
    ((1, 4), "杂五", 1),
    ((2, 3), "杂五", 1),
    ((2, 4), "二四", 1),
    ((1, 2), "丁三", 1),
]


def test_the_set_has_32_tiles_in_rules_order() -> None:
    tiles = full_set()
    assert len(tiles) == 32
    counts = Counter(tiles)
    for (low, high), zh, copies in EXPECTED_ORDER:
        tile = Tile(low, high)
        assert counts[tile] == copies
        assert tile.zh == zh
    ranks = [Tile(*pips).single_rank for pips, _, _ in EXPECTED_ORDER]
    assert ranks == sorted(ranks)
    # the two tiles of one 杂 kind are equal in the single-tile order
    assert Tile(4, 5).single_rank == Tile(3, 6).single_rank
    assert Tile(2, 4).single_rank < Tile(1, 2).single_rank
    assert sum(t.civil for t in tiles) == 22


def test_points_are_pips_mod_10() -> None:
    assert Tile(6, 6).points == 2
    assert Tile(4, 6).points == 0
    assert Tile(4, 5).points == 9
    assert Tile(1, 2).points == 3


@pytest.mark.parametrize(
    ("token", "pips"),
    [
        ("6-6", (6, 6)),
        ("2-1", (1, 2)),
        ("1/2", (1, 2)),
        ("天", (6, 6)),
        ("丁三", (1, 2)),
        ("heaven", (6, 6)),
        ("Heaven", (6, 6)),
        ("二四", (2, 4)),
        ("鵝", (1, 3)),
        ("虎头", (5, 6)),
        ("大头六", (1, 5)),
        ("red-head ten", (4, 6)),
    ],
)
def test_parse_by_pips_or_name(token: str, pips: tuple[int, int]) -> None:
    assert parse_tile(token) == Tile(*pips)


@pytest.mark.parametrize(
    ("token", "fragment"),
    [
        ("0-6", "not one of the 32 tiles"),
        ("6-7", "not one of the 32 tiles"),
        ("2-2-2", "not a tile name"),
        ("dragon", "not a tile name"),
        ("杂九", "ambiguous"),
        ("", "not a tile name"),
    ],
)
def test_parse_errors_name_the_token(token: str, fragment: str) -> None:
    with pytest.raises(TileParseError) as info:
        parse_tile(token)
    assert fragment in info.value.message
    assert repr(token) in info.value.message


def test_names_are_unique_per_civil_tile() -> None:
    for tile, info in TILE_INFO.items():
        if info.civil:
            assert parse_tile(info.zh) == tile
            assert parse_tile(info.en) == tile


def test_require_available() -> None:
    require_available(parse_tiles("6-6 6-6 1-2"))
    with pytest.raises(InvalidInput, match="used 3 times"):
        require_available(parse_tiles("6-6 天 heaven"))
    with pytest.raises(InvalidInput, match="used 2 times"):
        require_available(parse_tiles("1-2 丁三"))
