"""`qipai settle` for Tien Gow: score one finished game from its 栋 counts (docs/rules/tiengow.md#scoring).

Input: `{"game": "tiengow", "base": 100, "banker": "E", "banker_streak": 1, "winner": "N",
"dong": {"E": 1, "S": 4, "W": 0, "N": 3}}`; optionally `"zun": ["S"]` (seats that played a
至尊, each collecting `zun_units` base units, default 1, from every other seat) and `"wen_zun"`
(the table's 文尊 setting, default false: then the set holds one 至尊, so `zun` names at most one
seat; with 文尊 on, at most two plays, 武尊 and 文尊). `banker_streak` is
1 for the banker's first bank, 2 for the second, …. Optionally `"stacks": {seat: minor units}`,
the stacks brought into the game: then docs/rules/tiengow.md#scoring's cap applies (nobody wins or loses more than
its stack; §2's cap algorithm with the winner in the banker's place). Output: each seat's `net`
in minor units (after the cap), `raw_net` (before it), `capped`, `units` in base units (the
rules' score and 尊钱, before the cap), and the breakdown of every transfer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field

from qipai.core.errors import InvalidInput
from qipai.core.model import Amount, Amount0, Flag, Int, Model, Text
from qipai.games.tiengow.scoring import Transfer, banker_multiplier, capped_nets, net_units, score

TOTAL_DONG = 8
Seat = Annotated[str, Field(strict=True, min_length=1, max_length=32)]
Dong = Annotated[int, Field(strict=True, ge=0, le=TOTAL_DONG)]


class TiengowSettle(Model):
    """The `qipai settle` document of a Tien Gow game (shapes and bounds; the rules' checks —
    four seats, 8 栋 in all, the two-栋 rule, 至尊 counts — follow in `settle`)."""

    game: Literal["tiengow"]
    base: Amount = Field(description="minor units per 栋")
    banker: Seat
    banker_streak: Annotated[Int, Field(ge=1, le=10**6)] = Field(
        description="1 for the banker's first bank, 2 for the second, …"
    )
    winner: Seat
    dong: dict[Seat, Dong] = Field(description="the 栋 count of each of the 4 seats")
    zun: tuple[Seat, ...] = Field((), max_length=4, description="seats that played a 至尊")
    zun_units: Annotated[Int, Field(ge=0, le=10**6)] = 1
    # docs/rules/tiengow.md#civil-supreme Decision: 文尊 off by default.
    wen_zun: Flag = False
    stacks: dict[Seat, Amount0] | None = Field(None, description="stacks brought into the game")
    note: Annotated[Text, Field(max_length=10_000)] | None = None


# The model `qipai schema` writes as docs/schema/<game>.settle.json (qipai.core.schema).
DOCUMENT = TiengowSettle


def zun_transfers(seats: list[str], player: str, zun_units: int) -> list[Transfer]:
    """尊钱: every other seat pays the player of 至尊 `zun_units` base units at once."""
    return [Transfer(s, player, zun_units, zun_units, 1, "zun") for s in seats if s != player]


def settle(raw_doc: Mapping[str, Any]) -> dict[str, Any]:
    doc = TiengowSettle.parse(raw_doc)
    base, dong, banker, winner = doc.base, doc.dong, doc.banker, doc.winner
    if len(dong) != 4:
        raise InvalidInput("dong must be an object with the 栋 count of each of the 4 seats")
    seats = list(dong)
    transfers = score(seats, banker, doc.banker_streak, winner, dict(dong))
    if sum(dong.values()) != TOTAL_DONG:
        # Each trick is worth as many 栋 as tiles each player put in: 8 in all.
        raise InvalidInput(f"the 栋 counts must total {TOTAL_DONG} (one per tile of a hand)")
    most = 2 if doc.wen_zun else 1  # 武尊 (one 2-4 and one 1-2 in the set), and 文尊 when on
    zun = list(doc.zun)
    if any(s not in seats for s in zun) or len(zun) > most:
        raise InvalidInput(
            f"zun must be a list of at most {most} seat(s) that played a 至尊"
            + ("" if doc.wen_zun else " (文尊 is off: the set has one 至尊)")
        )
    for player in zun:
        transfers += zun_transfers(seats, player, doc.zun_units)
    units = net_units(seats, transfers)
    raw = {seat: u * base for seat, u in units.items()}
    nets, capped = raw, False
    if doc.stacks is not None:
        if set(doc.stacks) != set(seats):
            raise InvalidInput("stacks must give the stack of each of the 4 seats")
        nets, capped = capped_nets(seats, winner, units, base, doc.stacks)
    return {
        "game": "tiengow",
        "base": base,
        "banker": banker,
        "banker_streak": doc.banker_streak,
        "multiplier": banker_multiplier(doc.banker_streak),
        "winner": winner,
        "dong": dict(dong),
        "units": units,
        "net": nets,
        "raw_net": raw,
        "capped": capped,
        "breakdown": [{**t.to_json(), "amount": t.units * base} for t in transfers],
    }
