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
from typing import Any

from qipai.core.errors import InvalidInput
from qipai.core.money import require_amount
from qipai.games.tiengow.scoring import Transfer, banker_multiplier, capped_nets, net_units, score

TOTAL_DONG = 8
FIELDS = {
    "game",
    "base",
    "banker",
    "banker_streak",
    "winner",
    "dong",
    "zun",
    "zun_units",
    "wen_zun",
    "stacks",
    "note",
}


def zun_transfers(seats: list[str], player: str, zun_units: int) -> list[Transfer]:
    """尊钱: every other seat pays the player of 至尊 `zun_units` base units at once."""
    return [Transfer(s, player, zun_units, zun_units, 1, "zun") for s in seats if s != player]


def settle(doc: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(doc) - FIELDS
    if unknown:
        raise InvalidInput(f"unknown tiengow fields: {', '.join(sorted(unknown))}")
    for key in ("base", "banker", "banker_streak", "winner", "dong"):
        if key not in doc:
            raise InvalidInput(f"tiengow settle needs {key!r}")
    base = doc["base"]
    if isinstance(base, bool) or not isinstance(base, int) or base <= 0:
        raise InvalidInput("base must be a positive integer of minor units per 栋")
    dong = doc["dong"]
    if not isinstance(dong, Mapping) or len(dong) != 4:
        raise InvalidInput("dong must be an object with the 栋 count of each of the 4 seats")
    seats = [str(s) for s in dong]
    banker, winner = doc["banker"], doc["winner"]
    if not isinstance(banker, str) or not isinstance(winner, str):
        raise InvalidInput("banker and winner must be seat names")
    transfers = score(seats, banker, doc["banker_streak"], winner, dict(dong))
    if sum(dong.values()) != TOTAL_DONG:
        # Each trick is worth as many 栋 as tiles each player put in: 8 in all.
        raise InvalidInput(f"the 栋 counts must total {TOTAL_DONG} (one per tile of a hand)")
    zun_units = doc.get("zun_units", 1)
    if isinstance(zun_units, bool) or not isinstance(zun_units, int) or zun_units < 0:
        raise InvalidInput("zun_units must be a non-negative integer")
    wen_zun = doc.get(
        "wen_zun", False
    )  # docs/rules/tiengow.md#civil-supreme Decision: 文尊 off by default
    if not isinstance(wen_zun, bool):
        raise InvalidInput("wen_zun must be true or false (the table's 文尊 setting)")
    most = 2 if wen_zun else 1  # 武尊 (one 2-4 and one 1-2 in the set), and 文尊 when on
    zun = doc.get("zun", [])
    if not isinstance(zun, list) or any(s not in seats for s in zun) or len(zun) > most:
        raise InvalidInput(
            f"zun must be a list of at most {most} seat(s) that played a 至尊"
            + ("" if wen_zun else " (文尊 is off: the set has one 至尊)")
        )
    for player in zun:
        transfers += zun_transfers(seats, player, zun_units)
    units = net_units(seats, transfers)
    raw = {seat: u * base for seat, u in units.items()}
    nets, capped = raw, False
    if "stacks" in doc:
        stacks = doc["stacks"]
        if not isinstance(stacks, Mapping) or set(stacks) != set(seats):
            raise InvalidInput("stacks must give the stack of each of the 4 seats")
        for seat, stack in stacks.items():
            require_amount(stack, f"stack of {seat}")
        nets, capped = capped_nets(seats, winner, units, base, stacks)
    return {
        "game": "tiengow",
        "base": base,
        "banker": banker,
        "banker_streak": doc["banker_streak"],
        "multiplier": banker_multiplier(doc["banker_streak"]),
        "winner": winner,
        "dong": dict(dong),
        "units": units,
        "net": nets,
        "raw_net": raw,
        "capped": capped,
        "breakdown": [{**t.to_json(), "amount": t.units * base} for t in transfers],
    }
