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

from pydantic import Field, model_validator

from qipai.core.errors import InvalidInput
from qipai.core.model import Amount, Amount0, Flag, Int, Model, Text
from qipai.games.tiengow.scoring import Transfer, banker_multiplier, capped_nets, net_units, score

TOTAL_DONG = 8
SEATS = 4
Seat = Annotated[str, Field(strict=True, min_length=1, max_length=32)]
Dong = Annotated[int, Field(strict=True, ge=0, le=TOTAL_DONG)]


class TiengowSettle(Model):
    """The `qipai settle` document of a Tien Gow game.

    Cross-field rules (checked by the model, stated in the schema's descriptions): `dong` names
    the 4 seats and totals 8 栋; `banker`, `winner`, each `zun` seat and the keys of `stacks`
    are those seats; `zun` names at most one seat (two with `wen_zun`). The two-栋 rule for the
    winner is the scoring's (`scoring.score`)."""

    game: Literal["tiengow"]
    base: Amount = Field(description="minor units per 栋")
    banker: Seat = Field(description="one of the seats of dong")
    banker_streak: Annotated[Int, Field(ge=1, le=10**6)] = Field(
        description="1 for the banker's first bank, 2 for the second, …"
    )
    winner: Seat = Field(description="one of the seats of dong")
    dong: dict[Seat, Dong] = Field(
        description=f"the 栋 count of each of the {SEATS} seats, {TOTAL_DONG} in all",
        json_schema_extra={"minProperties": SEATS, "maxProperties": SEATS},
    )
    zun: tuple[Seat, ...] = Field(
        (),
        max_length=4,
        description="seats (of dong) that played a 至尊: at most one, two with wen_zun",
    )
    zun_units: Annotated[Int, Field(ge=0, le=10**6)] = 1
    # docs/rules/tiengow.md#civil-supreme Decision: 文尊 off by default.
    wen_zun: Flag = False
    stacks: dict[Seat, Amount0] | None = Field(
        None, description="stacks brought into the game, one for each seat of dong"
    )
    note: Annotated[Text, Field(max_length=10_000)] | None = None

    @model_validator(mode="after")
    def _seats(self) -> TiengowSettle:
        dong, seats = self.dong, list(self.dong)
        if len(dong) != SEATS:
            raise InvalidInput(
                f"dong must be an object with the 栋 count of each of the {SEATS} seats",
                field="dong",
            )
        for name in ("banker", "winner"):
            value = getattr(self, name)
            if value not in dong:
                raise InvalidInput(f"{name} {value!r} is not a seat {seats}", field=name)
        if sum(dong.values()) != TOTAL_DONG:
            # Each trick is worth as many 栋 as tiles each player put in: 8 in all.
            raise InvalidInput(
                f"the 栋 counts must total {TOTAL_DONG} (one per tile of a hand)", field="dong"
            )
        most = 2 if self.wen_zun else 1  # 武尊 (one 2-4 and one 1-2 in the set), and 文尊 when on
        if any(s not in dong for s in self.zun) or len(self.zun) > most:
            raise InvalidInput(
                f"zun must be a list of at most {most} seat(s) that played a 至尊"
                + ("" if self.wen_zun else " (文尊 is off: the set has one 至尊)"),
                field="zun",
            )
        if self.stacks is not None and set(self.stacks) != set(dong):
            raise InvalidInput(
                f"stacks must give the stack of each of the {SEATS} seats", field="stacks"
            )
        return self


# The model `qipai schema` writes as docs/schema/<game>.settle.json (qipai.core.schema).
DOCUMENT = TiengowSettle


def zun_transfers(seats: list[str], player: str, zun_units: int) -> list[Transfer]:
    """尊钱: every other seat pays the player of 至尊 `zun_units` base units at once."""
    return [Transfer(s, player, zun_units, zun_units, 1, "zun") for s in seats if s != player]


def settle(raw_doc: Mapping[str, Any]) -> dict[str, Any]:
    doc = TiengowSettle.parse(raw_doc)
    base, dong, banker, winner = doc.base, doc.dong, doc.banker, doc.winner
    seats = list(dong)
    transfers = score(seats, banker, doc.banker_streak, winner, dict(dong))
    zun = list(doc.zun)
    for player in zun:
        transfers += zun_transfers(seats, player, doc.zun_units)
    units = net_units(seats, transfers)
    raw = {seat: u * base for seat, u in units.items()}
    nets, capped = raw, False
    if doc.stacks is not None:
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
