"""Playing cards: parsing, formatting, the standard deck and the n-deck shoe.

A card is a `Card(rank, suit)` with rank 2..14 (14 = ace) and suit 0..3 (clubs, diamonds, hearts,
spades). Games give ranks and suits their own meaning (Pok Deng's A = 1, Niu Niu's suit order) in
their own `hands.py`; this module only knows what a card *is*.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from qipai.core.errors import InvalidInput
from qipai.core.rng import Rng

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
_SUIT_ALIASES = {
    **{c: i for i, c in enumerate(SUIT_CHARS)},
    **{c: i for i, c in enumerate(SUIT_SYMBOLS)},
    **{c: i for i, c in enumerate("♧♢♡♤")},
}
_RANK_ALIASES = {**{c: i + 2 for i, c in enumerate(RANK_CHARS)}, "10": 10}

ACE = 14
KING = 13
QUEEN = 12
JACK = 11
TEN = 10
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3


class CardParseError(InvalidInput):
    """A token that is not a card; the message names the token."""

    code = "bad_card"


class Card(NamedTuple):
    """One playing card; `id` (0..51) is rank-major, which suits lookup tables."""

    rank: int
    suit: int

    @property
    def id(self) -> int:
        return (self.rank - 2) * 4 + self.suit

    @classmethod
    def from_id(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise CardParseError(f"card index {index} is outside 0..51")
        return _BY_INDEX[index]

    @property
    def rank_char(self) -> str:
        return RANK_CHARS[self.rank - 2]

    @property
    def suit_char(self) -> str:
        return SUIT_CHARS[self.suit]

    @property
    def pretty(self) -> str:
        """`10♠`-style text, as printed on a card."""
        rank = "10" if self.rank == TEN else self.rank_char
        return rank + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.rank_char + self.suit_char

    def __repr__(self) -> str:
        return f"Card({self})"


_BY_INDEX = tuple(Card(rank, suit) for rank in range(2, 15) for suit in range(4))


def parse_card(token: str) -> Card:
    """Parse `As`, `Td`, `10d`, `A♦`, `10♠` (ranks and suit letters case-insensitive)."""
    if not isinstance(token, str):
        raise CardParseError(f"bad card {token!r}: expected text like 'As' or '10♠'")
    text = token.strip()
    if len(text) < 2:
        raise CardParseError(f"bad card {token!r}: expected a rank then a suit, like 'As' or '10♠'")
    rank_text, suit_text = text[:-1], text[-1]
    rank = _RANK_ALIASES.get(rank_text.upper())
    if rank is None:
        raise CardParseError(
            f"bad card {token!r}: unknown rank {rank_text!r} (2-10, T, J, Q, K, A)"
        )
    suit = _SUIT_ALIASES.get(suit_text.lower())
    if suit is None:
        raise CardParseError(f"bad card {token!r}: unknown suit {suit_text!r} (c d h s or ♣ ♦ ♥ ♠)")
    return Card(rank, suit)


def parse_cards(tokens: str | Iterable[str]) -> list[Card]:
    """Parse a list of tokens, or one string of tokens separated by spaces or commas."""
    if isinstance(tokens, str):
        tokens = tokens.replace(",", " ").split()
    return [parse_card(t) for t in tokens]


def format_cards(cards: Iterable[Card], pretty: bool = False) -> str:
    return " ".join(c.pretty if pretty else str(c) for c in cards)


def standard_deck() -> list[Card]:
    """The 52 cards in index order (2c, 2d, 2h, 2s, 3c, … As)."""
    return list(_BY_INDEX)


def require_distinct(cards: Sequence[Card], what: str = "cards") -> None:
    """Refuse a card that appears twice where one deck is used (Hold'em, Niu Niu)."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise InvalidInput(f"duplicate card {card} in {what}")
        seen.add(card)


class Shoe:
    """An n-deck shoe shuffled from a seed, with burn cards and a cut card (docs/rules/pokdeng.md#cards-and-shoe).

    The cut card is placed so that `behind` cards lie after it, `behind` uniform in the table's
    range (Decision: 52–104 for Pok Deng's 8 decks). When a draw passes the cut card,
    `cut_card_out` turns true: the current round is the last of the shoe.
    """

    def __init__(
        self,
        rng: Rng,
        decks: int = 8,
        behind_cut: tuple[int, int] = (52, 104),
    ) -> None:
        if decks < 1:
            raise InvalidInput("a shoe needs at least one deck")
        lo, hi = behind_cut
        total = 52 * decks
        if not 0 <= lo <= hi < total:
            raise InvalidInput(f"cut-card range {behind_cut} does not fit a {total}-card shoe")
        cards = standard_deck() * decks
        rng.fork("shoe").shuffle(cards)
        self.cards: tuple[Card, ...] = tuple(cards)
        self.decks = decks
        self.behind_cut = rng.fork("cut").randrange(lo, hi + 1)
        self.cut_index = total - self.behind_cut
        self.position = 0
        self.burned: list[Card] = []

    @property
    def remaining(self) -> int:
        return len(self.cards) - self.position

    @property
    def cut_card_out(self) -> bool:
        """True once a card at or past the cut card has been drawn."""
        return self.position > self.cut_index

    def draw(self) -> Card:
        if self.position >= len(self.cards):
            raise InvalidInput("the shoe is empty")
        card = self.cards[self.position]
        self.position += 1
        return card

    def burn(self) -> Card:
        card = self.draw()
        self.burned.append(card)
        return card

    def seek(self, position: int) -> None:
        """Resume a shoe whose first `position` cards are already used (rebuilding a round)."""
        if not 0 <= position <= len(self.cards):
            raise InvalidInput(f"shoe position {position} is outside 0..{len(self.cards)}")
        self.position = position
