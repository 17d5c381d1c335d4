"""Pai Gow actions (docs/rules/paigow.md#round-flow), typed: one frozen model per action, tagged by `type`.

* `{"type": "bid", "multiple": m}` — phase `bid`: 0 = no bid, else one of the table's bids;
* `{"type": "bet", "multiple": m}` — phase `bet`, players only: one of the table's bet multiples;
* `{"type": "reveal"}` — phase `reveal`: this seat is done looking.

Multiples are integers (never a bool, float or string); any other field is refused, naming it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from qipai.core.banker import Bet, Bid
from qipai.core.model import Model


class Reveal(Model):
    type: Literal["reveal"] = "reveal"


Action = Annotated[Bid | Bet | Reveal, Field(discriminator="type")]

__all__ = ["Action", "Bet", "Bid", "Reveal"]
