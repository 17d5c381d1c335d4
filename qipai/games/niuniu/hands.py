"""Swap Niu Niu hands: type, multiplier, bull and point cards, and the one comparison (RULES.md §4).

Two implementations of one ranking live here on purpose:

* `evaluate(cards)` — the readable rule text, in plain Python, returning a `Hand` with the bull
  cards and point cards for display and audit;
* `all_hand_keys()`, `rank_type_table()`, `keys_of(ids)` — numba tables over every hand, for the
  advisor, bots and the exact analysis (all 2,598,960 hands classify in well under a second).

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
from numba import njit

from qipai.core.cards import ACE, Card, require_distinct
from qipai.core.errors import InvalidInput

HAND_SIZE = 5
DECK = 52
ALL_HANDS = comb(DECK, HAND_SIZE)  # 2,598,960

# Card suits in qipai.core.cards are c=0, d=1, h=2, s=3; Niu Niu ranks them ♠ > ♥ > ♣ > ♦.
# RULES.md §4: "that card's suit ♠ > ♥ > ♣ > ♦".
SUIT_ORDER = (1, 0, 2, 3)  # index: core suit → Niu Niu suit strength


class HandType(IntEnum):
    """The hand types of RULES.md §4, valued so that a higher value is a stronger type."""

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
# RULES.md §4 table: 五小牛 5; 四炸, 五花牛, 四花牛 4; 牛牛 3; 牛九–牛七 2; 牛六–牛一 and 无牛 1.
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
    """Rank in Niu Niu order: A = 1, 2–10 face, J = 11, Q = 12, K = 13 (RULES.md §4: K > … > A)."""
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


def key_type(key: int) -> HandType:
    return HandType(key // 64)


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
    """Classify five distinct cards by the RULES.md §4 table, taking the highest row that applies."""
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
# Fast tables (numba). The kernels take raw ints so they can be jitted; typed wrappers below.
# --------------------------------------------------------------------------------------------

_CARD_POINTS = np.array([min(niu_rank(Card.from_id(i)), 10) for i in range(DECK)], np.int64)
_CARD_RANK = np.array([niu_rank(Card.from_id(i)) for i in range(DECK)], np.int64)
_CARD_CODE = np.array([card_code(Card.from_id(i)) for i in range(DECK)], np.int64)


def _type_of_ranks_py(r0: int, r1: int, r2: int, r3: int, r4: int) -> int:
    """The hand type from five Niu Niu ranks (1..13); the type never depends on suits."""
    r = [r0, r1, r2, r3, r4]
    # insertion sort (numba-friendly, five items)
    for i in range(1, 5):
        x = r[i]
        j = i - 1
        while j >= 0 and r[j] > x:
            r[j + 1] = r[j]
            j -= 1
        r[j + 1] = x
    p = [min(x, 10) for x in r]
    total = p[0] + p[1] + p[2] + p[3] + p[4]
    if p[4] < 5 and total <= 10:
        return 14
    if r[0] == r[3] or r[1] == r[4]:
        return 13
    if r[0] >= 11:
        return 12
    if r[0] == 10 and r[1] >= 11:
        return 11
    target = total % 10
    for i in range(5):
        for j in range(i + 1, 5):
            if (p[i] + p[j]) % 10 == target:
                return 10 if target == 0 else target
    return 0


_type_of_ranks: Any = njit(cache=True)(_type_of_ranks_py)


def _rank_table_py(out: npt.NDArray[np.int8]) -> None:
    for a in range(13):
        for b in range(13):
            for c in range(13):
                for d in range(13):
                    base = (((a * 13 + b) * 13 + c) * 13 + d) * 13
                    for e in range(13):
                        out[base + e] = _type_of_ranks(a + 1, b + 1, c + 1, d + 1, e + 1)


def _key_of_ids_py(
    i0: int, i1: int, i2: int, i3: int, i4: int, rank: Any, code: Any, table: Any
) -> int:
    r0, r1, r2, r3, r4 = rank[i0], rank[i1], rank[i2], rank[i3], rank[i4]
    kind = table[(((((r0 - 1) * 13 + r1 - 1) * 13 + r2 - 1) * 13 + r3 - 1) * 13) + r4 - 1]
    if kind == 13:  # bomb: the four's rank; two of the first three cards belong to the four
        four = r0 if (r0 == r1 or r0 == r2) else r1  # noqa: SIM109 (plain ints for numba)
        return int(kind * 64 + four * 4 + 3)
    top = max(code[i0], code[i1], code[i2], code[i3], code[i4])
    return int(kind * 64 + top)


_key_of_ids: Any = njit(cache=True)(_key_of_ids_py)


def _all_keys_py(out: Any, rank: Any, code: Any, table: Any) -> None:
    # Colex order: index = C(a,1) + C(b,2) + C(c,3) + C(d,4) + C(e,5) for a < b < c < d < e.
    n = 0
    for e in range(DECK):
        for d in range(e):
            for c in range(d):
                for b in range(c):
                    for a in range(b):
                        out[n] = _key_of_ids(a, b, c, d, e, rank, code, table)
                        n += 1


_all_keys: Any = njit(cache=True)(_all_keys_py)


def _keys_of_py(ids: Any, out: Any, rank: Any, code: Any, table: Any) -> None:
    for n in range(ids.shape[0]):
        out[n] = _key_of_ids(
            ids[n, 0], ids[n, 1], ids[n, 2], ids[n, 3], ids[n, 4], rank, code, table
        )


_keys_of: Any = njit(cache=True)(_keys_of_py)


@functools.cache
def rank_type_table() -> npt.NDArray[np.int8]:
    """Hand type for every ordered 5-tuple of Niu Niu ranks: index Σ (rank_i − 1)·13^(4−i).

    Any order of the same ranks gives the same entry, so callers need not sort. (Five equal ranks
    cannot be dealt; their entry is unused.)
    """
    out = np.zeros(13**5, dtype=np.int8)
    _rank_table_py_jit(out)
    out.setflags(write=False)
    return out


_rank_table_py_jit: Any = njit(cache=True)(_rank_table_py)


def build_all_hand_keys() -> npt.NDArray[np.int16]:
    """Compute the key of every 5-card hand in colex order (see `hand_index`), uncached."""
    out = np.empty(ALL_HANDS, dtype=np.int16)
    _all_keys(out, _CARD_RANK, _CARD_CODE, rank_type_table())
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
    out = np.empty(arr.shape[0], dtype=np.int16)
    _keys_of(arr, out, _CARD_RANK, _CARD_CODE, rank_type_table())
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
