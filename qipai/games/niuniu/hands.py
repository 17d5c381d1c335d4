"""Swap Niu Niu hands: type, multiplier, bull and point cards, and the one comparison (docs/rules/niuniu.md#hand-types).

Two implementations of one ranking live here on purpose:

* `evaluate(cards)` — the readable rule text, in plain Python, returning a `Hand` with the bull
  cards and point cards for display and audit;
* `rank_type_table()` (numpy: the type of every 5-tuple of ranks — types never depend on suits)
  and `all_hand_keys()`, `keys_of(ids)` (numba kernels in `_kernels`, loaded on first use): for
  the advisor, bots and the exact analysis (all 2,598,960 hands classify in well under a second).

A hand's *key* is one integer: `type * 64 + card code`, where the card code is `rank * 4 + suit`
in Niu Niu order (rank A=1 … K=13, suit ♦=0 ♣=1 ♥=2 ♠=3). The code names the hand's highest card
(K > … > A, then ♠ > ♥ > ♣ > ♦), or for a bomb the ♠ of the four's rank. Higher key wins. The key
card is always one of the hand's own cards, so two hands dealt from one deck never tie.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import combinations
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from qipai.core.cards import ACE, Card, require_distinct
from qipai.core.errors import InvalidInput

HAND_SIZE = 5
DECK = 52
ALL_HANDS = comb(DECK, HAND_SIZE)  # 2,598,960

# Card suits in qipai.core.cards are c=0, d=1, h=2, s=3; Niu Niu ranks them ♠ > ♥ > ♣ > ♦.
# docs/rules/niuniu.md#comparison: "that card's suit ♠ > ♥ > ♣ > ♦".
SUIT_ORDER = (1, 0, 2, 3)  # index: core suit → Niu Niu suit strength


class HandType(IntEnum):
    """The hand types of docs/rules/niuniu.md#hand-types, valued so that a higher value is a stronger type."""

    NO_BULL = 0
    BULL_1 = 1
    BULL_2 = 2
    BULL_3 = 3
    BULL_4 = 4
    BULL_5 = 5
    BULL_6 = 6
    BULL_7 = 7
    BULL_8 = 8
    BULL_9 = 9
    BULL_BULL = 10
    FOUR_ROYALS = 11
    FIVE_ROYALS = 12
    BOMB = 13
    FIVE_SMALL = 14

    @property
    def zh(self) -> str:
        return _ZH[self]

    @property
    def en(self) -> str:
        return _EN[self]

    @property
    def multiplier(self) -> int:
        return MULTIPLIERS[self]


_DIGITS_ZH = "一二三四五六七八九"
_ZH = {
    HandType.NO_BULL: "无牛",
    **{HandType(n): f"牛{_DIGITS_ZH[n - 1]}" for n in range(1, 10)},
    HandType.BULL_BULL: "牛牛",
    HandType.FOUR_ROYALS: "四花牛",
    HandType.FIVE_ROYALS: "五花牛",
    HandType.BOMB: "四炸",
    HandType.FIVE_SMALL: "五小牛",
}
_EN = {
    HandType.NO_BULL: "no bull",
    **{HandType(n): f"bull {n}" for n in range(1, 10)},
    HandType.BULL_BULL: "bull-bull",
    HandType.FOUR_ROYALS: "four royals",
    HandType.FIVE_ROYALS: "five royals",
    HandType.BOMB: "bomb",
    HandType.FIVE_SMALL: "five small",
}
# docs/rules/niuniu.md#hand-types table: 五小牛 5; 四炸, 五花牛, 四花牛 4; 牛牛 3; 牛九–牛七 2; 牛六–牛一 and 无牛 1.
MULTIPLIERS: dict[HandType, int] = {
    HandType.FIVE_SMALL: 5,
    HandType.BOMB: 4,
    HandType.FIVE_ROYALS: 4,
    HandType.FOUR_ROYALS: 4,
    HandType.BULL_BULL: 3,
    **{HandType(n): 2 for n in (7, 8, 9)},
    **{HandType(n): 1 for n in range(0, 7)},
}
MULTIPLIER_ARRAY = np.array([MULTIPLIERS[HandType(t)] for t in range(15)], dtype=np.int64)


def niu_rank(card: Card) -> int:
    """Rank in Niu Niu order: A = 1, 2–10 face, J = 11, Q = 12, K = 13 (docs/rules/niuniu.md#comparison: K > … > A)."""
    return 1 if card.rank == ACE else card.rank


def points(card: Card) -> int:
    """Card points: A = 1, 2–10 face value, J/Q/K = 10 (source: J、Q、K等於10點,A等於1點)."""
    return min(niu_rank(card), 10)


