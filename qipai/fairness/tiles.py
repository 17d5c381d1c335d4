"""Tien Gow's tile-by-tile commitment (`tiengow-tiles/1`, docs/fairness.md "Tien Gow").

Tien Gow's seed is never shown to players (its deal would give away the face-down discards that
docs/rules/tiengow.md#discards hides forever), so the seed's commitment alone proves nothing to them. Instead each
position of the dealt order is committed to on its own:

* salt_i = block i of the stream `salts` of the unit's key, i.e. HMAC-SHA256(key, "salts" ‖ 0x00
  ‖ 8-byte big-endian i): 32 bytes, unpredictable without the key, independent of every other;
* leaf_i = SHA-256("tiengow-tile" ‖ 0x00 ‖ byte i ‖ tile ‖ salt_i), the tile as its three
  ASCII characters `low-high` (`6-6`, `1-2`);
* root = SHA-256("tiengow-root" ‖ 0x00 ‖ leaf_0 ‖ … ‖ leaf_31), published when the game starts,
  with the 32 leaves (which say nothing about the tiles without their salts).

At the end each seat receives the *openings* (position, tile, salt) of exactly what it was shown:
the eight tiles dealt to it and every face-up play of any seat — never another seat's discard.
`verify_openings` is what a player (or `docs/verify_deal.py`, or the browser) runs.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from qipai.core.errors import InvalidInput
from qipai.core.rng import Rng
from qipai.core.tiles import TILE_INFO, Tile, parse_tile

SCHEME = "tiengow-tiles/1"
TILES = 32
HAND = 8
BATCH = 4
SALT_LABEL = "salts"
LEAF_TAG = b"tiengow-tile\x00"
ROOT_TAG = b"tiengow-root\x00"


def _tile_text(tile: Tile | str) -> str:
    parsed = parse_tile(tile) if isinstance(tile, str) else tile
    if parsed not in TILE_INFO:
        raise InvalidInput(f"{tile!r} is not one of the 32 tiles")
    return f"{parsed.low}-{parsed.high}"


def tile_salts(key: bytes, count: int = TILES) -> list[bytes]:
    """The salts of positions 0 … count−1: consecutive 32-byte blocks of the stream `salts`."""
    stream = Rng(key).fork(SALT_LABEL)
    return [stream.next_bytes(32) for _ in range(count)]


def leaf_hash(position: int, tile: Tile | str, salt: bytes) -> bytes:
    """SHA-256("tiengow-tile" ‖ 0x00 ‖ byte position ‖ "l-h" ‖ salt)."""
    if not 0 <= position < TILES:
        raise InvalidInput(f"tile position {position} is outside 0..{TILES - 1}")
    if len(salt) != 32:
        raise InvalidInput("a tile salt is 32 bytes")
    text = _tile_text(tile).encode("ascii")
    return hashlib.sha256(LEAF_TAG + bytes([position]) + text + salt).digest()


def root_hash(leaves: Sequence[bytes]) -> bytes:
    """SHA-256("tiengow-root" ‖ 0x00 ‖ leaf_0 ‖ … ‖ leaf_31)."""
    if len(leaves) != TILES or any(len(leaf) != 32 for leaf in leaves):
        raise InvalidInput(f"a Tien Gow root covers {TILES} leaves of 32 bytes")
    return hashlib.sha256(ROOT_TAG + b"".join(leaves)).digest()


@dataclass(frozen=True)
class TileOpening:
    """What opens one position: the tile and its salt (hex)."""

    position: int
    tile: str
    salt: str

    def to_json(self) -> dict[str, Any]:
        return {"position": self.position, "tile": self.tile, "salt": self.salt}

    @classmethod
    def from_json(cls, data: object) -> TileOpening:
        if not isinstance(data, Mapping):
            raise InvalidInput("an opening is an object {position, tile, salt}")
        position, tile, salt = data.get("position"), data.get("tile"), data.get("salt")
        if isinstance(position, bool) or not isinstance(position, int):
            raise InvalidInput(f"an opening's position is an integer, got {position!r}")
        if not isinstance(tile, str) or not isinstance(salt, str):
            raise InvalidInput("an opening's tile and salt are text")
        return cls(position, tile, salt)


@dataclass(frozen=True)
class TilesCommitment:
    """The commitment to one dealt order: `root` and `leaves` are public, `tiles` and `salts`
    are the operator's (they open any position)."""

    tiles: tuple[str, ...]
    salts: tuple[bytes, ...]
    leaves: tuple[str, ...]
    root: str

    def public_json(self) -> dict[str, Any]:
        """What the table publishes at the start: `{"scheme", "root", "leaves"}`."""
        return {"scheme": SCHEME, "root": self.root, "leaves": list(self.leaves)}

    def opening(self, position: int) -> TileOpening:
        if not 0 <= position < TILES:
            raise InvalidInput(f"tile position {position} is outside 0..{TILES - 1}")
        return TileOpening(position, self.tiles[position], self.salts[position].hex())

    def openings(self, positions: Iterable[int]) -> list[TileOpening]:
        return [self.opening(p) for p in sorted(set(positions))]


