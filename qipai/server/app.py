"""The FastAPI application: HTTP for accounts, lobby, wallet, history and fairness; a WebSocket
for table play (messages in `docs/protocol.md`); the browser client as static files.

Every request acts as the player of its session token and nobody else: a table action is always
taken for the seat the token's player sits in.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, HTTPException, Query, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.requests import Request
from starlette.websockets import WebSocketState

from qipai.core.errors import GameError
from qipai.core.protocol import JSON, RecordedAction, Seat
from qipai.ledger import Ledger, LedgerError
from qipai.server.room import Connection, Room
from qipai.server.store import AuthError, RoomStore
from qipai.tables import games as games_mod
from qipai.tables.ledger_adapter import LedgerAdapter
from qipai.tables.ports import Clock, SystemClock
from qipai.tables.table import Timing

WEB = Path(__file__).resolve().parent.parent / "web"
MAX_DEPOSIT = 1_000_000
MAX_MESSAGE = 16_384


class Credentials(BaseModel):
    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=200)


class DepositBody(BaseModel):
    amount: int = Field(gt=0, le=MAX_DEPOSIT)
    key: str | None = Field(default=None, max_length=64)


class CreateTableBody(BaseModel):
    game: str
    name: str = Field(default="", max_length=40)
    config: dict[str, Any] = Field(default_factory=dict)


class SitBody(BaseModel):
    buy_in: int = Field(ge=0, le=100_000_000)
    seat: str | None = None


class BotsBody(BaseModel):
    level: str | None = None
    count: int | None = Field(default=None, ge=1, le=10)


class AutomatchBody(BaseModel):
    game: str
    buy_in: int = Field(gt=0, le=100_000_000)


def current_player(request: Request, authorization: Annotated[str | None, Header()] = None) -> str:
    """The player of the request's session token (401 without a valid one)."""
    token = (authorization or "").removeprefix("Bearer ").strip()
    store: RoomStore = request.app.state.store
    player = store.session_user(token)
    if player is None:
        raise HTTPException(401, {"code": "auth_required", "message": "sign in first"})
    return player


Player = Annotated[str, Depends(current_player)]


