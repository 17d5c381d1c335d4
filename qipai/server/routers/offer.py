"""What the operator offers, as players see it before they sit (transparency).

* `GET /api/templates[?game=]` — **anyone**: every active table template with its facts: the pay
  table of every bet (limits, commission, countdowns, base stake), the buy-in range, the bot
  levels, and the exact return to player of every bet for those settings.
* `GET /api/templates/{id}` — **anyone**: one template's facts (its newest version).
* `GET /api/rules/{game}?lang=en|zh` — **anyone**: the game's rules page (`GameSpec.rules_page`:
  the game folder's rules/, or the shipped docs/rules/<game>.md)
  and a structured summary (title, seats, the templates offered).
* `POST /api/wallet/withdrawals`, `GET /api/wallet/requests`, `POST /api/wallet/requests/{id}/
  cancel` — **a signed-in player**: money requests an operator approves.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from qipai.authority import games
from qipai.authority.errors import NotFound
from qipai.server.deps import Player
from qipai.server.routers.ops import AuthorityDep

router = APIRouter(prefix="/api", tags=["offer"])


@router.get("/templates")
async def offered(authority: AuthorityDep, game: str | None = None) -> dict[str, Any]:
    """**Anyone.** The tables the operator offers, each with every fact that touches money."""
    return {"templates": await asyncio.to_thread(authority.offer, game)}


@router.get("/templates/{template_id}")
async def offered_one(template_id: str, authority: AuthorityDep) -> dict[str, Any]:
    """**Anyone.** One template's facts (a retired one says `status: retired`)."""

    def work() -> dict[str, Any]:
        return authority.facts(authority.templates.get(template_id))

    return await asyncio.to_thread(work)


def rules_text(game: str, lang: str) -> tuple[str, str] | None:
    """(markdown, language served) of a game's rules page, or None if it has none."""
    from qipai.games import registry

    found = registry.get(game).rules_page(lang)
    if found is None:
        return None
    path, served = found
    return path.read_text(encoding="utf-8"), served


@router.get("/rules/{game}")
async def rules(
    game: str,
    authority: AuthorityDep,
    lang: Annotated[str, Query(pattern="^(en|zh)$")] = "en",
) -> dict[str, Any]:
    """**Anyone.** The rules of `game` as markdown (`lang` served may be `en` where no Chinese
    page exists: `served_lang` says), with the game's title and the templates offered."""
    if game not in games.game_names():
        raise NotFound(f"no game {game!r}", "game")
    found = await asyncio.to_thread(rules_text, game, lang)
    spec = games.spec(game)
    return {
        "game": game,
        "title": dict(getattr(spec, "title", {})),
        "lang": lang,
        "served_lang": found[1] if found else None,
        "markdown": found[0] if found else None,
        "templates": [
            {"id": t.id, "name": t.name, "version": t.version}
            for t in authority.templates.active(game)
        ],
    }


# ----- the player's money requests (demo money off) ------------------------------------------
class WithdrawalIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    amount: int = Field(gt=0, le=10**12)


@router.post("/wallet/withdrawals")
async def withdraw(body: WithdrawalIn, authority: AuthorityDep, player: Player) -> dict[str, Any]:
    """**A signed-in player.** Ask to withdraw `amount` from the wallet: a request an operator
    approves (`status: pending`; at most 5 open requests). The amount is held at once (out of
    the wallet: it cannot be bet meanwhile) until the request is approved, rejected or
    cancelled."""
    return await asyncio.to_thread(authority.money.request, player, "withdrawal", body.amount)


@router.get("/wallet/requests")
async def my_requests(authority: AuthorityDep, player: Player) -> dict[str, Any]:
    """**A signed-in player.** Your deposit and withdrawal requests, newest first, and `held`:
    what your pending withdrawals hold out of the wallet (released if cancelled or rejected)."""

    def read() -> dict[str, Any]:
        found = authority.money.requests(player=player, limit=50)
        return {"requests": found, "held": authority.money.held(player)}

    return await asyncio.to_thread(read)


@router.post("/wallet/requests/{request_id}/cancel")
async def cancel_request(
    request_id: int, authority: AuthorityDep, player: Player
) -> dict[str, Any]:
    """**A signed-in player.** Withdraw one of your pending requests."""
    return await asyncio.to_thread(authority.money.cancel, player, request_id)
