"""The lobby: games, tables, seats, bots and automatch."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Header

from qipai.authority import Authority
from qipai.authority import lobby as authority_lobby
from qipai.cluster import directory
from qipai.core.spec import GameSpec
from qipai.server.deps import Player, ServicesDep, bearer
from qipai.server.errors import ApiError
from qipai.server.inputs import Key
from qipai.server.models import (
    AutomatchOut,
    BotsIn,
    BotsOut,
    ClientSeedIn,
    ClientSeedOut,
    GameOut,
    GamesOut,
    JSONObject,
    LeftOut,
    Ok,
    SatOut,
    SeedNote,
    SitIn,
    TablesOut,
)
from qipai.server.play_gate import Playing
from qipai.tables import games as games_mod
from qipai.tables.table import MOVED_MESSAGE, Table

router = APIRouter(prefix="/api", tags=["lobby"])


def _known(svc: ServicesDep, table_id: str) -> None:
    if table_id not in svc.room.tables:
        if table_id in svc.room.moved:  # this host lost the table's lease just now
            raise ApiError(409, "table_moved", MOVED_MESSAGE, field="table_id")
        raise ApiError(404, "unknown_table", f"no table {table_id!r}", field="table_id")


def _authority(svc: ServicesDep) -> Authority:
    found: Authority = svc.authority
    return found


async def maybe_player(
    svc: ServicesDep, authorization: Annotated[str | None, Header()] = None
) -> str | None:
    """The signed-in player, or None for an anonymous caller (the lobby is public)."""
    token = bearer(authorization)
    session = await svc.db(svc.store.session, token) if token else None
    return None if session is None else str(session.username)


MaybePlayer = Annotated[str | None, Depends(maybe_player)]


@router.get("/games", response_model=GamesOut)
async def list_games(svc: ServicesDep) -> GamesOut:
    """**Anyone.** The games of this room: titles (zh/en), seats, minimum players, bot levels,
    default buy-in, how many open tables each has (on every table host of the room), and the operator's templates of it with their
    facts (pay table, limits, buy-in range, exact return of every bet)."""
    authority = _authority(svc)
    offer = await svc.offer.get(authority.templates.generation, authority.offer)
    by_game: dict[str, list[JSONObject]] = {}
    for facts in offer:
        by_game.setdefault(str(facts["game"]), []).append(facts)
    counts: dict[str, int] = {}
    for table in list(svc.room.tables.values()):
        counts[table.game.name] = counts.get(table.game.name, 0) + 1
    if svc.cluster is not None:  # and every other host's open tables (the table directory)
        for other in await svc.db(directory.elsewhere, svc.ledger.engine, set(svc.room.tables)):
            counts[other.game] = counts.get(other.game, 0) + 1
    return GamesOut(
        games=[
            GameOut(
                game=info.name,
                title=dict(info.title),
                seats=list(info.seat_ids),
                min_players=info.min_players,
                bot_levels=list(info.bot_levels),
                default_buy_in=info.default_buy_in,
                tables=counts.get(info.name, 0),
                templates=by_game.get(info.name, []),
                **(info.web_assets() if isinstance(info, GameSpec) else {}),
            )
            for info in games_mod.available().values()
        ]
    )


RECENT = 8
"""How many of a table's last rounds its lobby tile shows."""


def recent(table: Table) -> JSONObject:
    """What a lobby tile shows of a table's last rounds: each round's number and its seats'
    nets, and the game's road where it keeps one (Pok Deng's, the current shoe's, as the
    round's view carries it: qipai/games/pokdeng/road.py). Public facts only: the nets are
    in every watcher's state message already."""
    results = [
        {"number": r.get("number"), "nets": dict(r.get("nets") or {})}
        for r in list(table.results)[-RECENT:]
    ]
    context = table.units.carry_context
    road = context.get("road") if isinstance(context, dict) else None
    return {"results": results, "road": road if isinstance(road, str) else None}


