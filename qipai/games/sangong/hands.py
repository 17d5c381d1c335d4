"""San Gong hands: points, court cards, the type, and the one comparison (rules/en.md).

Card points: A = 1, 2–9 at face value, 10 / J / Q / K = 0; a hand's points are the sum mod 10.
J, Q and K are 公 (court cards); a 10 is not. Types, high to low: 三条 three of a kind > 三公
three court cards (not three of a kind) > 9 points > 8 > … > 0.

Equal type or points → more court cards wins (双公 > 单公 > 散牌) → the highest card by rank
(K > Q > J > 10 > 9 … > 2 > A) → that card's suit (♠ > ♥ > ♣ > ♦). Two hands dealt from one
deck never have the same highest card, so the rules never leave them equal.

A hand's *key* is one integer, higher = stronger::

    key = (((type × 4 + courts) × 52 + c1) × 52 + c2) × 52 + c3

where c1 ≥ c2 ≥ c3 are the card codes `(rank − 1) × 4 + suit` in San Gong order (rank A = 1 …
K = 13, suit ♦ = 0, ♣ = 1, ♥ = 2, ♠ = 3). The rules stop at c1; c2 and c3 only order hands
that share their highest card — hands that cannot meet at one table, because they hold the
same card — so that the 22,100 hands are totally ordered without changing any real result.

>>> from qipai.core.cards import parse_cards
>>> banker = evaluate(parse_cards("3s 5h Kc"))
>>> banker.type.name, banker.points, banker.courts, banker.label["zh"]
('POINTS_8', 8, 1, '单公 8点')
>>> evaluate(parse_cards("4d 5c Ts")).beats(banker)
True
>>> evaluate(parse_cards("Js Qh Kd")).type.name
'THREE_COURT'
>>> evaluate(parse_cards("Qc Qd Qh")).beats(evaluate(parse_cards("Ks Kh Qs")))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import combinations
from math import comb

from qipai.core.cards import ACE, JACK, Card, require_distinct, standard_deck
from qipai.core.errors import InvalidInput
from qipai.games.sangong.config import HandMultipliers

HAND_SIZE = 3
ALL_HANDS = comb(52, HAND_SIZE)  # 22,100

# Core suits are c=0, d=1, h=2, s=3; San Gong ranks them ♠ > ♥ > ♣ > ♦ (rules/en.md).
SUIT_STRENGTH = (1, 0, 2, 3)  # index: core suit → strength
_SUIT_BY_STRENGTH = "dchs"


class HandType(IntEnum):
    """The types of rules/en.md, valued so that a higher value is a stronger type."""

    POINTS_0 = 0
    POINTS_1 = 1
    POINTS_2 = 2
    POINTS_3 = 3
    POINTS_4 = 4
    POINTS_5 = 5
    POINTS_6 = 6
    POINTS_7 = 7
    POINTS_8 = 8
    POINTS_9 = 9
    THREE_COURT = 10
    THREE_OF_A_KIND = 11

    def multiplier(self, multipliers: HandMultipliers) -> int:
        """What a winning hand of this type is paid (the table's setting)."""
        if self is HandType.THREE_OF_A_KIND:
            return multipliers.three_of_a_kind
        if self is HandType.THREE_COURT:
            return multipliers.three_court
        if self is HandType.POINTS_9:
            return multipliers.nine
        if self is HandType.POINTS_8:
            return multipliers.eight
        return multipliers.other

    @property
    def zh(self) -> str:
        if self is HandType.THREE_OF_A_KIND:
            return "三条"
        if self is HandType.THREE_COURT:
            return "三公"
        return f"{int(self)}点"

    @property
    def en(self) -> str:
        if self is HandType.THREE_OF_A_KIND:
            return "three of a kind"
        if self is HandType.THREE_COURT:
            return "three court cards"
        return f"{int(self)} points" if self != HandType.POINTS_1 else "1 point"


COURTS_ZH = ("散牌", "单公", "双公", "三公")
COURTS_EN = ("no court card", "one court card", "two court cards", "three court cards")


def rank_of(card: Card) -> int:
    """San Gong rank: A = 1, 2–10 at face, J = 11, Q = 12, K = 13 (K is the highest)."""
    return 1 if card.rank == ACE else card.rank


def points_of(card: Card) -> int:
    """A = 1, 2–9 at face value, 10 / J / Q / K = 0."""
    rank = rank_of(card)
    return rank if rank <= 9 else 0


def is_court(card: Card) -> bool:
    """J, Q and K are 公; a 10 is not."""
    return card.rank >= JACK and card.rank != ACE


def code_of(card: Card) -> int:
    """0..51: rank-major in San Gong order (A♦ = 0 … K♠ = 51); a higher code is a higher card."""
    return (rank_of(card) - 1) * 4 + SUIT_STRENGTH[card.suit]


def card_of_code(code: int) -> Card:
    rank, strength = divmod(code, 4)
    core_rank = ACE if rank == 0 else rank + 1
    return Card(core_rank, "cdhs".index(_SUIT_BY_STRENGTH[strength]))


@dataclass(frozen=True)
class Hand:
    """Three cards with their type, points, court cards and key (see the module docstring)."""

    cards: tuple[Card, ...]
    type: HandType
    points: int
    courts: int
    key: int

    @property
    def top(self) -> Card:
        """The highest card: by rank K > … > A, then suit ♠ > ♥ > ♣ > ♦."""
        return max(self.cards, key=code_of)

    def beats(self, other: Hand) -> bool:
        return self.key > other.key

    def multiplier(self, multipliers: HandMultipliers) -> int:
        return self.type.multiplier(multipliers)

    @property
    def label(self) -> dict[str, str]:
        """The hand's name as the table shows it: "三条", "三公", or "单公 8点" / "8 points, one
        court card" (the court count is the first tie-break of equal points)."""
        if self.type >= HandType.THREE_COURT:
            return {"zh": self.type.zh, "en": self.type.en}
        return {
            "zh": f"{COURTS_ZH[self.courts]} {self.type.zh}",
            "en": f"{self.type.en}, {COURTS_EN[self.courts]}",
        }

    def to_json(self, multipliers: HandMultipliers | None = None) -> dict[str, object]:
        out: dict[str, object] = {
            "cards": [str(c) for c in self.cards],
            "type": self.type.name.lower(),
            "zh": self.label["zh"],
            "en": self.label["en"],
            "points": self.points,
            "courts": self.courts,
            "top_card": str(self.top),
        }
        if multipliers is not None:
            out["multiplier"] = self.multiplier(multipliers)
        return out


def key_of_codes(codes: Sequence[int]) -> int:
    """The key of three distinct card codes (the fast path of `evaluate`, for the analysis).

    >>> key_of_codes([51, 50, 49]) > key_of_codes([3, 2, 1])  # K K K over A A A
    True
    """
    c1, c2, c3 = sorted(codes, reverse=True)
    ranks = (c1 // 4 + 1, c2 // 4 + 1, c3 // 4 + 1)
    courts = sum(1 for r in ranks if r >= 11)
    points = sum(r if r <= 9 else 0 for r in ranks) % 10
    if ranks[0] == ranks[1] == ranks[2]:
        kind = HandType.THREE_OF_A_KIND
    elif courts == 3:
        kind = HandType.THREE_COURT
    else:
        kind = HandType(points)
    return (((int(kind) * 4 + courts) * 52 + c1) * 52 + c2) * 52 + c3


def type_of_key(key: int) -> HandType:
    return HandType(key // (4 * 52**3))


def evaluate(cards: Iterable[Card]) -> Hand:
    """The hand of three distinct cards; InvalidInput for any other count or a repeated card."""
    hand = tuple(cards)
    if len(hand) != HAND_SIZE:
        raise InvalidInput(f"a San Gong hand has 3 cards, got {len(hand)}")
    require_distinct(hand, "a hand")
    key = key_of_codes([code_of(c) for c in hand])
    courts = sum(1 for c in hand if is_court(c))
    points = sum(points_of(c) for c in hand) % 10
    return Hand(hand, type_of_key(key), points, courts, key)


def all_hands() -> list[tuple[Card, ...]]:
    """The 22,100 three-card hands of one deck, in `combinations` order of the standard deck."""
    return list(combinations(standard_deck(), HAND_SIZE))
