"""A player's history and a round's fairness data, rebuilt from the journal (off the loop)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Query

from qipai.core.protocol import JSON, RecordedAction, Seat
from qipai.fairness import round_key
from qipai.fairness.export import export_round
from qipai.games import registry
from qipai.ledger import Ledger
from qipai.server.deps import Player, ServicesDep
from qipai.server.errors import ApiError
from qipai.server.inputs import Key
from qipai.server.models import HistoryOut, RoundDetailOut, RoundOut
from qipai.tables import games as games_mod

router = APIRouter(prefix="/api", tags=["history"])


def replayed_view(ledger: Ledger, info: Mapping[str, Any], seat: str | None) -> JSON | None:
    """The finished round as `seat` saw it at the end (rebuilt from the journal)."""
    try:
        game = games_mod.get(str(info["game"]))
        config = game.config_type.from_json(info["config"])
        seats = [Seat.from_json(s) for s in info["seats"]]
        actions = [
            RecordedAction(e["seat"], e["payload"]) for e in info["log"] if e["kind"] == "action"
        ]
        # the deal's key: the server seed with the round's client seeds (deal-spec/1)
        key = round_key(ledger.round(str(info["round_id"]), include_seed=True))
        round_ = game.round_type.replay(config, seats, key, actions, info.get("context"))
    except Exception:
        return None
    if not round_.finished:
        return None
    view: JSON = round_.view(seat)
    return view


def shows_seed(game: str) -> bool:
    """Whether players see the game's seeds (`GameSpec.reveal_seed`; Tien Gow's never, even for
    a voided round, whose seed the ledger marks revealed)."""
    return games_mod.get(game).reveal_seed


def round_summary(ledger: Ledger, info: Mapping[str, Any], player: str | None) -> RoundOut:
    seat = next((p["seat"] for p in info["players"] if p["user_id"] == player), None)
    reveal = shows_seed(str(info["game"]))
    return RoundOut.model_validate(
        {
            "round_id": info["round_id"],
            "table_id": info["table_id"],
            "game": info["game"],
            "status": info["status"],
            "opened_at": info["opened_at"],
            "closed_at": info["closed_at"],
            "seat": seat,
            "players": [
                {k: p[k] for k in ("seat", "user_id", "start_balance", "end_balance", "net")}
                for p in info["players"]
            ],
            "commitment": info["seed_commitment"],
            "seed": info["seed"] if reveal else None,
            "seed_policy": "after_deal" if reveal else "operator_only",
            "view": replayed_view(ledger, info, seat) if info["status"] == "settled" else None,
        }
    )


@router.get("/history", response_model=HistoryOut)
async def history(
    svc: ServicesDep, player: Player, limit: Annotated[int, Query(ge=1, le=50)] = 10
) -> HistoryOut:
    """**A signed-in player.** Your last rounds, newest first, each as you saw it at its end
    (never others' hidden cards), with your start/end stack, your net and the fairness data."""

    def work() -> HistoryOut:
        items = svc.ledger.recall(player, limit)
        return HistoryOut(
            rounds=[
                round_summary(svc.ledger, svc.ledger.round(str(item["round_id"])), player)
                for item in items
            ]
        )

    return await svc.db(work)


EXPORT_KEYS = ("format", "deal_spec", "client_seeds", "inputs", "dealt", "tiles")


@router.get("/rounds/{round_id}", response_model=RoundDetailOut)
async def round_detail(round_id: Key, svc: ServicesDep, player: Player) -> RoundDetailOut:
    """**A signed-in player who played in the round** (anyone else gets 404 `unknown_round`, as
    for a round that does not exist; operators read rounds at `GET /api/ops/rounds/{id}`). One
    round's fairness data: the commitment always, the seed once revealed, the round as you saw
    it, and at the top level the `qipai-round/1` export (`format`, `deal_spec`, `client_seeds`, `inputs`, `dealt`,
    `tiles`: docs/fairness.md) — the body saved to a file is what `docs/verify_deal.py` reads."""

    def work() -> RoundDetailOut | None:
        info = svc.adapter.round_info(round_id)
        if info is None or all(p["user_id"] != player for p in info["players"]):
            return None  # not yours: the same answer as no such round (privacy)
        summary = round_summary(svc.ledger, info, player)
        # every registered game describes its deal (`GameSpec.fairness`, checked at
        # registration), so a round that cannot be exported is a fault to see, not to hide;
        # only a game the registry does not know (the tables layer's older test games) has none
        extra: dict[str, Any] = {}
        if str(info["game"]) in registry.available():
            exported = export_round(svc.ledger.round(round_id, include_seed=True), summary.seat)
            extra = {k: exported[k] for k in EXPORT_KEYS if k in exported}
        return RoundDetailOut.model_validate({**summary.model_dump(), **extra})

    found = await svc.db(work)
    if found is None:
        raise ApiError(404, "unknown_round", "no such round", field="round_id")
    return found
