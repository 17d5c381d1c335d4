"""Builders for Hold'em Bonus tests: a stacked deck for a chosen deal, quick rounds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from qipai.core.cards import Card, parse_cards, standard_deck
from qipai.core.protocol import Seat
from qipai.games.holdem_bonus import HoldemBonusConfig, HoldemBonusRound


def stacked_deck(holes: Sequence[str], dealer: str, board: str) -> list[Card]:
    """Deck order that deals `holes` (to the playing boxes, in box order), then `dealer`, `board`."""
    hole_cards = [parse_cards(h) for h in holes]
    d = parse_cards(dealer)
    order = [h[0] for h in hole_cards] + [d[0]] + [h[1] for h in hole_cards] + [d[1]]
    order += parse_cards(board)
    rest = [c for c in standard_deck() if c not in order]
    return order + rest


def round_with(
    holes: Sequence[str],
    dealer: str,
    board: str,
    seats: Sequence[str] = ("1",),
    stack: int = 100_000,
    pool: int = 1_000_000,
    config: HoldemBonusConfig | None = None,
) -> HoldemBonusRound:
    return HoldemBonusRound(
        config or HoldemBonusConfig(),
        [Seat(s, stack) for s in seats],
        stacked_deck(holes, dealer, board),
        pool,
    )


def bet_all(round_: HoldemBonusRound, bets: Mapping[str, Mapping[str, object]]) -> None:
    """Place bets (seat → bet action fields), then every seat confirms."""
    for seat, fields in bets.items():
        round_.act(seat, {"type": "bet", **fields})
    for seat in round_.seat_ids():
        if seat not in round_.view(seat)["me"] or not round_.view(seat)["me"]["done"]:
            round_.act(seat, {"type": "done"})