def create_app(
    db: str | None = None,
    *,
    clock: Clock | None = None,
    timing: Timing | None = None,
) -> FastAPI:
    """Build the app over the database at `db` (SQLite path or URL; None = the default file)."""
    ledger = Ledger.open(db)
    store = RoomStore(ledger.engine)
    adapter = LedgerAdapter(ledger, layouts=store)  # layouts saved with each settlement
    room = Room(adapter, store, clock or SystemClock(), timing)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        room.recover()
        room.start()
        # off the event loop: the first Hold'em hint must not stall every table for a second
        warming = asyncio.create_task(asyncio.to_thread(games_mod.warm_up))
        yield
        await warming
        await room.stop()
        ledger.close()

    app = FastAPI(
        title="qipai card room",
        version="0.1.0",
        description="Lobby, accounts, wallet, history and fairness over HTTP; table play over "
        "the WebSocket `/ws` (see docs/protocol.md).",
        lifespan=lifespan,
    )
    app.state.room = room
    app.state.store = store
    app.state.ledger = ledger

    @app.exception_handler(GameError)
    async def game_error(_: Request, exc: GameError) -> JSONResponse:
        status = 401 if isinstance(exc, AuthError) else 409 if exc.code == "conflict" else 400
        return JSONResponse({"error": exc.to_json()}, status_code=status)

    @app.exception_handler(LedgerError)
    async def ledger_error(_: Request, exc: LedgerError) -> JSONResponse:
        code = type(exc).__name__
        return JSONResponse({"error": {"code": code, "message": str(exc)}}, status_code=400)

    # ----- accounts -------------------------------------------------------------------------
    @app.post("/api/signup", tags=["accounts"])
    async def signup(body: Credentials) -> JSON:
        """Create an account (username 3-24 of letters, digits, _; password 6+ characters)."""
        store.create_user(body.username, body.password)
        adapter.ensure_user(body.username, body.username)
        return {"player": body.username, "token": store.new_session(body.username)}

    @app.post("/api/login", tags=["accounts"])
    async def login(body: Credentials) -> JSON:
        if not store.check_password(body.username, body.password):
            raise AuthError("wrong username or password")
        return {"player": body.username, "token": store.new_session(body.username)}

    @app.post("/api/logout", tags=["accounts"])
    async def logout(player: Player, authorization: Annotated[str | None, Header()] = None) -> JSON:
        store.end_session((authorization or "").removeprefix("Bearer ").strip())
        return {"ok": True}

    @app.get("/api/me", tags=["accounts"])
    async def me(player: Player) -> JSON:
        seated = []
        for table in room.tables.values():
            seat = table.seat_of(player)
            if seat is not None:
                seated.append(
                    {
                        "table_id": table.id,
                        "game": table.game.name,
                        "seat": seat,
                        "stack": table._stack(player),
                    }
                )
        return {"player": player, "wallet": adapter.wallet(player), "tables": seated}

    # ----- wallet ---------------------------------------------------------------------------
    @app.get("/api/wallet", tags=["wallet"])
    async def wallet(player: Player) -> JSON:
        return {
            "wallet": adapter.wallet(player),
            "statement": ledger.statement(f"wallet:{player}", limit=20),
        }

    @app.post("/api/wallet/deposit", tags=["wallet"])
    async def deposit(body: DepositBody, player: Player) -> JSON:
        """A demo deposit (play money), at most 1,000,000 minor units at a time."""
        adapter.deposit(player, body.amount, body.key or uuid.uuid4().hex)
        return {"wallet": adapter.wallet(player)}

    # ----- lobby ----------------------------------------------------------------------------
    @app.get("/api/games", tags=["lobby"])
    async def list_games() -> JSON:
        out = []
        for info in games_mod.available().values():
            out.append(
                {
                    "game": info.name,
                    "title": dict(info.title),
                    "seats": list(info.seat_ids),
                    "min_players": info.min_players,
                    "bot_levels": list(info.bot_levels),
                    "default_buy_in": info.default_buy_in,
                    "tables": sum(1 for t in room.tables.values() if t.game.name == info.name),
                }
            )
        return {"games": out}

    @app.get("/api/tables", tags=["lobby"])
    async def list_tables(game: str | None = None) -> JSON:
        tables = [t.public_info() for t in room.tables.values() if game in (None, t.game.name)]
        return {"tables": tables}

    @app.post("/api/tables", tags=["lobby"])
    async def create_table(body: CreateTableBody, player: Player) -> JSON:
        table = room.create_table(body.game, body.name, body.config)
        return table.public_info()

    @app.get("/api/tables/{table_id}", tags=["lobby"])
    async def get_table(table_id: str) -> JSON:
        return room.table(table_id).public_info()

    @app.post("/api/tables/{table_id}/sit", tags=["lobby"])
    async def sit(table_id: str, body: SitBody, player: Player) -> JSON:
        table = room.table(table_id)
        seat = table.sit(player, player, body.buy_in, body.seat)
        room.wake(table_id)
        return {
            "table_id": table_id,
            "seat": seat,
            "stack": table._stack(player),
            "wallet": adapter.wallet(player),
        }

    @app.post("/api/tables/{table_id}/leave", tags=["lobby"])
    async def leave(table_id: str, player: Player) -> JSON:
        table = room.table(table_id)
        cashed = table.leave(player)
        room.wake(table_id)
        return {
            "table_id": table_id,
            "cashed_out": cashed,
            "after_round": cashed is None,
            "wallet": adapter.wallet(player),
        }

    @app.post("/api/tables/{table_id}/bots", tags=["lobby"])
    async def add_bots(table_id: str, body: BotsBody, player: Player) -> JSON:
        """Fill empty seats with bots (`count`, default all) — only a player seated there may."""
        table = room.table(table_id)
        if table.seat_of(player) is None:
            raise HTTPException(403, {"code": "not_seated", "message": "sit down first"})
        seats = []
        for _ in range(body.count or len(table.free_seats())):
            if not table.free_seats():
                break
            seats.append(table.add_bot(body.level))
        room.wake(table_id)
        return {"table_id": table_id, "bots": seats}

    @app.delete("/api/tables/{table_id}/bots/{seat}", tags=["lobby"])
    async def remove_bot(table_id: str, seat: str, player: Player) -> JSON:
        table = room.table(table_id)
        if table.seat_of(player) is None:
            raise HTTPException(403, {"code": "not_seated", "message": "sit down first"})
        table.remove_bot(seat)
        return {"ok": True}

    @app.post("/api/automatch", tags=["lobby"])
    async def automatch(body: AutomatchBody, player: Player) -> JSON:
        """自动配桌: a seat at the liveliest table of the game (a new one with bots if needed)."""
        table = room.automatch(player, player, body.game, body.buy_in)
        return {"table_id": table.id, "seat": table.seat_of(player), "table": table.public_info()}

    # ----- history and fairness -------------------------------------------------------------
    def _replayed_view(info: Mapping[str, Any], seat: str | None) -> JSON | None:
        """The finished round as `seat` saw it at the end (rebuilt from the journal)."""
        try:
            game = games_mod.get(str(info["game"]))
            config = game.config_type.from_json(info["config"])
            seats = [Seat.from_json(s) for s in info["seats"]]
            actions = [
                RecordedAction(e["seat"], e["payload"])
                for e in info["log"]
                if e["kind"] == "action"
            ]
            seed = bytes.fromhex(ledger.round(str(info["round_id"]), include_seed=True)["seed"])
            round_ = game.round_type.replay(config, seats, seed, actions, info.get("context"))
        except Exception:
            return None
        if not round_.finished:
            return None
        view: JSON = round_.view(seat)
        return view

    def _shows_seed(game: str) -> bool:
        """Tien Gow's seeds are never shown to players (GameInfo.reveal_seed), even for a
        voided round, whose seed the ledger marks revealed."""
        try:
            return games_mod.get(game).reveal_seed
        except GameError:
            return True

    def _round_summary(info: Mapping[str, Any], player: str | None) -> JSON:
        seat = next((p["seat"] for p in info["players"] if p["user_id"] == player), None)
        shows_seed = _shows_seed(str(info["game"]))
        return {
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
            "seed": info["seed"] if shows_seed else None,
            "seed_policy": "after_deal" if shows_seed else "operator_only",
            "view": _replayed_view(info, seat) if info["status"] == "settled" else None,
        }

    @app.get("/api/history", tags=["history"])
    async def history(player: Player, limit: Annotated[int, Query(ge=1, le=50)] = 10) -> JSON:
        """Your last rounds, newest first, each as you saw it at its end (never others' hidden
        cards), with your start/end stack, your net and the fairness data."""
        items = ledger.recall(player, limit)
        out = []
        for item in items:
            info = ledger.round(str(item["round_id"]))
            out.append(_round_summary(info, player))
        return {"rounds": out}

    @app.get("/api/rounds/{round_id}", tags=["history"])
    async def round_detail(round_id: str, player: Player) -> JSON:
        """One round's fairness data: the commitment always, the seed once revealed, and the
        round as you saw it (a spectator's view if you were not in it)."""
        info = adapter.round_info(round_id)
        if info is None:
            raise HTTPException(404, {"code": "unknown_round", "message": "no such round"})
        return _round_summary(info, player)

    # ----- table play -----------------------------------------------------------------------
    @app.websocket("/ws")
    async def play(ws: WebSocket, token: str = "") -> None:
        player = store.session_user(token)
        if player is None:
            await ws.close(code=4401, reason="sign in first")
            return
        await ws.accept()
        conn = Connection(player)
        room.attach(conn)
        conn.push({"type": "hello", "player": player, "protocol": 1})
        sender = asyncio.create_task(_pump(ws, conn))
        try:
            while True:
                text = await ws.receive_text()
                reply = _handle(room, conn, text)
                if reply is not None:
                    conn.push(reply)
        except WebSocketDisconnect:
            pass
        except RuntimeError:
            # the sender found the socket closed first: Starlette then refuses to receive
            # (WebSocketDisconnected, a RuntimeError) — the same goodbye, anything else is a bug
            if ws.application_state != WebSocketState.DISCONNECTED:
                raise
        finally:
            sender.cancel()
            room.detach(conn)

    if WEB.is_dir():
        app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    return app