def tiles_commitment(key: bytes, tiles: Sequence[Tile | str]) -> TilesCommitment:
    """Commit to the 32 tiles in dealt order (position i = the game's tile id i) under the unit's
    stream key (`qipai.fairness.unit_key`)."""
    if len(tiles) != TILES:
        raise InvalidInput(f"Tien Gow deals {TILES} tiles, got {len(tiles)}")
    texts = tuple(_tile_text(t) for t in tiles)
    salts = tuple(tile_salts(key))
    leaves = [leaf_hash(i, t, s) for i, (t, s) in enumerate(zip(texts, salts, strict=True))]
    return TilesCommitment(texts, salts, tuple(x.hex() for x in leaves), root_hash(leaves).hex())


def dealt_positions(seats: Sequence[str], banker: str) -> dict[str, list[int]]:
    """docs/rules/tiengow.md#deal: four at a time counter-clockwise (the seat order) from the banker: batch b
    (positions 4b … 4b+3) goes to the (b mod 4)-th seat counting from the banker."""
    ids = list(seats)
    if len(ids) != BATCH or banker not in ids:
        raise InvalidInput("Tien Gow has four seats, the banker among them")
    start = ids.index(banker)
    order = ids[start:] + ids[:start]
    out: dict[str, list[int]] = {s: [] for s in ids}
    for batch in range(TILES // BATCH):
        out[order[batch % BATCH]].extend(range(batch * BATCH, (batch + 1) * BATCH))
    return out


class _Entry(Protocol):
    @property
    def seat(self) -> str: ...
    @property
    def tiles(self) -> tuple[int, ...]: ...
    @property
    def play(self) -> object | None: ...


class _Trick(Protocol):
    @property
    def entries(self) -> Sequence[_Entry]: ...


class _TienGowGame(Protocol):
    """What `seen_positions` reads of a `TienGowRound`."""

    banker: str

    def seat_ids(self) -> list[str]: ...
    @property
    def tricks(self) -> Sequence[_Trick]: ...
    @property
    def trick(self) -> _Trick: ...


def face_up_positions(game: _TienGowGame) -> list[int]:
    """Every tile played face up so far (leads and beats; never a discard)."""
    out: list[int] = []
    for trick in [*game.tricks, game.trick]:
        for entry in trick.entries:
            if entry.play is not None:
                out.extend(entry.tiles)
    return sorted(out)


def seen_positions(game: _TienGowGame, seat: str) -> list[int]:
    """The positions `seat` was shown: its own eight tiles and every face-up play."""
    own = dealt_positions(game.seat_ids(), game.banker)[seat]
    return sorted(set(own) | set(face_up_positions(game)))


def seat_openings(game: _TienGowGame, commitment: TilesCommitment, seat: str) -> dict[str, Any]:
    """The end-of-game package for one seat: `{"scheme", "root", "leaves", "openings"}`."""
    return {
        **commitment.public_json(),
        "openings": [o.to_json() for o in commitment.openings(seen_positions(game, seat))],
    }


def verify_openings(
    root: str,
    leaves: Sequence[str],
    openings: Iterable[TileOpening | Mapping[str, Any]],
    shown: Mapping[int, str] | None = None,
) -> list[str]:
    """Check openings against a published root; the problems found (empty = all verify).

    `shown` (position → tile as the game showed it) adds: each shown tile has an opening, and
    the opening is that tile."""
    problems: list[str] = []
    try:
        raw_leaves = [bytes.fromhex(x) for x in leaves]
        if root_hash(raw_leaves).hex() != root.lower():
            problems.append("the leaves do not hash to the root")
    except (ValueError, InvalidInput) as exc:
        return [f"bad leaves: {exc}"]
    opened: dict[int, str] = {}
    counts: Counter[Tile] = Counter()
    for item in openings:
        try:
            op = item if isinstance(item, TileOpening) else TileOpening.from_json(item)
            tile = parse_tile(op.tile)
            salt = bytes.fromhex(op.salt)
            ok = leaf_hash(op.position, tile, salt) == raw_leaves[op.position]
        except (ValueError, InvalidInput, IndexError) as exc:
            problems.append(f"bad opening {item!r}: {exc}")
            continue
        if op.position in opened:
            problems.append(f"position {op.position} is opened twice")
        if not ok:
            problems.append(f"position {op.position}: {op.tile} does not match its leaf")
        opened[op.position] = _tile_text(tile)
        counts[tile] += 1
    for tile, n in counts.items():
        if n > TILE_INFO[tile].copies:
            problems.append(f"{tile} opened {n} times; the set has {TILE_INFO[tile].copies}")
    for position, text in sorted((shown or {}).items()):
        if position not in opened:
            problems.append(f"position {position} ({text}) was shown but is not opened")
        elif opened[position] != _tile_text(text):
            problems.append(f"position {position} was shown as {text}, opens as {opened[position]}")
    return problems


__all__ = [
    "SCHEME",
    "TileOpening",
    "TilesCommitment",
    "dealt_positions",
    "face_up_positions",
    "leaf_hash",
    "root_hash",
    "seat_openings",
    "seen_positions",
    "tile_salts",
    "tiles_commitment",
    "verify_openings",
]
