"""Texas Hold'em Bonus actions (docs/rules/holdem-bonus.md#round-flow), typed: one frozen model per action, tagged by `type`.

Betting phase:
* `{"type": "bet", "box": "3", "ante": 100, "bonus": 100 | 0, "pool": true | false,
  "done": false}` — places (or replaces) all of one box's bets (`box` defaults to the seat's own);
* `{"type": "clear", "box"?: "3"}` — takes bets back (every box of the seat without `box`);
* `{"type": "done"}` — confirms.

Decisions (`box` may be left out when exactly one of the seat's boxes awaits one; `amount`, when
given, must be the exact bet):
* flop — `{"type": "flop", "box"?, "amount"?}` (2x ante) or `{"type": "fold", "box"?}`;
* turn — `{"type": "turn", "box"?, "amount"?}` (1x ante) or `{"type": "check", "box"?}`;
* river — `{"type": "river", "box"?, "amount"?}` (1x ante) or `{"type": "check", "box"?}`.

Amounts are positive integers of minor units (never a bool, float or string); any other field
is refused, naming it (`{"type": "clear", "bx": "1"}` does not clear every box).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from qipai.core.model import Amount, Amount0, Flag, Model, Text

BoxName = Annotated[Text, Field(min_length=1, max_length=8)]


class Bet(Model):
    type: Literal["bet"] = "bet"
    box: BoxName | None = None
    ante: Amount
    bonus: Amount0 = 0
    pool: Flag = False
    done: Flag = False


class Clear(Model):
    type: Literal["clear"] = "clear"
    box: BoxName | None = None


class Done(Model):
    type: Literal["done"] = "done"


class Flop(Model):
    type: Literal["flop"] = "flop"
    box: BoxName | None = None
    amount: Amount | None = None


class Fold(Model):
    type: Literal["fold"] = "fold"
    box: BoxName | None = None


class Turn(Model):
    type: Literal["turn"] = "turn"
    box: BoxName | None = None
    amount: Amount | None = None


class River(Model):
    type: Literal["river"] = "river"
    box: BoxName | None = None
    amount: Amount | None = None


class Check(Model):
    type: Literal["check"] = "check"
    box: BoxName | None = None


Action = Annotated[
    Bet | Clear | Done | Flop | Fold | Turn | River | Check, Field(discriminator="type")
]
DecisionAction = Flop | Fold | Turn | River | Check
