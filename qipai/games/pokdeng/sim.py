"""Pok Deng in batch: many rounds of the same bets dealt straight from each shoe's card ids.

`qipai simulate pokdeng` plays hundreds of thousands of rounds of one fixed set of bets (every
spot at the table minimum). The round engine (`round.py`) is the rules — typed actions, views,
the journal — and pays for what a table needs; this module is its speed for that one use: the
same shoes (`qipai.core.cards.Shoe` from the same seeds), the same burn-and-deal order
(docs/rules/pokdeng.md, "Cards and shoe"), the same cut card and the same settlement (each
bet's net read from tables built by `payout.rule_tables`, which tabulates `payout.spot_rule`).
`qipai/games/pokdeng/tests/test_sim.py` plays the same shoes through `PokDengRound` and checks every
round: hand classes, each bet's net, the rounding units and where each shoe ends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from qipai.core.cards import Shoe
from qipai.core.rng import Rng
from qipai.games.pokdeng.config import BANKER, CARDS_PER_ROUND, POSITIONS, PokDengConfig
from qipai.games.pokdeng.hands import HAND_TABLE, KLASS_COUNT
from qipai.games.pokdeng.payout import rule_tables

# The hand class of the two cards with ids (a, b), at a * 52 + b (hands.py's HAND_TABLE order).
KLASS_TABLE: tuple[int, ...] = tuple(hand.klass for hand in HAND_TABLE)
# The order of the dealt hands: docs/rules/pokdeng.md, one card each to P1–P5, then the banker.
HANDS: tuple[str, ...] = (*POSITIONS, BANKER)


class BatchRound(NamedTuple):
    """One simulated round: its shoe (the n-th seed), where the round started in the shoe, the
    six hands' classes (P1–P5, B), each bet's net and the units sent to rounding."""

    shoe: int
    position: int
    klasses: tuple[int, ...]
    bet_nets: tuple[int, ...]
    rounding: int


def _bet_tables(
    config: PokDengConfig, bets: Sequence[tuple[str, int]]
) -> list[tuple[int, list[int], list[int]]]:
    """Per bet (spot, amount): (index of its hand in HANDS, net by klass·KLASS_COUNT + banker's
    klass, rounding unit by the same index) — `payout.settle_placed` on every class pair."""
    tables = rule_tables(config)
    out = []
    for spot, amount in bets:
        table, about = tables[spot]
        nets = [0] * (KLASS_COUNT * KLASS_COUNT)
        units = [0] * (KLASS_COUNT * KLASS_COUNT)
        for k in range(KLASS_COUNT):
            for b in range(KLASS_COUNT):
                rule = table[k][b]
                if rule is None:
                    continue
                # "B pair" reads the banker's hand for both indexes ([banker][banker]).
                win, rest = divmod(amount * rule.num, rule.den)
                nets[k * KLASS_COUNT + b] = win
                units[k * KLASS_COUNT + b] = 1 if rest else 0
        out.append((HANDS.index(about), nets, units))
    return out


def play(
    config: PokDengConfig,
    bets: Sequence[tuple[str, int]],
    rounds: int,
    seed_of: Callable[[int], bytes],
) -> Iterator[BatchRound]:
    """`rounds` rounds of the same `bets` (spot, amount), shoe after shoe: shoe n is shuffled
    from `Rng(seed_of(n))` as a table's would be, and played from its first card until the cut
    card comes out (the round that draws it is the shoe's last)."""
    tables = _bet_tables(config, bets)
    klass_of = KLASS_TABLE
    count = KLASS_COUNT
    shoe_number = 0
    played = 0
    while played < rounds:
        shoe = Shoe(Rng(seed_of(shoe_number)), config.decks, config.cut_behind)
        ids = [card.id for card in shoe.cards]
        cut_index = shoe.cut_index
        position = 0
        while played < rounds:
            # Burn ids[position]; hand i gets ids[position + 1 + i] and ids[position + 7 + i].
            c = ids[position + 1 : position + CARDS_PER_ROUND]
            klasses = (
                klass_of[c[0] * 52 + c[6]],
                klass_of[c[1] * 52 + c[7]],
                klass_of[c[2] * 52 + c[8]],
                klass_of[c[3] * 52 + c[9]],
                klass_of[c[4] * 52 + c[10]],
                klass_of[c[5] * 52 + c[11]],
            )
            banker = klasses[5]
            nets = []
            rounding = 0
            for about, net_table, unit_table in tables:
                index = klasses[about] * count + banker
                nets.append(net_table[index])
                rounding += unit_table[index]
            yield BatchRound(shoe_number, position, klasses, tuple(nets), rounding)
            played += 1
            position += CARDS_PER_ROUND
            if position > cut_index:  # this round drew the card behind the cut card
                break
        shoe_number += 1
