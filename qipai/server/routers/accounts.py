"""Accounts and sessions: sign-up, sign-in (throttled), sign-out, sign-out everywhere, me."""

from __future__ import annotations

from fastapi import APIRouter

from qipai.server.deps import Address, Player, ServicesDep, SessionDep
from qipai.server.errors import ApiError, AuthFailed, FieldError
from qipai.server.models import CredentialsIn, LoggedOut, MeOut, SeatedAt, SessionOut
from qipai.server.passwords import check_policy
from qipai.server.store import USERNAME, username_key

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


def _backing_off(svc: ServicesDep, account: str, address: str) -> None:
    wait = max(
        svc.account_backoff.wait_s(f"account:{account}"),
        svc.address_backoff.wait_s(f"address:{address}"),
    )
    if wait > 0:
        svc.metrics.refused.labels("login_backoff").inc()
        seconds = max(1, int(wait + 0.999))
        raise ApiError(
            429,
            "too_many_attempts",
            f"too many wrong passwords: try again in {seconds} s",
            headers={"Retry-After": str(seconds)},
        )


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
    """**Anyone.** Sign in. After `QIPAI_LOGIN_FREE_FAILURES` wrong passwords for an account
    (or `QIPAI_ADDRESS_FREE_FAILURES` from one address) every attempt is refused with 429
    `too_many_attempts` — the right password too — until a back-off that doubles with each
    failure has passed."""
    account = username_key(body.username)
    _backing_off(svc, account, address)
    _throttled(svc, "login", address, "sign-in attempts")
    # counted as wrong until the hash says otherwise: guesses sent together cannot all pass
    # the back-off while the first ones are still being hashed (no more than the free
    # failures ever reach scrypt; every other attempt is refused above, for nothing)
    keys = (f"account:{account}", f"address:{address}")
    svc.account_backoff.fail(keys[0])
    svc.address_backoff.fail(keys[1])
    try:
        found = await svc.db(svc.store.credentials, body.username)
        ok = await svc.hasher.verify(
            body.password,
            None if found is None else found.salt,
            None if found is None else found.pw_hash,
        )
    except BaseException:  # not looked at (busy, cancelled): not a wrong password
        svc.account_backoff.forgive(keys[0])
        svc.address_backoff.forgive(keys[1])
        raise
    if not ok or found is None:
        raise AuthFailed("wrong username or password")
    svc.address_backoff.forgive(keys[1])
    svc.account_backoff.succeed(keys[0])
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
