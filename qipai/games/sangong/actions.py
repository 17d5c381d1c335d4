"""San Gong actions (rules/en.md, A round), typed: one frozen model per action, tagged by `type`.

* `{"type": "bid", "multiple": m}` — phase `bid`: 0 = no bid, else a multiple the stack covers;
* `{"type": "bet", "multiple": m}` — phase `bet`, players only;
* `{"type": "show"}` — phase `show`: show this seat's three cards now (亮牌); it changes nothing
  about the hand, only who sees it and when.

Any other field is refused, naming it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from qipai.core.banker import Bet, Bid
from qipai.core.model import Model


class Show(Model):
    type: Literal["show"] = "show"


Action = Annotated[Bid | Bet | Show, Field(discriminator="type")]

__all__ = ["Action", "Bet", "Bid", "Show"]
