"""What each seat wins or loses in a San Gong round (rules/en.md, Money), as balanced postings.

A = table base, X = the banker's multiple, Y = the player's multiple, M = the winning hand's
multiplier (the player's when the player wins, the banker's when the banker wins). Each pairing
moves A·X·Y·M from loser to winner; players are not compared with one another. Commission is
taken from each participant's *net* win in the round and the Pai Gow cap algorithm applies with
each seat's table stack as its stake: both are `qipai.core.settlement.settle_banker_game`.

The worked example of rules/en.md (base 100, banker bid 2):

>>> from qipai.core.cards import parse_cards
>>> from qipai.games.sangong.hands import evaluate
>>> hands = {s: evaluate(parse_cards(c)) for s, c in {
...     "banker": "3s 5h Kc", "出": "4d 5c Ts", "川": "Js Qh Kd", "尾": "2c 3d Th"}.items()}
>>> done = settle_hands(base=100, commission="0.05", multipliers=HandMultipliers(),
...     banker="banker", banker_multiple=2, hands=hands, bets={"出": 3, "川": 1, "尾": 2},
...     stacks=dict.fromkeys(hands, 100_000))
>>> done.settlement.nets()
{'banker': -1800, '出': 1710, '川': 760, '尾': -800}
>>> done.settlement.commission
130
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from qipai.core.money import Rate
from qipai.core.protocol import Posting
from qipai.core.settlement import BankerSettlement, settle_banker_game
from qipai.games.sangong.config import HandMultipliers
from qipai.games.sangong.hands import Hand


@dataclass(frozen=True)
class Pairing:
    """The banker against one player: who won, the stake A·X·Y, the winner's multiplier M and
    the raw result A·X·Y·M from the player's side (before the cap and commission)."""

    player: str
    winner: str  # the player's seat or the banker's
    stake: int
    multiplier: int
    raw: int

    def to_json(self) -> dict[str, int | str]:
        return {
            "winner": self.winner,
            "stake": self.stake,
            "multiplier": self.multiplier,
            "raw": self.raw,
        }


def pairing(
    base: int,
    multipliers: HandMultipliers,
    banker: str,
    banker_multiple: int,
    banker_hand: Hand,
    player: str,
    player_multiple: int,
    player_hand: Hand,
) -> Pairing:
    """One comparison: the higher hand wins its own multiplier (never a tie, rules/en.md).

    >>> from qipai.core.cards import parse_cards
    >>> from qipai.games.sangong.hands import evaluate
    >>> m = HandMultipliers()
    >>> pairing(100, m, "B", 2, evaluate(parse_cards("3s 5h Kc")),
    ...         "P", 2, evaluate(parse_cards("2c 3d Th"))).raw
    -800
    """
    stake = base * banker_multiple * player_multiple
    if player_hand.beats(banker_hand):
        won = player_hand.multiplier(multipliers)
        return Pairing(player, player, stake, won, stake * won)
    won = banker_hand.multiplier(multipliers)
    return Pairing(player, banker, stake, won, -stake * won)


@dataclass(frozen=True)
class SangongSettlement:
    banker: str
    pairings: dict[str, Pairing]
    settlement: BankerSettlement

    def postings(self) -> tuple[Posting, ...]:
        """Seat nets (banker first), then the commission and rounding accounts when not zero;
        they sum to zero."""
        return self.settlement.postings(
            "sangong",
            commission_memo="sangong: commission 抽水",
            rounding_memo="sangong: rounding",
            zero_house_lines=False,
        )

    def seats_json(self) -> dict[str, dict[str, int]]:
        """Per seat: raw, gross (after the cap), commission, rounding, net, and the valid bet
        (the absolute result after the cap and before commission, as in Pai Gow)."""
        return {
            seat: {
                "raw": s.raw,
                "gross": s.gross,
                "commission": s.commission,
                "rounding": s.rounding,
                "net": s.net,
                "valid_bet": abs(s.gross),
            }
            for seat, s in self.settlement.seats.items()
        }


def settle_hands(
    *,
    base: int,
    commission: Rate,
    multipliers: HandMultipliers,
    banker: str,
    banker_multiple: int,
    hands: Mapping[str, Hand],
    bets: Mapping[str, int],
    stacks: Mapping[str, int],
) -> SangongSettlement:
    """Compare the banker with every player; settle with the cap and the commission."""
    pairings = {
        player: pairing(
            base,
            multipliers,
            banker,
            banker_multiple,
            hands[banker],
            player,
            bets[player],
            hands[player],
        )
        for player in bets
    }
    raw = {player: p.raw for player, p in pairings.items()}
    settled = settle_banker_game(banker, raw, stacks, commission)
    return SangongSettlement(banker, pairings, settled)


def allowed_bets(
    base: int,
    banker_multiple: int,
    stack: int,
    choices: Sequence[int],
    highest_multiplier: int,
    cover_check: bool = True,
) -> list[int]:
    """rules/en.md, A round (the coverage test of Swap Niu Niu with the table's highest hand
    multiplier): a multiple is offered only if its worst loss, base × banker multiple × own
    multiple × highest multiplier, is covered by the stack. The lowest is always offered (it is
    the default on silence); the cap then bounds what a short stack can lose.

    >>> allowed_bets(100, 2, 3000, (1, 2, 3, 4, 5), 5)
    [1, 2, 3]
    """
    if not cover_check:
        return list(choices)
    ok = [m for m in choices if base * banker_multiple * m * highest_multiplier <= stack]
    return ok or [choices[0]]


def allowed_bids(
    base: int,
    opponents: int,
    stack: int,
    choices: Sequence[int],
    lowest_bet: int,
    highest_multiplier: int,
    cover_check: bool = True,
) -> list[int]:
    """Bids besides "none": the same test against every opponent's lowest bet — base × bid ×
    opponents × lowest bet × highest multiplier must be covered by the stack.

    >>> allowed_bids(100, 4, 4000, (1, 2, 3, 4), 1, 5)
    [1, 2]
    """
    if not cover_check:
        return list(choices)
    return [m for m in choices if base * m * opponents * lowest_bet * highest_multiplier <= stack]
