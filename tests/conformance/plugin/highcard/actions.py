"""High card's actions, typed: one frozen model per action, tagged by `type`."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from qipai.core.model import Amount, Model


class Ante(Model):
    type: Literal["ante"] = "ante"
    amount: Amount


class Keep(Model):
    type: Literal["keep"] = "keep"


class Switch(Model):
    type: Literal["switch"] = "switch"


Action = Annotated[Ante | Keep | Switch, Field(discriminator="type")]
