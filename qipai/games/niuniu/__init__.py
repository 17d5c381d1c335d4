"""Swap Niu Niu (换牌牛牛), docs/rules/niuniu.md: hands, the exact swap advisor, the round, settlement."""

from __future__ import annotations

from qipai.games.niuniu.config import NiuniuConfig
from qipai.games.niuniu.round import NiuniuRound

ROUND = NiuniuRound
CONFIG = NiuniuConfig

__all__ = ["CONFIG", "ROUND", "NiuniuConfig", "NiuniuRound"]
