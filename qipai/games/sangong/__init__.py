"""San Gong, bid-for-banker (抢庄三公), rules/en.md: hands, the round, settlement, and in this
folder everything else the room and the tools need of the game (spec.py lists it)."""

from __future__ import annotations

from qipai.games.sangong.config import SangongConfig
from qipai.games.sangong.round import SangongRound

ROUND = SangongRound
CONFIG = SangongConfig

__all__ = ["CONFIG", "ROUND", "SangongConfig", "SangongRound"]