def card_code(card: Card) -> int:
    """`rank * 4 + suit` in Niu Niu order; a larger code is a stronger single card."""
    return niu_rank(card) * 4 + SUIT_ORDER[card.suit]


def card_from_code(code: int) -> Card:
    rank, suit = divmod(code, 4)
    return Card(ACE if rank == 1 else rank, SUIT_ORDER.index(suit))


def key_card(key: int) -> Card:
    """The card a key names: the hand's highest card, or the ♠ of a bomb's rank."""
    return card_from_code(key % 64)


@dataclass(frozen=True)
class Hand:
    """An evaluated five-card hand."""

    cards: tuple[Card, ...]
    type: HandType
    key: int
    bull_cards: tuple[Card, ...] | None  # three cards summing to a multiple of 10, if any
    point_cards: tuple[Card, ...] | None  # the other two cards, when there is a bull

    @property
    def multiplier(self) -> int:
        return self.type.multiplier

    @property
    def top_card(self) -> Card:
        """The card that breaks ties within the type (for a bomb: the ♠ of the four's rank)."""
        return key_card(self.key)

    def beats(self, other: Hand) -> bool:
        return self.key > other.key

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": [str(c) for c in self.cards],
            "type": self.type.name.lower(),
            "zh": self.type.zh,
            "en": self.type.en,
            "multiplier": self.multiplier,
            "bull_cards": None if self.bull_cards is None else [str(c) for c in self.bull_cards],
            "point_cards": None if self.point_cards is None else [str(c) for c in self.point_cards],
            "top_card": str(self.top_card),
        }


def evaluate(cards: Sequence[Card]) -> Hand:
    """Classify five distinct cards by the docs/rules/niuniu.md#hand-types table, taking the highest row that applies."""
    if len(cards) != HAND_SIZE:
        raise InvalidInput(f"a Niu Niu hand has 5 cards, got {len(cards)}")
    require_distinct(cards, "a Niu Niu hand")
    hand = tuple(cards)
    pts = [points(c) for c in hand]
    ranks = [niu_rank(c) for c in hand]
    # Bull: the first triple (strongest cards first) whose points are a multiple of 10.
    order = sorted(range(HAND_SIZE), key=lambda i: -card_code(hand[i]))
    bull: tuple[Card, ...] | None = None
    rest: tuple[Card, ...] | None = None
    for triple in combinations(order, 3):
        if sum(pts[i] for i in triple) % 10 == 0:
            bull = tuple(hand[i] for i in triple)
            rest = tuple(hand[i] for i in order if i not in triple)
            break
    top = max(card_code(c) for c in hand)
    four = [r for r in set(ranks) if ranks.count(r) == 4]
    royals = sum(1 for r in ranks if r >= 11)
    if all(p < 5 for p in pts) and sum(pts) <= 10:
        # 五小牛: 5張牌的點數均小於5,且點數之和小於等於10,不須有牛
        kind = HandType.FIVE_SMALL
    elif four:
        # 四炸: 5張牌中有4張相同+1張任意牌,不須有牛; bombs compare by the four's rank.
        kind = HandType.BOMB
        top = four[0] * 4 + 3
    elif royals == 5:
        kind = HandType.FIVE_ROYALS  # 五花牛: 5張牌均由JQK組成
    elif royals == 4 and 10 in ranks:
        kind = HandType.FOUR_ROYALS  # 四花牛: 4張JQK, 第5張牌為10
    elif bull is not None:
        # 剩餘2張相加為10或20 → 牛牛; otherwise 牛 of (sum mod 10). Every arrangement gives the same
        # remainder (total − bull ≡ total mod 10), so the first bull found is as good as any.
        assert rest is not None
        number = sum(points(c) for c in rest) % 10
        kind = HandType.BULL_BULL if number == 0 else HandType(number)
    else:
        kind = HandType.NO_BULL
    return Hand(hand, kind, int(kind) * 64 + top, bull, rest)


def compare(a: Hand, b: Hand) -> int:
    """1 if `a` beats `b`, -1 if `b` beats `a`; 0 only for hands that share their key card,
    which cannot happen between two hands dealt from one deck."""
    return (a.key > b.key) - (a.key < b.key)


# --------------------------------------------------------------------------------------------
# Fast tables: the rank table in numpy; whole-hand keys with the numba kernels of `_kernels`.
# --------------------------------------------------------------------------------------------

_CARD_POINTS = np.array([min(niu_rank(Card.from_id(i)), 10) for i in range(DECK)], np.int64)
_CARD_RANK = np.array([niu_rank(Card.from_id(i)) for i in range(DECK)], np.int64)
_CARD_CODE = np.array([card_code(Card.from_id(i)) for i in range(DECK)], np.int64)


