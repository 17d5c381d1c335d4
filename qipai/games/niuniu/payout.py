"""What each seat wins or loses in Swap Niu Niu (docs/rules/niuniu.md#settlement, Settlement), as balanced postings.

Source (輸贏計算):
* 閒贏: 底注 × 莊家搶莊倍數 × 自己下注倍數 × 自己牌型倍數 − 公點 4%
* 閒輸: 底注 × 莊家搶莊倍數 × 自己下注倍數 × 莊家牌型倍數
The banker's net, when positive, is charged the same 4 %, and nobody may go below zero (the Pai Gow
cap algorithm with each seat's balance as its stack): `qipai.core.settlement.settle_banker_game`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from qipai.core.money import Rate
from qipai.core.protocol import Posting
from qipai.core.settlement import BankerSettlement, settle_banker_game
from qipai.games.niuniu.hands import Hand

# The largest hand multiplier (五小牛 ×5): the worst loss per unit of base × multiples.
WORST_HAND_MULTIPLIER = 5


@dataclass(frozen=True)
class Pairing:
    """The banker against one player: who won and the raw amount (player's view, before caps)."""

    player: str
    winner: str  # the player's id or the banker's id
    stake: int  # base × banker multiple × player multiple
    multiplier: int  # the winner's hand multiplier
    raw: int  # + player wins, − player loses

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "stake": self.stake,
            "multiplier": self.multiplier,
            "raw": self.raw,
        }


def pairing(
    base: int,
    banker: str,
    banker_multiple: int,
    banker_hand: Hand,
    player: str,
    player_multiple: int,
    player_hand: Hand,
) -> Pairing:
    """One banker–player comparison (source 輸贏判斷: the higher hand wins; never a tie)."""
    stake = base * banker_multiple * player_multiple
    if player_hand.beats(banker_hand):
        # 閒贏: 底注 × 莊家搶莊倍數 × 自己下注倍數 × 自己牌型倍數 (commission later, on the net)
        return Pairing(
            player, player, stake, player_hand.multiplier, stake * player_hand.multiplier
        )
    # 閒輸: 底注 × 莊家搶莊倍數 × 自己下注倍數 × 莊家牌型倍數
    return Pairing(player, banker, stake, banker_hand.multiplier, -stake * banker_hand.multiplier)


@dataclass(frozen=True)
class NiuniuSettlement:
    banker: str
    pairings: dict[str, Pairing]
    settlement: BankerSettlement

    def postings(self) -> tuple[Posting, ...]:
        """Seat nets, then the commission and rounding accounts: they sum to zero."""
        return self.settlement.postings(
            "net", commission_memo="commission 公點", rounding_memo="rounding"
        )


def settle_hands(
    *,
    base: int,
    commission: Rate,
    banker: str,
    banker_multiple: int,
    hands: Mapping[str, Hand],
    bets: Mapping[str, int],
    balances: Mapping[str, int],
) -> NiuniuSettlement:
    """Compare the banker with every player and settle with caps and commission."""
    pairings = {
        player: pairing(
            base, banker, banker_multiple, hands[banker], player, bets[player], hands[player]
        )
        for player in bets
    }
    raw = {player: p.raw for player, p in pairings.items()}
    return NiuniuSettlement(banker, pairings, settle_banker_game(banker, raw, balances, commission))


def allowed_bets(
    base: int, banker_multiple: int, balance: int, choices: Sequence[int], cover_check: bool = True
) -> list[int]:
    """docs/rules/niuniu.md#cover-check Decision: a bet multiple is allowed only if its worst loss (base × banker
    multiple × own multiple × 5) is covered by the balance. The minimum is always allowed (it is
    also the default on silence); the cap then limits what a short balance can lose."""
    if not cover_check:
        return list(choices)
    ok = [m for m in choices if base * banker_multiple * m * WORST_HAND_MULTIPLIER <= balance]
    return ok or [choices[0]]


def allowed_bids(
    base: int,
    opponents: int,
    balance: int,
    choices: Sequence[int],
    min_bet: int,
    cover_check: bool = True,
) -> list[int]:
    """Bids besides "none": docs/rules/niuniu.md#cover-check Decision, the same test as bets against all opponents'
    minimum bets — base × bid × (opponents × minimum bet) × 5 must be covered by the balance."""
    if not cover_check:
        return list(choices)
    return [m for m in choices if base * m * opponents * min_bet * WORST_HAND_MULTIPLIER <= balance]
