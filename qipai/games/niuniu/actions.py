"""Swap Niu Niu actions (docs/rules/niuniu.md#round-flow), typed: one frozen model per action, tagged by `type`.

* `{"type": "swap", "cards": ["As", "Td"]}` — phase `swap`: the cards to replace (any subset of
  the seat's four, `[]` = keep all; the confirmation is final);
* `{"type": "bid", "multiple": m}` — phase `bid`: 0 = no bid, else a multiple the balance covers;
* `{"type": "bet", "multiple": m}` — phase `bet`, players only.

Cards are card names ("As", "10♠", "Td"), stored in their canonical form ("Ts"). Any other
field is refused, naming it (`{"type": "swap", "card": […]}` must not pass as an empty swap).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from qipai.core.banker import Bet, Bid
from qipai.core.cards import parse_card
from qipai.core.errors import InvalidInput
from qipai.core.model import Model, Text


def _card_name(text: str) -> str:
    try:
        return str(parse_card(text))
    except InvalidInput as exc:
        raise ValueError(exc.message) from None


CardName = Annotated[Text, Field(max_length=8), AfterValidator(_card_name)]


class Swap(Model):
    type: Literal["swap"] = "swap"
    cards: Annotated[tuple[CardName, ...], Field(max_length=4)] = ()


Action = Annotated[Swap | Bid | Bet, Field(discriminator="type")]

__all__ = ["Action", "Bet", "Bid", "Swap"]
