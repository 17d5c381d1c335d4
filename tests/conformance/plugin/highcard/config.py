"""High card's table settings, bounded."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, Strict

from qipai.core.model import Model, Seconds


class HighCardConfig(Model):
    max_ante: Annotated[int, Strict(), Field(ge=1, le=1000)] = 3
    countdown_s: Seconds = 20.0
