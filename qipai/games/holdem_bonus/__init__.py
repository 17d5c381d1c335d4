"""Texas Hold'em Bonus, Singapore variant (德州扑克 新加坡), docs/rules/holdem-bonus.md.

`ROUND` is the round state machine and `CONFIG` the table settings (see `qipai/games/__init__.py`).
The hand ranking is `qipai.poker`.
"""

from __future__ import annotations

from qipai.games.holdem_bonus.config import HoldemBonusConfig
from qipai.games.holdem_bonus.round import HoldemBonusRound

ROUND = HoldemBonusRound
CONFIG = HoldemBonusConfig

__all__ = ["CONFIG", "ROUND", "HoldemBonusConfig", "HoldemBonusRound"]
