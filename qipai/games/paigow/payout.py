"""What each seat wins or loses in a Pai Gow round, as balanced postings (docs/rules/paigow.md#settlement).

Each player is compared with the banker only; the loser of a pairing pays A·X·Y (table base ×
banker's multiple × player's multiple); a push moves nothing. The foundation's
`settle_banker_game` then applies the cap (nobody wins or loses more than the stack brought into
the round) and the 5 % commission on each participant's net win.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from qipai.core.protocol import Posting
from qipai.core.settlement import BankerSettlement, settle_banker_game

from .config import PaigowConfig
from .hands import Outcome


def pairing_amount(base: int, banker_multiple: int, player_multiple: int) -> int:
    """Source 結算公式: A * X * Y moves from the loser to the winner of a pairing."""
    return base * banker_multiple * player_multiple


def raw_result(amount: int, result: Outcome) -> int:
    """The player's result against the banker before caps and commission."""
    return {"player": amount, "banker": -amount, "push": 0}[result]


@dataclass(frozen=True)
class PaigowSettlement:
    """A settled round: the pairings and the foundation's capped, commissioned settlement."""

    banker: str
    banker_multiple: int
    bets: dict[str, int]
    outcomes: dict[str, Outcome]
    amounts: dict[str, int]  # A·X·Y per player
    settled: BankerSettlement

    @property
    def capped(self) -> bool:
        return self.settled.capped

    def nets(self) -> dict[str, int]:
        return self.settled.nets()

    def pairings_json(self) -> list[dict[str, Any]]:
        return [
            {
                "player": p,
                "banker": self.banker,
                "winner": self.outcomes[p],
                "amount": self.amounts[p],
                "raw": raw_result(self.amounts[p], self.outcomes[p]),
            }
            for p in self.outcomes
        ]

    def seats_json(self) -> dict[str, dict[str, int]]:
        """Per seat: raw A·X·Y result, gross (after the cap), commission, rounding, net, and the
        valid bet — source 結算公式 "有效投注額的計算:玩家的輸贏值": the amount won or lost in
        the round (|gross|, after the cap and before commission)."""
        return {
            seat: {
                "raw": s.raw,
                "gross": s.gross,
                "commission": s.commission,
                "rounding": s.rounding,
                "net": s.net,
                "valid_bet": abs(s.gross),
            }
            for seat, s in self.settled.seats.items()
        }

    def postings(self, memo: str) -> tuple[Posting, ...]:
        """One posting per seat (its net), plus the house's commission and rounding if any."""
        return self.settled.postings(
            memo,
            commission_memo=f"{memo}: commission",
            rounding_memo=f"{memo}: rounding",
            zero_house_lines=False,
        )


def settle_round(
    config: PaigowConfig,
    banker: str,
    banker_multiple: int,
    bets: Mapping[str, int],
    outcomes: Mapping[str, Outcome],
    stacks: Mapping[str, int],
) -> PaigowSettlement:
    """Settle every pairing of one round (docs/rules/paigow.md#settlement settlement, cap and commission)."""
    amounts = {p: pairing_amount(config.base, banker_multiple, bets[p]) for p in outcomes}
    raw = {p: raw_result(amounts[p], outcomes[p]) for p in outcomes}
    settled = settle_banker_game(banker, raw, stacks, config.commission_rate)
    return PaigowSettlement(banker, banker_multiple, dict(bets), dict(outcomes), amounts, settled)
