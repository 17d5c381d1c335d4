"""`qipai advise GAME …`: the best decision for a player, as text or JSON.

Each game declares its advisor from its own folder (`GameSpec.advise`, given an
`AdviceRequest`: cards, seen, board, mode, JSON), written from the code that drives its hint and
its best bot, so the command, the browser and the bots cannot disagree. This module holds only
what every advisor shares — the dispatch through the registry and the JSON conventions: JSON
numbers are numbers and exact values are {numerator, denominator} ratios, never strings.

An unknown game names the registered ones; a game without an advisor is refused with
`NotOffered` naming the games that have one (and why, when the game says: a game whose best
bot decides by sampled rollouts has no advice to state exactly), never answered with a guess.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from qipai.core.spec import AdviceRequest


def ratio(value: Fraction) -> dict[str, int]:
    """An exact ratio as JSON numbers."""
    return {"numerator": value.numerator, "denominator": value.denominator}


def dump(data: Any) -> str:
    """Advice as JSON (UTF-8 text kept, indented for reading)."""
    return json.dumps(data, ensure_ascii=False, indent=2)


def advise(
    game: str,
    cards: str,
    seen: str = "",
    board: str = "",
    mode: str | None = None,
    as_json: bool = False,
) -> str:
    """The advice text (or JSON) for one game: InvalidInput for bad input or an unknown game,
    NotOffered for a game without an advisor."""
    from qipai.games import registry

    request = AdviceRequest(cards=cards, seen=seen, board=board, mode=mode, as_json=as_json)
    return registry.get(game).advice(request)
