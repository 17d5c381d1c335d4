"""What the operator offers, as players see it before they sit (transparency).

* `GET /api/templates[?game=]` — **anyone**: every active table template with its facts: the pay
  table of every bet (limits, commission, countdowns, base stake), the buy-in range, the bot
  levels, and the exact return to player of every bet for those settings.
* `GET /api/templates/{id}` — **anyone**: one template's facts (its newest version).
* `GET /api/rules/{game}?lang=en|zh[&template=ID]` — **anyone**: the game's rules page for players
  (shipped in the game's package, `rules/<lang>.md`) with the template's settings filled in, and
  the template's facts (pay table, exact returns).
* `GET /api/guide?lang=en|zh` — **anyone**: the player's guide (qipai/server/guide/), its games
  linked to their rules pages in the room.
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
from qipai.authority.templates import TEMPLATE_ID
from qipai.server import player_guide, rules_pages
from qipai.server.deps import Player
from qipai.server.inputs import Key, RowId
from qipai.server.routers.ops import AuthorityDep

router = APIRouter(prefix="/api", tags=["offer"])


@router.get("/templates")
async def offered(authority: AuthorityDep, game: Key | None = None) -> dict[str, Any]:
    """**Anyone.** The tables the operator offers, each with every fact that touches money."""
    return {"templates": await asyncio.to_thread(authority.offer, game)}


@router.get("/templates/{template_id}")
async def offered_one(template_id: Key, authority: AuthorityDep) -> dict[str, Any]:
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
    game: Key,
    authority: AuthorityDep,
    lang: Annotated[str, Query(pattern="^(en|zh)$")] = "en",
    template: Annotated[str | None, Query(pattern=TEMPLATE_ID.pattern)] = None,
) -> dict[str, Any]:
    """**Anyone.** The rules page of `game` in `lang` as players read it in the room
    (`qipai/games/<package>/rules/<lang>.md`, shipped in the package) with the settings of
    `template` filled in (default: the game's first offered template; a game without one: its
    default settings), and that template's `facts` (pay table, limits, buy-in range, exact
    return of every bet) for the page to show beside the text. `markdown` is null for a game
    without a page (`served_lang` null); `served_lang` is the page's language. 404
    `not_found` for an unknown game or template."""
    if game not in games.game_names():
        raise NotFound(f"no game {game!r}", "game")

    def work() -> dict[str, Any]:
        chosen = None
        if template is not None:
            chosen = authority.templates.get(template)
            if chosen.game != game:
                raise NotFound(f"template {template!r} is not a table of {game!r}", "template")
        else:
            offered = authority.templates.active(game)
            chosen = offered[0] if offered else None
        config = dict(
            games.parse_config(game, chosen.config if chosen is not None else {}).to_json()
        )
        text = rules_pages.page(game, lang)
        return {
            "game": game,
            "title": dict(getattr(games.spec(game), "title", {})),
            "lang": lang,
            "served_lang": None if text is None else lang,  # the page's own language
            "markdown": None if text is None else rules_pages.fill(text, config),
            "template": None
            if chosen is None
            else {"id": chosen.id, "name": chosen.name, "version": chosen.version},
            "facts": None if chosen is None else authority.facts(chosen),
            "templates": [
                {"id": t.id, "name": t.name, "version": t.version}
                for t in authority.templates.active(game)
            ],
        }

    return await asyncio.to_thread(work)


class GuidePage(BaseModel):
    """The player's guide in one language, as Markdown (the subset the rules pages use)."""

    lang: str = Field(description="the language asked for and served: `zh` or `en`")
    markdown: str


@router.get("/guide", response_model=GuidePage)
async def guide(lang: Annotated[str, Query(pattern="^(en|zh)$")] = "en") -> GuidePage:
    """**Anyone.** The player's guide in `lang` (shipped in the package, so an installed wheel
    serves it; docs/players.md is written from the same pages): getting started, choosing a
    table, the countdowns, a dropped connection, fairness and money, with the registry's games
    linked to their rules pages (`#/rules/<game>`)."""
    return GuidePage(lang=lang, markdown=await asyncio.to_thread(player_guide.for_room, lang))


class WithdrawalIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    amount: int = Field(gt=0, le=10**12)
    method: str = Field(default="", max_length=24)
    reference: str = Field(default="", max_length=64)


@router.post("/wallet/withdrawals")
async def withdraw(body: WithdrawalIn, authority: AuthorityDep, player: Player) -> dict[str, Any]:
    """**A signed-in player.** Ask to withdraw `amount` from the wallet (with the payment
    `method` and `reference` the cashier pays to): a request an operator approves (`status: pending`; at most 5 open requests). The amount is held at once (out of
    the wallet: it cannot be bet meanwhile) until the request is approved, rejected or
    cancelled."""
    return await asyncio.to_thread(
        authority.money.request, player, "withdrawal", body.amount, body.method, body.reference
    )


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
    request_id: RowId, authority: AuthorityDep, player: Player
) -> dict[str, Any]:
    """**A signed-in player.** Withdraw one of your pending requests."""
    return await asyncio.to_thread(authority.money.cancel, player, request_id)