@router.get("/tables", response_model=TablesOut)
async def list_tables(svc: ServicesDep, player: MaybePlayer, game: Key | None = None) -> TablesOut:
    """**Anyone.** Every table's public facts (seats, stacks, status, round number, terms,
    `facts`: its template's pay table, limits, buy-in range and exact returns, and `recent`: its
    last rounds' nets and its road), or only those of `game`. A private table is listed only
    to its owner and the players seated there."""
    tables = [
        t
        for t in list(svc.room.tables.values())
        if game in (None, t.game.name) and authority_lobby.visible(t, player)
    ]
    authority = _authority(svc)
    return TablesOut(
        tables=[
            {**authority_lobby.with_facts(authority, t, t.public_info()), "recent": recent(t)}
            for t in tables
        ]
    )


def _opening_allowed(svc: ServicesDep, player: str) -> None:
    """Refuse (429) a player over `QIPAI_TABLE_OPEN_RATE`, or anyone while the room is over
    `QIPAI_ROOM_TABLE_OPEN_RATE`, before any database work: a flood of openings queues
    nowhere (docs/operators.md, 'Limits at the edge')."""
    for name, key, what in (
        ("table_open", player, "you opened too many tables"),
        ("room_table_open", "room", "the room is opening too many tables"),
    ):
        if not svc.rates.hit(name, key):
            svc.metrics.refused.labels(name).inc()
            wait = svc.rates.retry_after(name, key)
            raise ApiError(
                429,
                "rate_limited",
                f"{what}: try again in {wait} s",
                headers={"Retry-After": str(wait)},
            )


@router.post("/tables", response_model=JSONObject)
async def create_table(body: JSONObject, svc: ServicesDep, player: Playing) -> JSONObject:
    """**A signed-in player.** Open a table of an operator's template: `{"template": ID,
    "name"?, "private"?}`. Settings are never a player's: a body with `config` (or `settings`,
    `limits`, …) is refused (400 `settings_not_allowed`). At most `max_open_tables` tables
    opened by one player are open at once (429 `quota_exceeded`), and openings are refused
    (429 `rate_limited`, before any work) over `QIPAI_TABLE_OPEN_RATE` per player or
    `QIPAI_ROOM_TABLE_OPEN_RATE` for the room. Answers the table's public facts with its
    `facts`."""
    _opening_allowed(svc, player)
    authority = _authority(svc)
    table = await svc.db(authority_lobby.open_table, authority, svc.room, player, body)
    return authority_lobby.with_facts(authority, table, table.public_info())


@router.get("/tables/{table_id}", response_model=JSONObject)
async def get_table(table_id: Key, svc: ServicesDep) -> JSONObject:
    """**Anyone.** One table's public facts, with its template's `facts` (a private table's
    id is its invitation)."""
    _known(svc, table_id)
    table = svc.room.table(table_id)
    return authority_lobby.with_facts(_authority(svc), table, table.public_info())


def _seed_note(table: Table, player: str) -> SeedNote | None:
    note = table.client_seed_note(player)
    return None if note is None else SeedNote.model_validate(note)


@router.post("/tables/{table_id}/sit", response_model=SatOut)
async def sit(table_id: Key, body: SitIn, svc: ServicesDep, player: Playing) -> SatOut:
    """**A signed-in player.** Sit down (one seat per player per table): `buy_in` moves from
    the wallet to the table stack. `client_seed` (docs/fairness.md): the player's client seed
    for the deal units that start while they sit (the browser makes a random one); the
    answer's `client_seed` names the commitment it meets."""
    _known(svc, table_id)

    def work(table: Table) -> SatOut:
        seat = table.sit(player, player, body.buy_in, body.seat, client_seed=body.client_seed)
        return SatOut(
            table_id=table_id,
            seat=seat,
            stack=table.held_stack(player),
            wallet=svc.adapter.wallet(player),
            client_seed=_seed_note(table, player),
        )

    return await svc.at_table(table_id, work)


