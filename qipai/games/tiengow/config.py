"""Tien Gow table settings with their docs/rules/tiengow.md#table-settings defaults, validated."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, Strict

from qipai.core.model import Amount, Flag, Model, WholeSeconds


class TienGowConfig(Model):
    """One table's settings.

    * `base`: minor units per 栋 (docs/rules/tiengow.md#scoring: "base = stake per 栋").
    * `wen_zun`: the source's optional 文尊 rule (**Decision**: off by default).
    * `zun_units`: 尊钱 in base units that every other player pays the player of 至尊
      (**Decision**: 1; 0–10).
    * `turn_seconds`: the countdown for each turn (3–120 s); silence = the docs/rules/tiengow.md#minimum-buy-in default
      play.
    * `min_stack_units`: docs/rules/tiengow.md#minimum-buy-in Decision (minimum buy-in): a seat needs at least this many
      base units at the start of each game (default 12), else it is stood up before the deal.
    """

    base: Amount = 100
    wen_zun: Flag = False
    zun_units: Annotated[int, Strict(), Field(ge=0, le=10)] = 1
    turn_seconds: WholeSeconds = 15
    min_stack_units: Annotated[int, Strict(), Field(ge=1, le=1000)] = 12
