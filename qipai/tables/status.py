"""A table's status, as the lobby, the players and the operators see it.

* `playing` — a round is running, or the next one will start by itself;
* `waiting` — the table cannot start a round, and `reason` says what it waits for
  ("2 of 4 players", "a player at the table", …) in English, `detail` the same as data a client
  translates (`{"code": "players", "n": 2, "of": 4}`, `{"code": "players_away", …, "away": 1}`,
  `{"code": "need_human"}`);
* `suspended` — the table stopped because something failed (or an operator stopped it); `reason`
  says what. Its running round was ended by the interrupted-game policy (`interrupt.py`); players
  may stand up; an operator may resume or close it;
* `closed` — closed for good by an operator: every seat was stood up and cashed out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from qipai.core.protocol import JSON

State = Literal["playing", "waiting", "suspended", "closed"]


@dataclass(frozen=True)
class TableStatus:
    state: State
    reason: str | None = None
    detail: JSON | None = None

    def to_json(self) -> JSON:
        return {"state": self.state, "reason": self.reason, "detail": self.detail}


PLAYING = TableStatus("playing")
CLOSED = TableStatus("closed")


def waiting(reason: str, detail: JSON | None = None) -> TableStatus:
    return TableStatus("waiting", reason, detail)


def suspended(reason: str) -> TableStatus:
    return TableStatus("suspended", reason)


__all__ = ["CLOSED", "PLAYING", "State", "TableStatus", "suspended", "waiting"]
