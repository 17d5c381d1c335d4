"""A player's own money limits (docs/operators.md "Money controls"; docs/players.md):

* `GET /api/wallet/limits` — **a signed-in player**: every limit, the player's own, the
  operator's, a raise waiting for its cooling period, and the one that applies;
* `PUT /api/wallet/limits` — **a signed-in player**: set one (`kind`, `value`; null: none). A
  lower limit applies at once; a higher one (or none) only after the room's cooling period.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from qipai.server.deps import Player
from qipai.server.routers.ops import AuthorityDep

router = APIRouter(prefix="/api/wallet", tags=["wallet"])


@router.get("/limits")
async def my_limits(authority: AuthorityDep, player: Player) -> dict[str, Any]:
    """**A signed-in player.** Your money limits."""
    return {"limits": await asyncio.to_thread(authority.limits.of, player)}


@router.put("/limits")
async def set_my_limit(
    body: dict[str, Any], authority: AuthorityDep, player: Player
) -> dict[str, Any]:
    """**A signed-in player.** Set one of your limits: lowered at once, raised after the
    cooling period."""
    found = await asyncio.to_thread(authority.limits.set_by_player, player, body)
    return {"kind": body.get("kind"), "limit": found}
