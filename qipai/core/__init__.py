"""Core primitives: cards, tiles, fair randomness, money, settlement and the game protocol."""

from qipai.core.cards import Card, Shoe, format_cards, parse_card, parse_cards, standard_deck
from qipai.core.errors import GameError, IllegalAction, InvalidInput, OutOfTurn, WrongPhase
from qipai.core.money import largest_remainder, round_down, scale, take_commission, to_rate
from qipai.core.protocol import (
    ActionSpec,
    Event,
    Posting,
    RecordedAction,
    Round,
    RoundResult,
    Seat,
    replay,
)
from qipai.core.rng import Rng, commitment, new_seed, verify
from qipai.core.settlement import BankerSettlement, settle_banker_game
from qipai.core.tiles import Tile, full_set, parse_tile, parse_tiles

__all__ = [
    "ActionSpec",
    "BankerSettlement",
    "Card",
    "Event",
    "GameError",
    "IllegalAction",
    "InvalidInput",
    "OutOfTurn",
    "Posting",
    "RecordedAction",
    "Rng",
    "Round",
    "RoundResult",
    "Seat",
    "Shoe",
    "Tile",
    "WrongPhase",
    "commitment",
    "format_cards",
    "full_set",
    "largest_remainder",
    "new_seed",
    "parse_card",
    "parse_cards",
    "parse_tile",
    "parse_tiles",
    "replay",
    "round_down",
    "scale",
    "settle_banker_game",
    "standard_deck",
    "take_commission",
    "to_rate",
    "verify",
]
