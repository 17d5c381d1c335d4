"""The operator API, `/api/ops/…` (docs/protocol.md "Operator API").

Who may call what: `POST /api/ops/login` — **anyone** (an operator's name, password and TOTP
code); password change and TOTP enrolment — **any operator in a setup session** (the first
sign-in with the one-time password) or a full one; every other route — the roles its row of
`qipai.authority.roles.ROUTES` names (docs/operators.md §2), in a full session: another role gets
403 `role_forbidden` (an auditor `read_only_role`). Adjustments, large withdrawals and template
changes wait for a second operator (`qipai.authority.four_eyes`).

An operator session token is not a player's: a player token gets 403 `operator_only`, no token or
an unknown/ended one 401 `auth_required`. Every operator action — and every refused attempt by an
operator or auditor to change something — is written to the append-only operator log.

Blocking work (the database, scrypt, an exact-return computation) runs in a worker thread.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Depends, FastAPI, Header, Query
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select
from starlette.requests import HTTPConnection, Request

import qipai
from qipai.authority import Authority, four_eyes
from qipai.authority.errors import (
    AuthorityError,
    AuthRequired,
    BadRequest,
    Conflict,
    NotFound,
    OperatorOnly,
    ReadOnlyRole,
    RoleForbidden,
    SetupRequired,
    UnitInPlay,
)
from qipai.authority.operators import Operator
from qipai.authority.roles import OPERATOR_ROLES, ROUTES, capabilities_of, route_roles
from qipai.cluster import directory
from qipai.core.errors import GameError
from qipai.server.deps import Address, Services
from qipai.server.inputs import Key, LongKey, RowId, StoredStr
from qipai.server.routers.accounts import (
    guarded,
    signin_failed,
    signin_forgiven,
    signin_succeeded,
)
from qipai.server.sockets import ACCOUNT_LOCKED, LOCKED_REASON
from qipai.tables.ledger_adapter import LedgerAdapter

T = TypeVar("T")


def _like_escaped(text: str) -> str:
    """`text` matched literally inside a LIKE pattern (with `escape="\\"`)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


class TableElsewhere(Conflict):
    """The round's table is run by another table host (its live lease): an operator's act on
    it goes to that host (`/api/ops/tables/{id}/…` is forwarded there) or is refused here."""

    code = "table_elsewhere"


router = APIRouter(prefix="/api/ops", tags=["ops"])


# ----- plumbing ----------------------------------------------------------------------------
async def authority_of(conn: HTTPConnection) -> Authority:  # async: no thread hop
    found: Authority = conn.app.state.authority
    return found


AuthorityDep = Annotated[Authority, Depends(authority_of)]


async def blocking(fn: Callable[..., T], *args: Any) -> T:
    return await asyncio.to_thread(fn, *args)


def _bearer(authorization: str | None) -> str:
    return (authorization or "").removeprefix("Bearer ").strip()


def _is_player_token(conn: HTTPConnection, token: str) -> bool:
    store = getattr(conn.app.state, "store", None)
    if store is None or not token:
        return False
    for name in ("session", "session_user"):
        lookup = getattr(store, name, None)
        if callable(lookup):
            try:
                return lookup(token) is not None
            except Exception:
                return False
    return False


async def ops_session(
    conn: HTTPConnection,
    authority: AuthorityDep,
    authorization: Annotated[str | None, Header()] = None,
) -> Operator:
    """An operator or auditor session, setup or full (401 / 403 for anyone else)."""
    token = _bearer(authorization)
    op = await blocking(authority.operator_for_token, token) if token else None
    if op is None:
        player = await blocking(_is_player_token, conn, token) if token else False
        if player:
            raise OperatorOnly("the back office is for operators; sign in at /api/ops/login")
        raise AuthRequired("sign in as an operator first (POST /api/ops/login)")
    return op


SessionDep = Annotated[Operator, Depends(ops_session)]


async def ops_reader(op: SessionDep) -> Operator:
    """An operator of any role who finished the first sign-in."""
    if op.stage != "full":
        raise SetupRequired(
            "change the one-time password and enrol TOTP first (POST /api/ops/password, "
            "/api/ops/totp/enrol, /api/ops/totp/confirm)"
        )
    return op


Full = Annotated[Operator, Depends(ops_reader)]


async def ops_allowed(request: Request, op: Full, authority: AuthorityDep) -> Operator:
    """A full session whose role the route's row of `roles.ROUTES` lets through (least
    privilege: docs/operators.md §2). A refused attempt to change something is logged; an
    auditor's answer is 403 `read_only_role`, any other role's 403 `role_forbidden`."""
    route = request.scope.get("route")
    method = "GET" if request.method == "HEAD" else request.method
    path = str(getattr(route, "path", ""))
    if op.role in route_roles(method, path):
        return op
    if method != "GET":
        await blocking(
            authority.log.append,
            op.actor,
            f"{request.method} {request.url.path}"[:64],
            request.url.path[:200],
            "",
            {},
            "refused",
        )
    if not op.can_write:
        raise ReadOnlyRole("auditors may read the back office, not change it")
    raise RoleForbidden(f"a {op.role} may not {method} {path} (docs/operators.md, roles)")


Staff = Annotated[Operator, Depends(ops_allowed)]
Reader = Staff
"""Every route takes `Staff`: what it lets through is its row of `roles.ROUTES`."""
Writer = Staff


