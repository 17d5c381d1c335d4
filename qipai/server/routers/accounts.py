"""Accounts and sessions: sign-up, sign-in (throttled), sign-out, sign-out everywhere, me."""

from __future__ import annotations

from fastapi import APIRouter

from qipai.server.deps import Address, Player, ServicesDep, SessionDep
from qipai.server.errors import ApiError, AuthFailed, FieldError
from qipai.server.models import CredentialsIn, LoggedOut, MeOut, SeatedAt, SessionOut
from qipai.server.passwords import check_policy
from qipai.server.store import USERNAME, username_key
from qipai.server.throttle import SignInGuard, SignInRefused

router = APIRouter(prefix="/api", tags=["accounts"])


def _throttled(svc: ServicesDep, name: str, key: str, what: str) -> None:
    if not svc.rates.hit(name, key):
        svc.metrics.refused.labels(name).inc()
        wait = svc.rates.retry_after(name, key)
        raise ApiError(
            429,
            "rate_limited",
            f"too many {what} from your address: try again in {wait} s",
            headers={"Retry-After": str(wait)},
        )


async def guarded(svc: ServicesDep, guard: SignInGuard, name: str, address: str) -> None:
    """Admit one sign-in attempt or refuse it (429) before any password is hashed: this host's
    counts first (no round trip for a flood it already refuses), then the room's (Redis,
    several hosts)."""
    try:
        guard.admit(name, address)
        room = svc.room_signins.get(guard.kind)
        if room is not None:
            try:
                await room.admit(name, address)
            except BaseException:
                guard.forgive(name, address)
                raise
    except SignInRefused as refused:
        svc.metrics.refused.labels(f"{guard.kind}_login").inc()
        text = (
            "too many sign-in attempts from your address"
            if refused.code == "rate_limited"
            else "too many wrong sign-ins"
        )
        raise ApiError(
            429,
            refused.code,
            f"{text}: try again in {refused.seconds} s",
            headers={"Retry-After": str(refused.seconds)},
        ) from None


def signin_failed(svc: ServicesDep, guard: SignInGuard, name: str) -> None:
    guard.failed(name)
    room = svc.room_signins.get(guard.kind)
    if room is not None:
        room.failed(name)


def signin_forgiven(svc: ServicesDep, guard: SignInGuard, name: str, address: str) -> None:
    guard.forgive(name, address)
    room = svc.room_signins.get(guard.kind)
    if room is not None:
        room.forgive(name, address)


def signin_succeeded(svc: ServicesDep, guard: SignInGuard, name: str, address: str) -> None:
    guard.succeed(name, address)
    room = svc.room_signins.get(guard.kind)
    if room is not None:
        room.succeed(name, address)


@router.post("/signup", response_model=SessionOut)
async def signup(body: CredentialsIn, svc: ServicesDep, address: Address) -> SessionOut:
    """**Anyone.** Create an account and sign in: username 3-24 letters, digits or `_`
    (unique without regard to case), password 8-200 characters and not a common one.
    Throttled per address (`QIPAI_SIGNUP_RATE`)."""
    if not USERNAME.match(body.username):
        raise FieldError("username", "a username is 3-24 letters, digits or _")
    check_policy(body.username, body.password)
    _throttled(svc, "signup", address, "sign-ups")
    salt, pw_hash = await svc.hasher.new_hash(body.password)
    await svc.db(svc.store.insert_user, body.username, salt, pw_hash)
    await svc.db(svc.adapter.ensure_user, body.username, body.username)
    token = await svc.db(svc.store.new_session, body.username)
    return SessionOut(player=body.username, token=token)


@router.post("/login", response_model=SessionOut)
async def login(body: CredentialsIn, svc: ServicesDep, address: Address) -> SessionOut:
    """**Anyone.** Sign in. Refused (429) before the password is looked at: over
    `QIPAI_LOGIN_RATE` attempts from one address; after `QIPAI_LOGIN_FREE_FAILURES` wrong
    passwords for one name from one address, or `QIPAI_ADDRESS_FREE_FAILURES` from one address,
    until a back-off that doubles with each failure has passed (`too_many_attempts`, the right
    password too); after `QIPAI_LOGIN_NAME_FAILURES` wrong ones for a name from anywhere, from
    every address that never signed in to it. An unknown name and a wrong password get the same
    answer (docs/security.md)."""
    account = username_key(body.username)
    guard = svc.player_guard
    await guarded(svc, guard, account, address)
    try:
        found = await svc.db(svc.store.credentials, body.username)
        ok = await svc.hasher.verify(
            body.password,
            None if found is None else found.salt,
            None if found is None else found.pw_hash,
        )
    except BaseException:  # not looked at (busy, cancelled): not a wrong password
        signin_forgiven(svc, guard, account, address)
        raise
    if not ok or found is None:
        signin_failed(svc, guard, account)
        raise AuthFailed("wrong username or password")
    signin_succeeded(svc, guard, account, address)
    if svc.authority is not None:  # a locked player signs in to nothing (403 account_locked)
        await svc.db(svc.authority.check_player, found.username)
    token = await svc.db(svc.store.new_session, found.username)
    return SessionOut(player=found.username, token=token)


@router.post("/logout", response_model=LoggedOut)
async def logout(svc: ServicesDep, session: SessionDep) -> LoggedOut:
    """**A signed-in player.** End this session; its WebSockets are closed (4401)."""
    await svc.db(svc.store.end_session_hash, session.token_hash)
    closed = svc.sockets.end_sessions([session.token_hash])
    return LoggedOut(sessions=1, sockets=closed)


@router.post("/logout/all", response_model=LoggedOut)
async def logout_everywhere(svc: ServicesDep, player: Player) -> LoggedOut:
    """**A signed-in player.** End every session of the player (every device); all their
    WebSockets are closed (4401)."""
    ended = await svc.db(svc.store.end_all_sessions, player)
    closed = svc.sockets.end_sessions(ended)
    return LoggedOut(sessions=len(ended), sockets=closed)


@router.get("/me", response_model=MeOut)
async def me(svc: ServicesDep, player: Player) -> MeOut:
    """**A signed-in player.** Who you are, your wallet, the tables you sit at."""
    seated = []
    for table in list(svc.room.tables.values()):
        seat = table.seating.seat_of(player)
        if seat is not None:
            seated.append(
                SeatedAt(
                    table_id=table.id,
                    game=table.game.name,
                    seat=seat,
                    stack=table.held_stack(player),
                )
            )
    wallet = await svc.db(svc.adapter.wallet, player)
    return MeOut(player=player, wallet=wallet, tables=seated)
