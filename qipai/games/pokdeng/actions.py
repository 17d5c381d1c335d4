"""Pok Deng actions (docs/rules/pokdeng.md#round-flow), typed: one frozen model per action, tagged by `type`.

* `{"type": "bet", "spot": "P1", "amount": 100}` — add chips to a spot;
* `{"type": "bets", "bets": [{"spot": …, "amount": …}, …], "done": false}` — several at once,
  all or nothing; `"done": true` also confirms;
* `{"type": "clear"}` or `{"type": "clear", "spot": "P1"}` — take chips back;
* `{"type": "done"}` — confirm; no further bets this round.

A spot is any of the 16 spot names (`P1`–`P5`, `B1`–`B5`, `P1 pair`–`P5 pair`, `B pair`); a spot
that is not on this table's mode is refused by the round (IllegalAction). Amounts are positive
integers of minor units (never a bool, float or string). Any other field is refused, naming it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from qipai.core.model import Amount, Flag, Model

SpotName = Literal[
    "P1",
    "P2",
    "P3",
    "P4",
    "P5",
    "B1",
    "B2",
    "B3",
    "B4",
    "B5",
    "P1 pair",
    "P2 pair",
    "P3 pair",
    "P4 pair",
    "P5 pair",
    "B pair",
]
# At most this many chips in one `bets` action (one per spot is 16; a bounded input).
MAX_CHIPS = 64


class Chip(Model):
    spot: SpotName
    amount: Amount


class Bet(Model):
    type: Literal["bet"] = "bet"
    spot: SpotName
    amount: Amount


class Bets(Model):
    type: Literal["bets"] = "bets"
    bets: Annotated[tuple[Chip, ...], Field(max_length=MAX_CHIPS)]
    done: Flag = False


class Clear(Model):
    type: Literal["clear"] = "clear"
    spot: SpotName | None = None


class Done(Model):
    type: Literal["done"] = "done"


Action = Annotated[Bet | Bets | Clear | Done, Field(discriminator="type")]
