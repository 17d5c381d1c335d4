"""Pai Gow actions (docs/rules/paigow.md#round-flow), typed: one frozen model per action, tagged by `type`.

* `{"type": "bid", "multiple": m}` — phase `bid`: 0 = no bid, else one of the table's bids;
* `{"type": "bet", "multiple": m}` — phase `bet`, players only: one of the table's bet multiples;
* `{"type": "reveal"}` — phase `reveal`: this seat is done looking.

Multiples are integers (never a bool, float or string); any other field is refused, naming it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from qipai.core.model import Chosen, Model


class Bid(Model):
    type: Literal["bid"] = "bid"
    multiple: Chosen


class Bet(Model):
    type: Literal["bet"] = "bet"
    multiple: Chosen


class Reveal(Model):
    type: Literal["reveal"] = "reveal"


Action = Annotated[Bid | Bet | Reveal, Field(discriminator="type")]