# An optimal 5-input sorting network (9 compare-exchanges), applied to whole columns at once.
_SORT5 = ((0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2))


def _rank_types(ranks: npt.NDArray[np.int16]) -> npt.NDArray[np.int8]:
    """Hand types of many rank 5-tuples at once; `ranks` has shape (5, n), ranks 1..13 (A = 1)."""
    r = [ranks[i].copy() for i in range(5)]
    for i, j in _SORT5:
        lo = np.minimum(r[i], r[j])
        r[j] = np.maximum(r[i], r[j])
        r[i] = lo
    p = [np.minimum(x, 10) for x in r]
    total = p[0] + p[1] + p[2] + p[3] + p[4]
    target = total % 10
    # A bull exists iff two cards sum to the total mod 10 (the other three are then ≡ 0), and
    # every arrangement leaves the same remainder, so the bull number is total mod 10.
    has_bull = np.zeros(ranks.shape[1], dtype=bool)
    for i in range(5):
        for j in range(i + 1, 5):
            has_bull |= (p[i] + p[j]) % 10 == target
    bull = np.where(has_bull, np.where(target == 0, 10, target), 0)
    return np.select(
        [
            (p[4] < 5) & (total <= 10),  # 五小牛
            (r[0] == r[3]) | (r[1] == r[4]),  # 四炸
            r[0] >= 11,  # 五花牛
            (r[0] == 10) & (r[1] >= 11),  # 四花牛
        ],
        [14, 13, 12, 11],
        default=bull,
    ).astype(np.int8)


@functools.cache
def rank_type_table() -> npt.NDArray[np.int8]:
    """Hand type for every ordered 5-tuple of Niu Niu ranks: index Σ (rank_i − 1)·13^(4−i).

    Any order of the same ranks gives the same entry, so callers need not sort. (Five equal ranks
    cannot be dealt; their entry is unused.)
    """
    index = np.arange(13**5, dtype=np.int32)
    ranks = np.stack([(index // 13 ** (4 - i)) % 13 + 1 for i in range(5)]).astype(np.int16)
    out = _rank_types(ranks)
    out.setflags(write=False)
    return out


def build_all_hand_keys() -> npt.NDArray[np.int16]:
    """Compute the key of every 5-card hand in colex order (see `hand_index`), uncached."""
    from qipai.games.niuniu import _kernels  # numba, loaded only when a whole-hand table is needed

    out = np.empty(ALL_HANDS, dtype=np.int16)
    _kernels.all_keys(out, _CARD_RANK, _CARD_CODE, rank_type_table())
    return out


@functools.cache
def all_hand_keys() -> npt.NDArray[np.int16]:
    """The key of every one of the 2,598,960 hands, indexed by `hand_index` (read-only, cached)."""
    out = build_all_hand_keys()
    out.setflags(write=False)
    return out


def hand_index(ids: Iterable[int]) -> int:
    """Colex index of a set of five card ids (0..51, `Card.id`): Σ C(id_k, k+1) over sorted ids."""
    ordered = sorted(ids)
    if len(ordered) != HAND_SIZE or len(set(ordered)) != HAND_SIZE:
        raise InvalidInput("hand_index needs five distinct card ids")
    return sum(comb(card_id, k + 1) for k, card_id in enumerate(ordered))


def keys_of(ids: npt.ArrayLike) -> npt.NDArray[np.int16]:
    """Keys of many hands at once: `ids` has shape (n, 5) of card ids (any order within a row)."""
    arr = np.ascontiguousarray(ids, dtype=np.int64)
    if arr.ndim != 2 or arr.shape[1] != HAND_SIZE:
        raise InvalidInput("keys_of needs an (n, 5) array of card ids")
    if arr.size and (arr.min() < 0 or arr.max() >= DECK):
        raise InvalidInput("card ids are 0..51")
    from qipai.games.niuniu import _kernels

    out = np.empty(arr.shape[0], dtype=np.int16)
    _kernels.keys_of(arr, out, _CARD_RANK, _CARD_CODE, rank_type_table())
    return out


def key_of(cards: Sequence[Card]) -> int:
    """The key of one hand via the fast table (same value as `evaluate(cards).key`)."""
    if len(cards) != HAND_SIZE:
        raise InvalidInput(f"a Niu Niu hand has 5 cards, got {len(cards)}")
    require_distinct(cards, "a Niu Niu hand")
    return int(keys_of([[c.id for c in cards]])[0])


def type_counts() -> dict[HandType, int]:
    """How many of the 2,598,960 hands have each type (exact)."""
    counts = np.bincount(all_hand_keys() // 64, minlength=15)
    return {HandType(t): int(counts[t]) for t in range(15)}
