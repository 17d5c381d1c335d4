"""Pok Deng (博丁), classic and banker-player modes (docs/rules/pokdeng.md).

`ROUND` is the round state machine and `CONFIG` the table settings (see `qipai/games/__init__.py`).
"""

from __future__ import annotations

from qipai.games.pokdeng.config import PokDengConfig
from qipai.games.pokdeng.round import PokDengRound, replay_shoe

ROUND = PokDengRound
CONFIG = PokDengConfig

__all__ = ["CONFIG", "ROUND", "PokDengConfig", "PokDengRound", "replay_shoe"]
