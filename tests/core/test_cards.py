from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qipai.core.cards import (
    Card,
    CardParseError,
    Shoe,
    format_cards,
    parse_card,
    parse_cards,
    require_distinct,
    standard_deck,
)
from qipai.core.errors import InvalidInput
from qipai.core.rng import Rng

SEED = bytes(range(32))


@pytest.mark.parametrize(
    ("token", "rank", "suit"),
    [
        ("As", 14, 3),
        ("as", 14, 3),
        ("AS", 14, 3),
        ("Td", 10, 1),
        ("td", 10, 1),
        ("10d", 10, 1),
        ("10D", 10, 1),
        ("A♦", 14, 1),
        ("10♠", 10, 3),
        ("k♥", 13, 2),
        ("2c", 2, 0),
        ("Q♣", 12, 0),
        ("j♤", 11, 3),
        (" 9h ", 9, 2),
    ],
)
def test_parse_both_suit_styles_case_insensitive(token: str, rank: int, suit: int) -> None:
    assert parse_card(token) == Card(rank, suit)


@pytest.mark.parametrize(
    ("token", "fragment"),
    [
        ("1s", "unknown rank '1'"),
        ("11h", "unknown rank '11'"),
        ("Ax", "unknown suit 'x'"),
        ("A", "expected a rank then a suit"),
        ("", "expected a rank then a suit"),
        ("Zs", "unknown rank 'Z'"),
        ("A♦♦", "unknown rank 'A♦'"),
        ("0s", "unknown rank '0'"),
    ],
)
def test_parse_errors_name_the_token(token: str, fragment: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_card(token)
    assert repr(token) in info.value.message
    assert fragment in info.value.message
    assert isinstance(info.value, InvalidInput)


def test_parse_non_string_is_a_clear_error() -> None:
    with pytest.raises(CardParseError, match="expected text"):
        parse_card(12)  # type: ignore[arg-type]


def test_format_round_trips_every_card() -> None:
    deck = standard_deck()
    assert len(deck) == 52 == len(set(deck))
    for card in deck:
        assert parse_card(str(card)) == card
        assert parse_card(card.pretty) == card
        assert Card.from_id(card.id) == card
    assert [c.id for c in deck] == list(range(52))
    assert str(parse_card("10h")) == "Th"
    assert parse_card("10h").pretty == "10♥"


def test_parse_cards_accepts_strings_and_lists() -> None:
    assert parse_cards("As, 10♠ Kd") == [Card(14, 3), Card(10, 3), Card(13, 1)]
    assert format_cards(parse_cards(["As", "Td"]), pretty=True) == "A♠ 10♦"


def test_require_distinct() -> None:
    require_distinct(parse_cards("As Ks"))
    with pytest.raises(InvalidInput, match="duplicate card As"):
        require_distinct(parse_cards("As Ks as"))


def test_shoe_has_n_decks_and_is_reproducible() -> None:
    shoe = Shoe(Rng(SEED), decks=8)
    assert len(shoe.cards) == 416
    counts = {card: shoe.cards.count(card) for card in standard_deck()}
    assert set(counts.values()) == {8}
    again = Shoe(Rng(SEED), decks=8)
    assert again.cards == shoe.cards and again.behind_cut == shoe.behind_cut


@given(st.binary(min_size=32, max_size=32))
def test_cut_card_lies_in_the_configured_range(seed: bytes) -> None:
    shoe = Shoe(Rng(seed), decks=8, behind_cut=(52, 104))
    assert 52 <= shoe.behind_cut <= 104
    assert shoe.cut_index + shoe.behind_cut == 416


def test_cut_card_comes_out_after_the_cut_index() -> None:
    shoe = Shoe(Rng(SEED), decks=1, behind_cut=(10, 10))
    assert shoe.cut_index == 42
    for _ in range(42):
        shoe.draw()
        assert not shoe.cut_card_out
    shoe.draw()
    assert shoe.cut_card_out


def test_burn_and_exhaustion() -> None:
    shoe = Shoe(Rng(SEED), decks=1, behind_cut=(0, 0))
    first = shoe.cards[0]
    assert shoe.burn() == first and shoe.burned == [first]
    for _ in range(51):
        shoe.draw()
    with pytest.raises(InvalidInput, match="empty"):
        shoe.draw()
    shoe.seek(3)
    assert shoe.remaining == 49


def test_shoe_rejects_bad_settings() -> None:
    with pytest.raises(InvalidInput):
        Shoe(Rng(SEED), decks=0)
    with pytest.raises(InvalidInput):
        Shoe(Rng(SEED), decks=1, behind_cut=(10, 60))
