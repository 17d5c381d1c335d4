"""The player's wallet: balance, statement, demo deposits."""

from __future__ import annotations

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
    """**A signed-in player.** With demo money on (the server's `demo` setting): play money
    now, at most 1,000,000 minor units at a time and the daily limit per player (429
    `demo_limit`); `key` makes a retry the same deposit. With demo money off: a deposit request
    an operator approves (`status: pending`)."""

    def work() -> DepositOut:
        done = svc.authority.money.deposit(
            player, body.amount, body.key, body.method, body.reference
        )
        request = done.get("request") or {}
        return DepositOut(
            wallet=svc.adapter.wallet(player),
            status=done["status"],
            request_id=request.get("id"),
            demo_left_today=done.get("demo_left_today"),
        )

    return await svc.db(work)