def _aware(value: datetime | None, name: str) -> datetime | None:
    """A query time as UTC (a time without a zone is read as UTC)."""
    if value is None:
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Reason(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    reason: StoredStr = Field(min_length=1, max_length=500)


async def _error_response(_: Request, exc: Exception) -> JSONResponse:
    """On the event loop: Starlette runs a plain function handler in its thread pool, a thread
    hop per refused sign-in (and, the first time, an import of anyio's thread machinery that
    stalled the loop for half a second during an operator sign-in flood)."""
    assert isinstance(exc, AuthorityError)
    return JSONResponse({"error": exc.to_json()}, status_code=exc.status)


def _say_who(*routers: APIRouter) -> None:
    """Lead every operator route's published description with the roles its row of
    `roles.ROUTES` lets through (docs/operators.md §2), so the API's own documentation says
    who may call it from the same table that decides it."""
    from fastapi.routing import APIRoute

    for route in (r for each in routers for r in each.routes):
        if not isinstance(route, APIRoute) or not route.path.startswith("/api/ops/"):
            continue
        if route.path == "/api/ops/login":
            continue
        method = sorted(route.methods or {"GET"})[0]
        capability = ROUTES.get((method, route.path))
        roles = [r for r in OPERATOR_ROLES if r in route_roles(method, route.path)]
        who = " or ".join(roles) if roles else "no"
        lead = f"**An operator of role {who}** (`{capability}`). "
        if not route.description.startswith("**An operator of role"):
            route.description = lead + route.description


def install(app: FastAPI, authority: Authority) -> None:
    """Wire operator authority into an app: `app.state.authority`, its typed errors (each with
    its own status) and the ops and player-offer routers."""
    from starlette.routing import Mount

    from qipai.server.routers import offer, ops_rounds, ops_terms

    app.state.authority = authority
    app.add_exception_handler(AuthorityError, _error_response)
    from qipai.server.routers import ops_desk, play_limits

    _say_who(router, ops_desk.router, ops_terms.router, ops_rounds.router)
    app.include_router(router)
    app.include_router(ops_terms.router)
    app.include_router(ops_rounds.router)
    app.include_router(ops_desk.router)
    app.include_router(offer.router)
    app.include_router(play_limits.router)
    # a static mount at "/" (the browser client) must stay last, or it would answer first
    routes = app.router.routes
    routes.sort(key=lambda r: isinstance(r, Mount))


# ----- sign-in -----------------------------------------------------------------------------
class LoginIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: StoredStr = Field(min_length=1, max_length=32)
    password: StoredStr = Field(min_length=1, max_length=200)
    totp: StoredStr | None = Field(default=None, max_length=12)


class PasswordIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    old_password: StoredStr = Field(min_length=1, max_length=200)
    new_password: StoredStr = Field(min_length=1, max_length=200)


class CodeIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    code: StoredStr = Field(min_length=1, max_length=12)


@router.post("/login")
async def login(
    body: LoginIn, request: Request, authority: AuthorityDep, address: Address
) -> dict[str, Any]:
    """**Anyone.** Sign in as an operator: `name`, `password` and, once enrolled, `totp`. The
    one-time password gives a `setup` session (`next`: what is left to do). Refused (429)
    before the password is hashed when the address or the name is over its sign-in limits
    (`QIPAI_OPS_LOGIN_RATE`, back-off per name and address, `QIPAI_OPS_NAME_FAILURES`); an
    unknown name, a wrong password and a wrong code get one answer; no number of wrong
    attempts locks the account (docs/security.md). The password is hashed in the server's own
    bounded pool, never on the event loop or the pool other requests use."""
    from qipai.authority.errors import AuthFailed, TotpRequired

    svc: Services = request.app.state.services
    guard = svc.ops_guard
    await guarded(svc, guard, body.name, address)
    try:
        salt = await blocking(authority.operators.salt_of, body.name)
        hashed = await svc.hasher.hash(body.password, salt)
        result = await blocking(
            functools.partial(authority.operators.login, hashed=hashed),
            body.name,
            body.password,
            body.totp,
        )
    except AuthFailed:
        signin_failed(svc, guard, body.name)
        raise
    except TotpRequired:  # the password was right: the code is still to come
        signin_forgiven(svc, guard, body.name, address)
        raise
    except BaseException:  # not looked at (busy, cancelled, disabled): not a wrong guess
        signin_forgiven(svc, guard, body.name, address)
        raise
    signin_succeeded(svc, guard, body.name, address)
    return result


@router.post("/logout")
async def logout(op: SessionDep, authority: AuthorityDep) -> dict[str, Any]:
    """End this session."""
    await blocking(authority.operators.logout, op)
    return {"ok": True}


@router.get("/me")
async def me(op: SessionDep) -> dict[str, Any]:
    """Any stage. Who this session is, and the version of qipai
    the room runs (CHANGELOG.md says what each version holds)."""
    return {
        "operator": op.name,
        "role": op.role,
        "stage": op.stage,
        "can_write": op.can_write,
        "may": capabilities_of(op.role),
        "version": qipai.__version__,
    }


@router.post("/password")
async def change_password(body: PasswordIn, op: SessionDep, authority: AuthorityDep) -> Any:
    """Any stage. Change the password (12+ characters)."""
    return await blocking(
        authority.operators.change_password, op, body.old_password, body.new_password
    )


@router.post("/totp/enrol")
async def totp_enrol(op: SessionDep, authority: AuthorityDep) -> Any:
    """A setup session (or a full one). A TOTP secret: `secret`, `otpauth_uri`,
    `qr_svg` (inline SVG) and `qr_png` (data URI); confirm it with a code."""
    return await blocking(authority.operators.totp_enrol, op)


@router.post("/totp/confirm")
async def totp_confirm(body: CodeIn, op: SessionDep, authority: AuthorityDep) -> Any:
    """A setup session (or a full one). Confirm the enrolment with a current code;
    with the password changed too, the session becomes `full`."""
    return await blocking(authority.operators.totp_confirm, op, body.code)


# ----- templates ---------------------------------------------------------------------------
@router.get("/templates")
async def list_templates(
    op: Reader, authority: AuthorityDep, game: Key | None = None, status: Key | None = None
) -> dict[str, Any]:
    """Every template's newest version (retired ones too), each
    with the facts players see."""

    def work() -> list[dict[str, Any]]:
        return [
            {**t.to_json(), "facts": authority.facts(t)}
            for t in authority.templates.current().values()
            if game in (None, t.game) and status in (None, t.status)
        ]

    return {"templates": await blocking(work)}


@router.get("/templates/{template_id}")
async def template_versions(
    template_id: Key, op: Reader, authority: AuthorityDep
) -> dict[str, Any]:
    """Every version of one template, oldest first."""
    versions = await blocking(authority.templates.versions, template_id)
    return {"id": template_id, "versions": [v.to_json() for v in versions]}


@router.post("/templates", status_code=201)
async def create_template(
    body: dict[str, Any], op: Writer, authority: AuthorityDep
) -> dict[str, Any]:
    """A new template (version 1): `game`, `name`, `settings`, `min_buy_in`,
    `max_buy_in`, `bot_levels`, `private_allowed`, `pool_id`, `options`, `reason`. A template
    whose exact return exceeds 100 % for a bet needs `confirm_rtp_over_100: true` (409
    `rtp_over_100` otherwise)."""

    return await blocking(four_eyes.ask_template, authority, "create", None, body, op.actor)


@router.put("/templates/{template_id}")
async def change_template(
    template_id: Key, body: dict[str, Any], op: Writer, authority: AuthorityDep
) -> dict[str, Any]:
    """A new version of a template: `base_version` (the version you changed;
    409 `stale_version` if it is not the newest), the fields that change, `reason`. Tables
    already open keep the version they opened with."""

    return await blocking(four_eyes.ask_template, authority, "change", template_id, body, op.actor)


class RetireIn(Reason):
    base_version: int = Field(ge=1)


@router.post("/templates/{template_id}/retire")
async def retire_template(
    template_id: Key, body: RetireIn, op: Writer, authority: AuthorityDep
) -> dict[str, Any]:
    """Offer a template no more (a new, retired version). Running tables of
    it play on."""
    return await blocking(
        four_eyes.ask_template, authority, "retire", template_id, body.model_dump(), op.actor
    )


# ----- players -----------------------------------------------------------------------------
def _ledger(conn: HTTPConnection) -> Any:
    return conn.app.state.ledger


def _room(conn: HTTPConnection) -> Any:
    return conn.app.state.room


def _player_summary(request: Request, authority: Authority, player: str) -> dict[str, Any]:
    ledger = _ledger(request)
    locked, limits = authority.players.get(player)
    return {
        "player": player,
        "wallet": ledger.wallet(player),
        "locked": locked,
        "lock_kind": authority.players.lock_kind(player),
        "kyc": authority.players.kyc(player),
        "limits": limits,
        "money_limits": authority.limits.of(player),
    }


@router.get("/players")
async def search_players(
    request: Request,
    op: Reader,
    authority: AuthorityDep,
    q: Annotated[StoredStr, Query(max_length=32)] = "",
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> dict[str, Any]:
    """Players whose name starts with `q` (bots excluded): wallet,
    lock, limits."""
    from qipai.ledger.schema import users

    def work() -> list[dict[str, Any]]:
        ledger = _ledger(request)
        pattern = _like_escaped(q) + "%"
        with ledger.engine.connect() as conn:
            names = conn.execute(
                select(users.c.id)
                .where(users.c.id.like(pattern, escape="\\"), ~users.c.id.like("bot.%"))
                .order_by(users.c.id)
                .limit(limit)
            ).scalars()
            found = list(names)
        return [_player_summary(request, authority, p) for p in found]

    return {"players": await blocking(work)}


def _require_player(request: Request, player: str) -> None:
    from qipai.authority.money import player_exists

    if not player_exists(_ledger(request), player):
        raise NotFound(f"no player {player!r}", "player")


@router.get("/players/{player}")
async def player_detail(
    player: Key, request: Request, op: Reader, authority: AuthorityDep
) -> dict[str, Any]:
    """One player: wallet, lock (with its reason), limits, the
    tables they sit at, their last rounds and money requests."""

    def work() -> dict[str, Any]:
        _require_player(request, player)
        ledger = _ledger(request)
        seated = [
            {"table_id": t.id, "game": t.game.name, "seat": t.seating.seat_of(player)}
            for t in list(_room(request).tables.values())
            if t.seating.seat_of(player) is not None
        ]
        return {
            **_player_summary(request, authority, player),
            **authority.players.details(player),
            "balances": ledger.balances(owner=player),
            "tables": seated,
            "rounds": ledger.recall(player, 20),
            "requests": authority.money.requests(player=player, limit=20),
        }

    return await blocking(work)


class LockIn(Reason):
    kind: Literal["lock", "self_exclusion", "cool_off", "withdrawals_only"] = "lock"
    days: float | None = Field(default=None, gt=0, le=3650)


@router.post("/players/{player}/lock")
async def lock_player(
    player: Key, body: LockIn, request: Request, op: Writer, authority: AuthorityDep
) -> dict[str, Any]:
    """Lock a player, at once (docs/operators.md#locking-a-player): every session
    ended and every socket closed (4403 `account_locked`), no sign-in, no seat, no request;
    each seat of theirs here stands up now, or at the end of the round it is dealt into (its
    stake settled by that round, nothing dealt to it after)."""

    def work() -> dict[str, Any]:
        _require_player(request, player)
        authority.players.lock(player, op.actor, body.reason, True, body.kind, body.days)
        return _player_summary(request, authority, player)

    summary = await blocking(work)
    await _expel(request, player, body.kind)
    return summary


async def _expel(request: Request, player: str, kind: str = "lock") -> None:
    """A locked player's sockets closed (4403 `account_locked`), their seats stood up; a lock
    that refuses sign-in ends their sessions too (withdrawals-only keeps them: the player
    signs in to withdraw, and plays nowhere)."""
    svc: Services | None = getattr(request.app.state, "services", None)
    if svc is None:
        return
    if kind == "withdrawals_only":
        for conn in svc.sockets.all():
            if conn.player == player:
                conn.end(ACCOUNT_LOCKED, "account_locked: withdrawals only")
    else:
        ended = await blocking(svc.store.end_all_sessions, player)
        svc.sockets.end_sessions(ended, LOCKED_REASON, code=ACCOUNT_LOCKED)
    for table_id, table in list(svc.room.tables.items()):
        if table.seating.seat_of(player) is not None:
            try:
                await svc.room.call(table_id, lambda t: t.stand_up_locked(player))
            except GameError:  # closed or moved meanwhile: the lock still refuses them everything
                continue


@router.post("/players/{player}/unlock")
async def unlock_player(
    player: Key, body: Reason, request: Request, op: Writer, authority: AuthorityDep
) -> dict[str, Any]:
    """Unlock a player."""

    def work() -> dict[str, Any]:
        _require_player(request, player)
        authority.players.lock(player, op.actor, body.reason, False)
        return _player_summary(request, authority, player)

    return await blocking(work)


@router.put("/players/{player}/limits")
async def player_limits(
    player: Key, body: dict[str, Any], request: Request, op: Writer, authority: AuthorityDep
) -> dict[str, Any]:
    """Per-player limits over the room's quotas: `max_open_tables`,
    `max_connections`, `max_watched`, `demo_daily_limit` (null = the room's), `reason`."""

    def work() -> dict[str, Any]:
        _require_player(request, player)
        authority.players.set_limits(player, op.actor, body)
        return _player_summary(request, authority, player)

    return await blocking(work)


# ----- tables ------------------------------------------------------------------------------
def _table_row(table: Any, ledger: Any = None) -> dict[str, Any]:
    """A table as the live room shows it: the lobby's facts (status with its reason, seats with
    stacks, round number, owner, terms with the template) and, for the operator, the running
    round's id and the host holding the table's lease."""
    info: dict[str, Any] = table.public_info()
    record = getattr(table, "record", None)
    info["round_id"] = None if record is None else record.round_id
    info["phase"] = None if getattr(table, "round", None) is None else table.round.phase
    info["host"] = None
    if ledger is not None:
        try:
            lease = ledger.lease(table.id)
        except Exception:  # a table must show even if its lease is unreadable
            lease = None
        if lease is not None:
            info["host"] = getattr(lease, "owner", None)
            info["lease_epoch"] = getattr(lease, "epoch", None)
    return info


@router.get("/tables")
async def list_tables(request: Request, op: Reader, status: str | None = None) -> dict[str, Any]:
    """Every table (private ones too) with its status (suspended:
    with the reason), seats and stacks, round number and running round, owner, host and terms.
    With several table hosts, the tables another host runs are listed too, from the table
    directory (their last saved layout: `remote: true`, `status` `elsewhere` or `suspended`,
    `host`, `lease_epoch`, `lease_held`); `/api/ops/tables/{id}/…` reaches their host."""
    ledger = _ledger(request)
    room = _room(request)

    def read() -> list[dict[str, Any]]:
        rows = [_table_row(t, ledger) for t in list(room.tables.values())]
        if getattr(request.app.state.services, "cluster", None) is not None:
            # the tables of the other table hosts, from the directory in PostgreSQL
            rows += [d.row() for d in directory.elsewhere(ledger.engine, set(room.tables))]
        return rows

    rows = await blocking(read)
    if status is not None:
        rows = [r for r in rows if r.get("status") == status]
    return {"tables": rows}


def _table_op(request: Request, table_id: str, verb: str) -> Callable[..., Any]:
    room = _room(request)
    if table_id not in room.tables:
        raise NotFound(f"no table {table_id!r}", "table_id")
    fn = getattr(room, verb, None)
    if fn is None:
        raise Conflict(f"this room cannot {verb} tables")
    return fn  # type: ignore[no-any-return]


@router.post("/tables/{table_id}/suspend")
async def suspend_table(
    table_id: Key, body: Reason, request: Request, op: Writer, authority: AuthorityDep
) -> dict[str, Any]:
    """Stop a table: its open round ends by the interrupted-game policy (stakes
    returned, what was already won paid); players may stand up."""
    fn = _table_op(request, table_id, "suspend")
    await blocking(fn, table_id, body.reason)
    await blocking(authority.log.append, op.actor, "table.suspend", table_id, body.reason)
    return _table_row(_room(request).tables[table_id])


@router.post("/tables/{table_id}/resume")
async def resume_table(
    table_id: Key, body: Reason, request: Request, op: Writer, authority: AuthorityDep
) -> dict[str, Any]:
    """Let a suspended table play again."""
    fn = _table_op(request, table_id, "resume")
    await blocking(fn, table_id)
    await blocking(authority.log.append, op.actor, "table.resume", table_id, body.reason)
    return _table_row(_room(request).tables[table_id])


@router.post("/tables/{table_id}/close")
async def close_table(
    table_id: Key, body: Reason, request: Request, op: Writer, authority: AuthorityDep
) -> dict[str, Any]:
    """Close a table for good: every seat stood up and cashed out."""
    fn = _table_op(request, table_id, "close")
    await blocking(fn, table_id)
    await blocking(authority.log.append, op.actor, "table.close", table_id, body.reason)
    table = _room(request).tables.get(table_id)
    return _table_row(table) if table is not None else {"id": table_id, "status": "closed"}


# ----- rounds ------------------------------------------------------------------------------
def _round(request: Request, round_id: str) -> dict[str, Any]:
    from qipai.ledger.errors import UnknownRound

    try:
        info: dict[str, Any] = _ledger(request).round(round_id, include_seed=True)
    except UnknownRound:
        raise NotFound(f"no round {round_id!r}", "round_id") from None
    return info


def _round_shown(request: Request, round_id: str) -> dict[str, Any]:
    """The round as the back office may see it: no seed while its deal unit is in play."""
    from qipai.authority import inspector

    return inspector.shown(_ledger(request), _round(request, round_id))


@router.get("/rounds/{round_id}")
async def round_detail(round_id: Key, request: Request, op: Reader) -> dict[str, Any]:
    """A round in full: players, journal, result, identification
    (`meta`) and, once its deal unit ended, its seed (also of games whose seeds players never
    see). While the unit is in play the seed is withheld from every role (`seed_withheld`:
    docs/security.md); end the unit (void the round) to inspect it."""
    info = await blocking(_round_shown, request, round_id)
    return {"round": info}


def _not_elsewhere(request: Request, table_id: str, round_id: str) -> None:
    """Refuse (409 `table_elsewhere`, naming the host) to touch a round whose table another
    live table host runs: voiding it here would end a round that host is playing (and reveal
    its seed) behind its back. A lapsed lease (its host died, nobody took it yet) is no
    one's: the round is voided here in the ledger."""
    room = _room(request)
    if table_id in room.tables:
        return
    here = getattr(getattr(room, "ledger", None), "host", None)
    lease = _ledger(request).lease(table_id)
    if lease is not None and lease.held and lease.owner not in (None, here):
        raise TableElsewhere(
            f"round {round_id} is at table {table_id}, run by host {lease.owner}: "
            f"suspend the table there (POST /api/ops/tables/{table_id}/suspend reaches it "
            "from any host)",
            "round_id",
        )


class VoidIn(Reason):
    resume: bool = False
    """Void and resume in one step: the table this voids the round of (suspending it) plays on
    at once, from a new deal unit."""


@router.post("/rounds/{round_id}/void")
async def void_round(
    round_id: Key, body: VoidIn, request: Request, op: Writer, authority: AuthorityDep
) -> dict[str, Any]:
    """Void an open round with a reason: the interrupted-game policy settles
    it (every stake returned; what a player had already won paid by the house). A round that
    a running table of this process is playing is ended by that table (it is suspended: its
    round, deal unit and seats end as the table's own interruption does; resume it
    afterwards, or ask `resume: true` to void and resume in one step: `resumed`), never behind
    its back. A round no live table plays (its table gone, e.g.
    after a crash) is rebuilt from its journal and voided in the ledger by the same policy
    (stakes returned, what was won so far paid by the house). A round at a table another host
    owns: 409 `table_elsewhere` (suspend that table, `POST /api/ops/tables/{id}/suspend`, which goes to its
    host). A settled round cannot be voided: correct it with a ledger reversal or
    adjustment."""

    def work() -> dict[str, Any]:
        info = _round(request, round_id)
        if info["status"] != "open":
            raise Conflict(f"round {round_id} is {info['status']}", "round_id")
        room = _room(request)
        table_id = str(info["table_id"])
        _not_elsewhere(request, table_id, round_id)
        table = room.tables.get(table_id)
        playing = False
        if table is not None:
            # checked and suspended under the table's lock: the round cannot end and the
            # table start another (which the suspension would then void) in between
            with table.lock:
                record = table.record
                playing = record is not None and record.round_id == round_id
                if playing:
                    table.suspend(f"round voided by an operator: {body.reason}")
                    if body.resume:  # under the same lock: no round starts in between
                        table.resume()
        resumed = playing and body.resume
        if playing:
            room.wake(table_id)
            how = "table suspended and resumed" if resumed else "table suspended"
        else:  # its table is gone: replayed from its journal, voided by the same policy
            plain = LedgerAdapter(_ledger(request))  # unfenced: no host owns the table
            found = [r for r in plain.open_rounds(table_id) if r.record.round_id == round_id]
            if not found:
                raise Conflict(f"round {round_id} is no longer open", "round_id")
            paid = room.void_gone(found[0], body.reason, ledger=plain)
            how = "voided in the ledger" + (
                f"; won so far paid by the house: {sum(paid.values())}" if paid else ""
            )
        authority.log.append(op.actor, "round.void", round_id, body.reason, {"how": how})
        if resumed:
            authority.log.append(op.actor, "table.resume", table_id, body.reason, {"after": "void"})
        return {"round": _round_shown(request, round_id), "how": how, "resumed": resumed}

    return await blocking(work)


# ----- ledger and money --------------------------------------------------------------------
class ReverseIn(Reason):
    tx_id: int = Field(gt=0)


class AdjustIn(Reason):
    player: StoredStr = Field(min_length=1, max_length=64)
    amount: int = Field(ge=-(10**12), le=10**12)


@router.post("/ledger/reversals")
async def reverse(body: ReverseIn, op: Writer, authority: AuthorityDep) -> dict[str, Any]:
    """Post the exact opposite of transaction `tx_id` (once), with a reason."""
    return await blocking(authority.money.reverse, body.tx_id, op.actor, body.reason)


@router.post("/ledger/adjustments")
async def adjust(body: AdjustIn, op: Writer, authority: AuthorityDep) -> dict[str, Any]:
    """Credit (`amount` > 0) or debit a player's wallet against the house,
    with a reason: an adjusting transaction, never an edit."""
    return await blocking(
        four_eyes.ask_adjust, authority, body.player, body.amount, op.actor, body.reason
    )


@router.get("/ledger/accounts/{account}")
async def account(
    account: LongKey, request: Request, op: Reader, limit: Annotated[int, Query(ge=1, le=200)] = 50
) -> dict[str, Any]:
    """An account's balance and its last entries."""
    from qipai.ledger.errors import LedgerError

    def work() -> dict[str, Any]:
        ledger = _ledger(request)
        try:
            return {
                "account": account,
                "balance": ledger.balance(account),
                "statement": ledger.statement(account, limit=limit),
            }
        except LedgerError as exc:
            raise BadRequest(str(exc), "account") from None

    return await blocking(work)


class FundIn(Reason):
    amount: int = Field(gt=0, le=10**12)


@router.post("/jackpots/{pool_id}/fund")
async def fund_pool(
    pool_id: Key, body: FundIn, op: Writer, authority: AuthorityDep
) -> dict[str, Any]:
    """Seed or top up a jackpot pool from the house."""
    return await blocking(authority.money.fund_pool, pool_id, body.amount, op.actor, body.reason)


@router.get("/money/requests")
async def money_requests(
    op: Reader,
    authority: AuthorityDep,
    status: Key | None = None,
    player: Key | None = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    """Deposit and withdrawal requests (and demo deposits)."""
    found = await blocking(
        lambda: authority.money.requests(status=status, player=player, limit=limit)
    )
    return {"requests": found}


@router.post("/money/requests/{request_id}/approve")
async def approve(
    request_id: RowId, body: Reason, op: Writer, authority: AuthorityDep
) -> dict[str, Any]:
    """Approve a request: the deposit or withdrawal is posted now."""
    return await blocking(four_eyes.ask_withdrawal, authority, request_id, op.actor, body.reason)


@router.post("/money/requests/{request_id}/reject")
async def reject(
    request_id: RowId, body: Reason, op: Writer, authority: AuthorityDep
) -> dict[str, Any]:
    """Reject a request (nothing moves)."""
    return await blocking(authority.money.decide, request_id, False, op.actor, body.reason)


# ----- the operator log --------------------------------------------------------------------
@router.get("/log")
async def operator_log(
    op: Reader,
    authority: AuthorityDep,
    actor: Key | None = None,
    action: Key | None = None,
    kind: Key | None = None,
    target: LongKey | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    before_id: RowId | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> dict[str, Any]:
    """The operator log, newest first, filtered by `actor` (the
    operator), `action`, `kind` (the action's family: `table`, `round`, `player`…), `target`
    and time (`since`/`until`, ISO 8601); a page at a time: `next` is the `before_id` of the
    next page (null on the last); `kinds` lists the families in the log."""
    lo, hi = _aware(since, "since"), _aware(until, "until")
    if lo is not None and hi is not None and lo >= hi:
        raise BadRequest("since must be before until", "since")

    def read() -> dict[str, Any]:
        rows = authority.log.entries(
            actor=actor,
            action=action,
            kind=kind,
            target=target,
            since=None if lo is None else lo.timestamp(),
            until=None if hi is None else hi.timestamp(),
            before_id=before_id,
            limit=limit + 1,
        )
        more = len(rows) > limit
        rows = rows[:limit]
        return {
            "entries": rows,
            "next": rows[-1]["id"] if more and rows else None,
            "kinds": authority.log.kinds(),
        }

    return await blocking(read)


@router.get("/log/verify")
async def verify_log(op: Reader, authority: AuthorityDep) -> dict[str, Any]:
    """Check the log's hash chain (`problems`: [] = intact)."""
    problems = await blocking(authority.log.verify)
    return {"ok": not problems, "problems": problems}


# ----- the console (docs/operators.md): players' books, the round inspector, reports, integrity ------
@router.get("/players/{player}/entries")
async def player_entries(
    player: Key,
    request: Request,
    op: Reader,
    account: LongKey | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    before: RowId | None = None,
) -> dict[str, Any]:
    """A player's accounts (wallet, table stacks, holds) with their
    balances, and the entries of one of them (`account`, default the wallet) newest first, each
    with the running balance after it, `limit` (≤ 500) a page: `next` is the cursor of the
    page after (pass it as `before`; None on the last page), so every entry can be reached."""
    from qipai.authority import inspector
    from qipai.ledger import accounts as acct
    from qipai.ledger.errors import LedgerError

    def work() -> dict[str, Any]:
        _require_player(request, player)
        ledger = _ledger(request)
        name = account or acct.wallet(player)
        try:
            spec = acct.parse(name)
        except LedgerError as exc:
            raise BadRequest(str(exc), "account") from None
        if spec.owner != player:
            raise BadRequest(f"{name!r} is not an account of {player!r}", "account")
        return {
            "player": player,
            "accounts": ledger.balances(owner=player),
            "account": name,
            "balance": ledger.balance(name),
            **inspector.entries_page(ledger, name, limit=limit, before=before),
        }

    return await blocking(work)


@router.get("/rounds/{round_id}/replay")
async def round_replay(round_id: Key, request: Request, op: Reader) -> dict[str, Any]:
    """The round step by step: after the deal and after every
    journaled action, every seat's view and a spectator's (all seats' cards visible to the
    operator), the settlement postings and the round's players."""
    from qipai.authority import inspector

    def work() -> dict[str, Any]:
        record = _round(request, round_id)
        if inspector.unit_in_play(_ledger(request), record):
            raise UnitInPlay(
                f"round {round_id}'s deal unit is still dealing: its replay (every seat's "
                "cards) is shown once the unit ends; void the round to inspect it now",
                "round_id",
            )
        steps = inspector.replay_steps(record)
        return {
            **steps,
            "status": record["status"],
            "players": record["players"],
            "result": record["result"],
            "meta": record["meta"],
            "void_reason": record["void_reason"],
            "postings": inspector.settlement(_ledger(request), record),
        }

    return await blocking(work)


@router.get("/rounds/{round_id}/verify")
async def round_verify(round_id: Key, request: Request, op: Reader) -> dict[str, Any]:
    """Verify a round now: the seed against its commitment, the
    journal replayed (deal, result, money against the settlement) and the MAC chain of its
    table recomputed. Changes nothing. The seed is in the answer once the round's deal unit
    ended (`seed_withheld` while it is in play)."""
    from qipai.authority import inspector

    def work() -> dict[str, Any]:
        _round(request, round_id)
        return inspector.verify_shown(_ledger(request), round_id)

    return await blocking(work)


def _by(value: str) -> list[str]:
    return [p for p in (x.strip() for x in value.split(",")) if p]


@router.get("/reports/house")
async def house_report(
    request: Request,
    op: Reader,
    by: Annotated[StoredStr, Query(max_length=60)] = "game,template",
    since: datetime | None = None,
    until: datetime | None = None,
    game: Key | None = None,
    table_id: Key | None = None,
    format: Annotated[str, Query(pattern="^(json|csv)$")] = "json",
) -> Any:
    """The house's results of the ended rounds grouped `by` any of
    `day`, `game`, `template`, `table` (comma-separated), of the rounds closed from `since` to
    before `until`: rounds, turnover (people's stakes, every bet; bots' apart), people's net, GGR,
    house (the tables' play result), commission, rounding, the jackpot's seed, top-ups,
    contributions and awards, bots' net; the totals; and the books (pool liability, bot
    bankroll). `format=csv` answers a CSV file."""
    from qipai.authority import reports

    lo, hi = _aware(since, "since"), _aware(until, "until")

    def work() -> dict[str, Any]:
        with _ledger(request).engine.connect() as conn:
            return reports.house_results(
                conn, by=_by(by), since=lo, until=hi, game=game, table_id=table_id
            )

    found = await blocking(work)
    if format == "csv":
        return Response(
            reports.to_csv(found),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": 'attachment; filename="house-results.csv"'},
        )
    return found


def _exact_of(authority: Authority) -> Callable[[str, Any, str], Any]:
    from qipai.authority import games

    def exact(game: str, config_json: Any, digest: str) -> Any:
        # under the settings' own hash, not the one the round claims (`rtp_cache.actual_hash`)
        found = authority.rtp.for_settings(game, config_json)
        if found is not None:
            return found
        try:
            return authority.rtp.figures(game, games.parse_config(game, config_json))
        except Exception:
            return None

    return exact


@router.get("/reports/returns")
async def returns_report(
    request: Request,
    op: Reader,
    authority: AuthorityDep,
    template_id: Key | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    series: bool = False,
) -> dict[str, Any]:
    """Exact vs observed return of every bet of every template
    version played: its reference (`reference`: `exact`, qipai.analysis for that version's
    settings, or `simulated`, the room's bots at those settings with `reference_ci95`, for a game
    whose exact figure assumes other play: Niu Niu), observed over the settled rounds with its
    95 % interval, z-score and `flag` (Holm-corrected over the bets shown, family-wise 5 %); Hold'em Bonus's main
    bets for the house bots (optimal play) and for people (`given_up` against optimal play).
    `series=true` adds the observed return over time (for the chart). `decisions`: the people's
    Hold'em Bonus decisions against optimal play, with their exact cost (the last 2,000 boxes)."""
    from qipai.authority import references, reports

    lo, hi = _aware(since, "since"), _aware(until, "until")
    exact = _exact_of(authority)

    def work() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        reference_of = references.lookup(authority.references, authority.templates)
        with _ledger(request).engine.connect() as conn:
            # a read (SQLite: BEGIN DEFERRED): the exact figures may be read from the same
            # database on another connection meanwhile, which a held write lock would block
            conn.execution_options(qipai_read=True)
            rows = reports.observed_returns(
                conn,
                exact,
                template_id=template_id,
                since=lo,
                until=hi,
                series=series,
                reference_of=reference_of,
            )
            decisions = reports.holdem_decisions(conn, template_id=template_id, since=lo, until=hi)
        return rows, decisions

    rows, decisions = await blocking(work)
    return {
        "rows": rows,
        "flagged": sum(1 for r in rows if r["flag"]),
        "decisions": decisions,
    }


@router.get("/integrity")
async def integrity(request: Request, op: Reader, authority: AuthorityDep) -> dict[str, Any]:
    """The last audit run from the console (its result, by whom,
    when), the chains' heads as the writers keep them, and the operator log's own check."""
    from qipai.ledger.schema import chain_heads

    def work() -> dict[str, Any]:
        with _ledger(request).engine.connect() as conn:
            heads = [
                {"chain": str(c), "seq": int(s), "mac": str(m), "updated_at": u.isoformat()}
                for c, s, m, u in conn.execute(
                    select(
                        chain_heads.c.chain,
                        chain_heads.c.seq,
                        chain_heads.c.mac,
                        chain_heads.c.updated_at,
                    ).order_by(chain_heads.c.chain)
                )
            ]
        last = authority.log.entries(action="audit.run", limit=1)
        problems = authority.log.verify()
        return {
            "last_audit": last[0] if last else None,
            "heads": heads,
            "log_ok": not problems,
            "log_problems": problems,
        }

    return await blocking(work)


class AuditIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    replay: bool = True


@router.post("/integrity/audit")
async def run_audit(
    body: AuditIn, request: Request, op: Writer, authority: AuthorityDep
) -> dict[str, Any]:
    """Run `qipai audit` now (every ledger invariant, every chain recomputed,
    `replay`: every settled round replayed); the result is written to the operator log."""

    def work() -> dict[str, Any]:
        from qipai.ledger.commands import operator_log_check, terms_check

        ledger = _ledger(request)
        # one snapshot: a finding written to the operator log is never one of play in flight
        report = ledger.audit(
            replay=body.replay, terms=terms_check(ledger), also=operator_log_check(ledger)
        )
        found = report.to_json()
        authority.log.append(
            op.actor,
            "audit.run",
            "ledger",
            "console",
            {
                "ok": found["ok"],
                "violations": found["violations"][:20],
                "stats": found["stats"],
                "replay": body.replay,
            },
            "ok",  # the action ran; its finding is in the detail
        )
        result: dict[str, Any] = found
        return result

    return await blocking(work)


# ----- table hosts (docs/scaling.md) --------------------------------------------------------------
def _node(conn: HTTPConnection) -> Any:
    node = getattr(conn.app.state.services, "cluster", None)
    if node is None:
        raise Conflict("this server is not a table host of a room (PostgreSQL only)")
    return node


@router.get("/hosts")
async def list_hosts(request: Request, op: Reader) -> dict[str, Any]:
    """The room's live table hosts (this one first): address,
    tables and seats, whether it drains (and, for this host, how its drain goes)."""
    node = _node(request)
    return {"hosts": await node.hosts(), "this": node.drain_status()}


@router.post("/hosts/{host_id}/drain")
async def drain_host(
    host_id: Key, body: Reason, request: Request, op: Writer, authority: AuthorityDep
) -> dict[str, Any]:
    """Drain the table host `host_id` (from `GET /api/ops/hosts`; any host of the room
    answers, the request reaches that host over Redis): it opens no new table and takes none
    over, hands each of its tables over at the table's next round boundary (its lease released:
    another host claims it and resumes it from its saved layout and journal, seats kept), and
    then stops (`qipai serve --processes N` does not start a drained host again). Asking
    again answers the drain's progress."""
    from qipai.cluster.bus import CallFailed, CallRefused

    node = _node(request)
    try:
        status: dict[str, Any] = await node.drain_host(host_id, op.name, body.reason)
    except CallRefused as exc:
        raise NotFound(exc.message, "host_id") from None
    except CallFailed as exc:
        raise Conflict(f"host {host_id} did not answer: {exc}", "host_id") from None
    await blocking(authority.log.append, op.actor, "host.drain", host_id[:200], body.reason)
    return status
