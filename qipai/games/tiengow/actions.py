"""Tien Gow actions (docs/rules/tiengow.md#tricks), typed: one frozen model per action, tagged by `type`.

* `{"type": "play", "tiles": [ids]}` — a lead or a beat (face up);
* `{"type": "discard", "tiles": [ids]}` — a follower's face-down discard of as many tiles as the
  lead.

Tile ids are the instances 0–31 of the dealt set (integers, never a bool); one to four of them,
no repeats. Any other field is refused, naming it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, Strict

from qipai.core.model import Model

TileId = Annotated[int, Strict(), Field(ge=0, le=31)]


def _distinct(ids: tuple[int, ...]) -> tuple[int, ...]:
    if len(set(ids)) != len(ids):
        raise ValueError("a tile id is given twice")
    return ids


Tiles = Annotated[tuple[TileId, ...], Field(min_length=1, max_length=4), AfterValidator(_distinct)]


class Play(Model):
    type: Literal["play"] = "play"
    tiles: Tiles


class Discard(Model):
    type: Literal["discard"] = "discard"
    tiles: Tiles


Action = Annotated[Play | Discard, Field(discriminator="type")]