async def _pump(ws: WebSocket, conn: Connection) -> None:
    with contextlib.suppress(Exception):
        while True:
            message = await conn.queue.get()
            await ws.send_text(json.dumps(message, ensure_ascii=False, separators=(",", ":")))


def _error(code: str, message: str, **extra: Any) -> JSON:
    return {"type": "error", "code": code, "message": message, **extra}


def _handle(room: Room, conn: Connection, text: str) -> JSON | None:
    """One client message → at most one reply (typed errors change nothing)."""
    if len(text) > MAX_MESSAGE:
        return _error("invalid_message", "message too long")
    try:
        msg = json.loads(text)
    except json.JSONDecodeError:
        return _error("invalid_message", "not JSON")
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        return _error("invalid_message", "a message is an object with a string 'type'")
    kind = msg["type"]
    client_id = msg.get("client_id")
    if client_id is not None and (not isinstance(client_id, str) or not 1 <= len(client_id) <= 64):
        return _error("invalid_message", "client_id is a string of 1-64 characters")
    if kind == "ping":
        return {"type": "pong", "client_id": client_id}
    table_id = msg.get("table_id")
    if not isinstance(table_id, str) or table_id not in room.tables:
        return _error("unknown_table", f"no table {table_id!r}", client_id=client_id)
    if kind == "subscribe":
        room.subscribe(conn, table_id)
        return None
    if kind == "unsubscribe":
        room.unsubscribe(conn, table_id)
        return {"type": "unsubscribed", "table_id": table_id}
    if kind == "action":
        action = msg.get("action")
        if not isinstance(action, dict):
            return _error("invalid_message", "'action' must be an object", client_id=client_id)
        if client_id is None:
            return _error("invalid_message", "every action carries a client_id")
        reply = room.tables[table_id].act(conn.player, action, client_id)
        room.wake(table_id)
        return {**reply, "table_id": table_id}
    return _error("invalid_message", f"unknown message type {kind!r}", client_id=client_id)
