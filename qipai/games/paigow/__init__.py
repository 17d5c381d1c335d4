"""Bid-for-banker Pai Gow (抢庄牌九), docs/rules/paigow.md: hands, the two-round game, settlement."""

from qipai.games.paigow.config import PaigowConfig
from qipai.games.paigow.hands import Hand, evaluate, outcome, parse_hand
from qipai.games.paigow.round import PaigowRound

ROUND = PaigowRound
CONFIG = PaigowConfig

__all__ = [
    "CONFIG",
    "ROUND",
    "Hand",
    "PaigowConfig",
    "PaigowRound",
    "evaluate",
    "outcome",
    "parse_hand",
]
