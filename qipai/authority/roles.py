"""The role model (ARCHITECTURE.md, Authority).

* `player` — a card-room account (player session tokens): plays, picks among the operator's table
  templates, sees only its own rounds. Never a setting that touches money.
* `operator` — runs the room through `/api/ops/…` (operator session tokens, password + TOTP):
  templates, players, tables, rounds, ledger adjustments, money requests; every action logged.
* `auditor` — an operator who may read everything an operator may read and change nothing.

The two kinds of token never mix: a player token on `/api/ops/…` is refused with 403, an operator
token is no player session.
"""

from __future__ import annotations

from typing import Final, Literal

Role = Literal["player", "operator", "auditor"]
ROLES: Final[tuple[Role, ...]] = ("player", "operator", "auditor")
OPERATOR_ROLES: Final[tuple[str, ...]] = ("operator", "auditor")
WRITE_ROLES: Final[tuple[str, ...]] = ("operator",)
