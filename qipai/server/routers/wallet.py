"""The player's wallet: balance, statement, demo deposits."""

from __future__ import annotations

import uuid

from fastapi import APIRouter

from qipai.server.deps import Player, ServicesDep
from qipai.server.models import DepositIn, DepositOut, WalletOut

router = APIRouter(prefix="/api/wallet", tags=["wallet"])


@router.get("", response_model=WalletOut)
async def wallet(svc: ServicesDep, player: Player) -> WalletOut:
    """**A signed-in player.** Your wallet balance and its last 20 ledger entries."""

    def read() -> WalletOut:
        return WalletOut(
            wallet=svc.adapter.wallet(player),
            statement=svc.ledger.statement(f"wallet:{player}", limit=20),
        )

    return await svc.db(read)


@router.post("/deposit", response_model=DepositOut)
async def deposit(body: DepositIn, svc: ServicesDep, player: Player) -> DepositOut:
    """**A signed-in player.** A demo deposit (play money), at most 1,000,000 minor units at a
    time; `key` makes a retry idempotent."""

    def work() -> DepositOut:
        svc.adapter.deposit(player, body.amount, body.key or uuid.uuid4().hex)
        return DepositOut(wallet=svc.adapter.wallet(player))

    return await svc.db(work)
