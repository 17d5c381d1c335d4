"""Tien Gow scoring in base units (docs/rules/tiengow.md#scoring), a pure function of 栋 counts and the bank.

4 栋 is even. Each loser pays the winner (4 − its 栋) units, or 5 with 0 栋 (空栋). A loser with
5 or 6 栋 (入一, 入二) instead receives 1 or 2 units from the winner ("并没有入三": with 8 栋 in
a game and at least 2 for the winner, no loser holds more than 6; the function caps at 2 anyway).
Banker multiplier m = 1 + streak (2 on the first bank, 3 on the second, …): when the banker
wins, every amount between it and each loser is multiplied by m; when the banker loses, its
payment is multiplied by m but a 入 it earns is not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from qipai.core.errors import InvalidInput
from qipai.core.settlement import settle_banker_game

EVEN_DONG = 4
EMPTY_PENALTY = 5  # 空栋: 4 − 0 + 1
MAX_RU = 2  # 入二 is the most; there is no 入三


@dataclass(frozen=True)
class Transfer:
    """`units` base units moving from `payer` to `payee`, with why and the multiplier applied."""

    payer: str
    payee: str
    units: int
    base_units: int
    multiplier: int
    reason: str  # "short" (4 − 栋), "empty" (空栋), "ru" (入一/入二), "zun" (尊钱)

    def to_json(self) -> dict[str, object]:
        return {
            "from": self.payer,
            "to": self.payee,
            "units": self.units,
            "base_units": self.base_units,
            "multiplier": self.multiplier,
            "reason": self.reason,
        }


def banker_multiplier(streak: int) -> int:
    """docs/rules/tiengow.md#banker-multiplier: ×2 on the banker's first bank, ×3, ×4, ×5 … on consecutive banks."""
    if isinstance(streak, bool) or not isinstance(streak, int) or streak < 1:
        raise InvalidInput(f"banker_streak must be an integer >= 1, got {streak!r}")
    return streak + 1


def score(
    seats: Sequence[str],
    banker: str,
    banker_streak: int,
    winner: str,
    dong: Mapping[str, int],
) -> list[Transfer]:
    """The transfers that settle one game, in seat order (zero-unit lines are kept, 归棟)."""
    if len(set(seats)) != len(seats):
        raise InvalidInput("seat ids must be distinct")
    if banker not in seats:
        raise InvalidInput(f"banker {banker!r} is not a seat")
    if winner not in seats:
        raise InvalidInput(f"winner {winner!r} is not a seat")
    for seat in seats:
        value = dong.get(seat)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidInput(f"dong of {seat!r} must be a non-negative integer")
    if set(dong) != set(seats):
        raise InvalidInput("dong must name exactly the seats")
    if dong[winner] < 2:
        # docs/rules/tiengow.md#two-dong-rule, the two-栋 rule: nobody ends the game with fewer than 2 栋.
        raise InvalidInput(f"the winner {winner!r} has {dong[winner]} 栋; a winner has at least 2")
    m = banker_multiplier(banker_streak)
    out: list[Transfer] = []
    for loser in seats:
        if loser == winner:
            continue
        d = dong[loser]
        if d <= EVEN_DONG:
            units = EMPTY_PENALTY if d == 0 else EVEN_DONG - d
            # The banker's side of the amount is multiplied whether it wins or loses.
            mult = m if banker in (winner, loser) else 1
            reason = "empty" if d == 0 else "short"
            out.append(Transfer(loser, winner, units * mult, units, mult, reason))
        else:
            units = min(d - EVEN_DONG, MAX_RU)
            # A 入 is multiplied only when the banker is the winner paying it.
            mult = m if banker == winner else 1
            out.append(Transfer(winner, loser, units * mult, units, mult, "ru"))
    return out


def net_units(seats: Sequence[str], transfers: Sequence[Transfer]) -> dict[str, int]:
    """Each seat's net result in base units (sums to zero)."""
    net = dict.fromkeys(seats, 0)
    for t in transfers:
        net[t.payer] -= t.units
        net[t.payee] += t.units
    return net


def capped_nets(
    seats: Sequence[str],
    winner: str,
    units: Mapping[str, int],
    base: int,
    stacks: Mapping[str, int],
) -> tuple[dict[str, int], bool]:
    """docs/rules/tiengow.md#scoring Decision (cap, as §2's 防以小博大): nobody wins or loses more in one game than
    the stack it brought. §2's cap algorithm settles the game with the winner (结) in the
    banker's place: each other seat's raw result is its whole net (score and 尊钱, in minor
    units) — a 入 is a pairing the winner loses — capped at its stack, then the winner's side is
    scaled to the winner's stack (largest-remainder shares, no commission). Returns (each seat's
    net in minor units, whether any cap changed a result)."""
    raw = {s: units[s] * base for s in seats if s != winner}
    settled = settle_banker_game(winner, raw, stacks, 0)
    return settled.nets(), settled.capped


def max_loss_units(banker_streak: int, zun_units: int = 1, wen_zun: bool = False) -> int:
    """The most any seat can lose in one game, in base units, before the cap: 空栋 against (or
    as) a banker winning or losing at multiplier m (5·m), plus 尊钱 for every 至尊 another seat
    may play."""
    zun_plays = 2 if wen_zun else 1
    return EMPTY_PENALTY * banker_multiplier(banker_streak) + zun_plays * zun_units
