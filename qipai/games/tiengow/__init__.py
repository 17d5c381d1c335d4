"""Tien Gow (打天九, docs/rules/tiengow.md): the trick-taking game on the 32 Chinese dominoes."""

from qipai.games.tiengow.config import TienGowConfig
from qipai.games.tiengow.round import TienGowRound

ROUND = TienGowRound
CONFIG = TienGowConfig

__all__ = ["CONFIG", "ROUND", "TienGowConfig", "TienGowRound"]
