"""Who may play (docs/operators.md "Locking a player", "Money controls"): a player under any
lock — withdrawals-only included, which still signs in — opens, joins and automatches no
table (403 `account_locked`, naming the lock's kind). A dependency of the lobby's routes that
seat a player; the table socket refuses such a player as well (`routers/ws.py`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from qipai.server.deps import Player, ServicesDep


async def playing(svc: ServicesDep, player: Player) -> str:
    if svc.authority is not None:
        await svc.db(svc.authority.check_play, player)
    return player


Playing = Annotated[str, Depends(playing)]