@router.post("/tables/{table_id}/client_seed", response_model=ClientSeedOut)
async def set_client_seed(
    table_id: Key, body: ClientSeedIn, svc: ServicesDep, player: Player
) -> ClientSeedOut:
    """**A signed-in player seated there.** Change your client seed (docs/fairness.md): 1–64
    printable ASCII characters without spaces. It enters the next deal unit that starts while
    you sit; the running unit keeps the client seeds it started with. The reply names the
    `commitment` of the unit it enters; send the `commitment` you saw to have the seed refused
    (400 `commitment_moved`) if that unit began meanwhile. 400 `client_seeds_off` where the
    table's client seeds are off, 400 `not_seated` if you do not sit there."""
    _known(svc, table_id)

    def work(table: Table) -> ClientSeedOut:
        reply = table.set_client_seed(player, body.client_seed, body.commitment)
        return ClientSeedOut(
            table_id=table_id,
            client_seed=str(reply["client_seed"]),
            applies=str(reply["applies"]),
            commitment=str(reply["commitment"]),
        )

    return await svc.at_table(table_id, work)


@router.post("/tables/{table_id}/leave", response_model=LeftOut)
async def leave(table_id: Key, svc: ServicesDep, player: Player) -> LeftOut:
    """**A signed-in player** seated there. Stand up: cashes out now, or after the running
    round if you are in it (`after_round`)."""
    _known(svc, table_id)

    def work(table: Table) -> LeftOut:
        cashed = table.leave(player)
        return LeftOut(
            table_id=table_id,
            cashed_out=cashed,
            after_round=cashed is None,
            wallet=svc.adapter.wallet(player),
        )

    return await svc.at_table(table_id, work)


@router.post("/tables/{table_id}/bots", response_model=BotsOut)
async def add_bots(table_id: Key, body: BotsIn, svc: ServicesDep, player: Player) -> BotsOut:
    """**A signed-in player seated at the table.** Fill empty seats with bots (`count`,
    default all)."""
    _known(svc, table_id)

    def work(table: Table) -> BotsOut:
        if table.seating.seat_of(player) is None:
            raise ApiError(403, "not_seated", "sit down first")
        seats = []
        for _ in range(body.count or len(table.seating.free_seats())):
            if not table.seating.free_seats():
                break
            seats.append(table.add_bot(body.level))
        return BotsOut(table_id=table_id, bots=seats)

    return await svc.at_table(table_id, work)


@router.delete("/tables/{table_id}/bots/{seat}", response_model=Ok)
async def remove_bot(table_id: Key, seat: Key, svc: ServicesDep, player: Player) -> Ok:
    """**A signed-in player seated at the table.** Remove the bot in `seat` (after the round it
    plays)."""
    _known(svc, table_id)

    def work(table: Table) -> Ok:
        if table.seating.seat_of(player) is None:
            raise ApiError(403, "not_seated", "sit down first")
        table.remove_bot(seat)
        return Ok()

    return await svc.at_table(table_id, work)


@router.post("/automatch", response_model=AutomatchOut)
async def automatch(body: JSONObject, svc: ServicesDep, player: Playing) -> AutomatchOut:
    """**A signed-in player.** 自动配桌: `{"template": ID | "game": G, "buy_in"}` — a seat at
    the liveliest table of that template (a game: its first offered template) with a free
    seat — one with people first, else one waiting with bots alone — or a new table with bots.
    A wallet below the template's minimum buy-in is refused (`insufficient_funds`) before any
    table is joined or opened. Settings in the body are refused (`settings_not_allowed`).
    The reply's `table.facts` shows the pay table and exact returns of where you sit.
    `client_seed` (docs/fairness.md) as for sitting down; on a table opened for you it skips
    the table's first unit (`client_seed.after_commitment`) and enters the next."""
    authority = _authority(svc)

    def seat_and_describe() -> AutomatchOut:
        # the reply is built in the seating thread too: `public_info` takes the table's lock,
        # which the table holds while its own journal write commits (~0.1 s under load), and
        # on the event loop that stalled every socket (docs/scaling.md, "Seating")
        table = authority_lobby.automatch(authority, svc.room, player, body)
        return AutomatchOut(
            table_id=table.id,
            seat=table.seating.seat_of(player),
            table=authority_lobby.with_facts(authority, table, table.public_info()),
            client_seed=_seed_note(table, player),
        )

    return await svc.seat(seat_and_describe)
