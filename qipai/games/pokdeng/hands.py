"""Pok Deng two-card hands: points, rank value, special names, suited/pair/double flags.

docs/rules/pokdeng.md#points-and-ranks: A = 1, 2–9 face value, 10/J/Q/K = 0, a hand is worth (sum mod 10). Rank value, high to
low: 9 > 8 > 7.5 > 7.4 > 7.3 > 7.2 > 7.1 > 7 > 6 > … > 0. Ranks are kept as integer *tenths*
(7.4 → 74, 9 → 90) so that comparing two hands is comparing two ints. Every ordered pair of the 52
card ids is evaluated once at import into flat tables, so the round engine's hot path is a lookup.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from qipai.core.cards import ACE, JACK, KING, TEN, Card

# Rank values in tenths (docs/rules/pokdeng.md#points-and-ranks, table of specials).
LION_SUITED: Final = 75  # 狮子同花: A and K of one suit
SPECIAL_PAIR: Final = 74  # 特殊对子: a pair of A, 5, 6 or 10 (suits ignored)
ROYALS: Final = 73  # 王公: two picture cards J/Q/K
TEN_ROYAL: Final = 72  # 十公: a 10 with a picture card
SUITED_ZERO: Final = 71  # 同花0点: two non-picture cards of one suit totalling 0 points

NAMES: Final[dict[int, str]] = {
    LION_SUITED: "lion suited",
    SPECIAL_PAIR: "special pair",
    ROYALS: "royals",
    TEN_ROYAL: "ten-royal",
    SUITED_ZERO: "suited zero",
}
NAMES_ZH: Final[dict[int, str]] = {
    LION_SUITED: "狮子同花",
    SPECIAL_PAIR: "特殊对子",
    ROYALS: "王公",
    TEN_ROYAL: "十公",
    SUITED_ZERO: "同花0点",
}
_SPECIAL_PAIR_RANKS: Final = frozenset({ACE, 5, 6, TEN})


def card_points(rank: int) -> int:
    """A = 1, 2–9 face value, 10/J/Q/K = 0 (docs/rules/pokdeng.md#points-and-ranks)."""
    if rank == ACE:
        return 1
    return 0 if rank >= TEN else rank


def _rank_tenths(a: Card, b: Card) -> int:
    """The rank value of a hand in tenths, straight from docs/rules/pokdeng.md#points-and-ranks."""
    points = (card_points(a.rank) + card_points(b.rank)) % 10
    if points >= 8:  # no special hand has 8 or 9 points: 8 and 9 outrank every special
        return points * 10
    suited = a.suit == b.suit
    ranks = {a.rank, b.rank}
    if suited and ranks == {ACE, KING}:
        return LION_SUITED
    if a.rank == b.rank and a.rank in _SPECIAL_PAIR_RANKS:
        return SPECIAL_PAIR
    if a.rank >= JACK and b.rank >= JACK and a.rank != ACE and b.rank != ACE:
        return ROYALS
    if TEN in ranks and any(JACK <= r <= KING for r in ranks):
        return TEN_ROYAL
    non_picture = all(r == ACE or r <= TEN for r in (a.rank, b.rank))
    if suited and non_picture and points == 0:
        return SUITED_ZERO
    return points * 10


def rank_text(tenths: int) -> str:
    """`74` → `"7.4"`, `90` → `"9"`: the rank as the source writes it."""
    whole, tenth = divmod(tenths, 10)
    return f"{whole}.{tenth}" if tenth else str(whole)


@dataclass(frozen=True, slots=True)
class Hand:
    """A two-card hand's evaluation. `rank` is in tenths; `double` pays/loses 2x (docs/rules/pokdeng.md#points-and-ranks)."""

    cards: tuple[Card, Card]
    text: tuple[str, str]  # the cards as text, e.g. ("Ac", "7h")
    points: int
    rank: int
    suited: bool
    pair: bool
    double: bool
    klass: int  # index of (rank, double, pair): all that settles a bet (see `KLASSES`)

    @property
    def rank_text(self) -> str:
        return rank_text(self.rank)

    @property
    def card_text(self) -> list[str]:
        """The two cards as text, e.g. `["Ac", "7h"]`."""
        return list(self.text)

    @property
    def name(self) -> str:
        """`"lion suited"` … or `"N points"`."""
        points = self.rank // 10
        return NAMES.get(self.rank, f"{points} point" if points == 1 else f"{points} points")

    @property
    def name_zh(self) -> str:
        return NAMES_ZH.get(self.rank, f"{self.rank // 10}点")

    def to_json(self) -> dict[str, object]:
        return {
            "cards": self.card_text,
            "points": self.points,
            "rank": self.rank_text,
            "zh": self.name_zh,
            "en": self.name,
            "suited": self.suited,
            "pair": self.pair,
            "double": self.double,
        }


# Every rank value, low to high, in tenths.
RANK_VALUES: Final = (0, 10, 20, 30, 40, 50, 60, 70, 71, 72, 73, 74, 75, 80, 90)
KLASS_COUNT: Final = len(RANK_VALUES) * 4


def _build_tables() -> tuple[list[int], list[bool], list[bool], list[Hand]]:
    ranks: list[int] = []
    doubles: list[bool] = []
    pairs: list[bool] = []
    hands: list[Hand] = []
    for i in range(52):
        a = Card.from_id(i)
        for j in range(52):
            b = Card.from_id(j)
            rank = _rank_tenths(a, b)
            suited = a.suit == b.suit
            pair = a.rank == b.rank
            # docs/rules/pokdeng.md#double-hands: suited, a pair, or special (7.1–7.5) is a double hand.
            double = suited or pair or rank in NAMES
            points = (card_points(a.rank) + card_points(b.rank)) % 10
            ranks.append(rank)
            doubles.append(double)
            pairs.append(pair)
            klass = RANK_VALUES.index(rank) * 4 + 2 * double + pair
            hand = Hand((a, b), (str(a), str(b)), points, rank, suited, pair, double, klass)
            hands.append(hand)
    return ranks, doubles, pairs, hands


# Flat 52×52 tables indexed by id(first) * 52 + id(second).
RANK_TABLE, DOUBLE_TABLE, PAIR_TABLE, HAND_TABLE = _build_tables()
# One hand of each (rank, double, pair) class that occurs: settlement tables are built from these.
KLASSES: Final[dict[int, Hand]] = {h.klass: h for h in reversed(HAND_TABLE)}


def hand_index(a: Card, b: Card) -> int:
    return ((a.rank - 2) * 4 + a.suit) * 52 + (b.rank - 2) * 4 + b.suit


def evaluate(a: Card, b: Card) -> Hand:
    """The evaluation of the two-card hand (a, b) (order does not matter to the result)."""
    return HAND_TABLE[hand_index(a, b)]


def compare(player: Hand, banker: Hand) -> int:
    """+1 when the player's hand ranks higher, -1 when the banker's does, 0 on equal rank value."""
    return (player.rank > banker.rank) - (player.rank < banker.rank)
