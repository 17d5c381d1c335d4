"""Operator accounts: password + TOTP second factor, sessions separate from players'.

An operator is created by `qipai operator add NAME` with a one-time password. Signing in with it
gives a *setup* session that can do nothing but change the password and enrol TOTP (the
enrolment returns the secret, the otpauth URI and a QR code); once both are done the session
becomes a *full* one. Every later sign-in needs the password and a current TOTP code; a code is
accepted once (replays of the same time step are refused, atomically: one code used by ten
requests at once gives one session). Sessions end after a short idle time and at an absolute
limit.

No wrong sign-in locks an account (a stranger could lock any operator out): the server's sign-in
guard (`qipai.server.throttle.SignInGuard`) refuses floods per address and per name before any
password is hashed, and backs off the guessing address. An unknown name, a wrong password and a
wrong code get one answer. Refused sign-ins are counted and written to the operator log as one
row per `REFUSALS_EVERY_S` (the first of a quiet spell at once), not one row each
(docs/security.md).

Passwords are scrypt-hashed with a per-operator salt; session tokens are stored only as their
SHA-256.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pyotp
from sqlalchemy import Connection, Engine, delete, insert, select, update

from qipai.authority import strength
from qipai.authority.errors import (
    AccountLocked,
    AuthFailed,
    BadRequest,
    Conflict,
    NotFound,
    TotpRequired,
)
from qipai.authority.oplog import Actor, OperatorLog
from qipai.authority.roles import OPERATOR_ROLES, WRITE_ROLES, may
from qipai.authority.schema import op_sessions, operators

NAME = re.compile(r"^[a-z][a-z0-9_.-]{1,31}$")
MIN_PASSWORD = 12
MAX_PASSWORD = 200
TOTP_STEP = 30
ISSUER = "qipai"


@dataclass(frozen=True)
class OperatorPolicy:
    idle_s: float = 900.0
    """A full session ends after this long without a request."""
    max_s: float = 12 * 3600.0
    """…and this long after sign-in, whatever happens."""
    setup_idle_s: float = 600.0


@dataclass(frozen=True)
class Operator:
    """The operator behind a session token."""

    name: str
    role: str
    stage: str  # "setup" (must change password / enrol TOTP) or "full"
    token_hash: str

    @property
    def actor(self) -> Actor:
        return Actor(self.name, self.role)

    @property
    def can_write(self) -> bool:
        return self.role in WRITE_ROLES

    def may(self, capability: str) -> bool:
        return may(self.role, capability)


def _hash(password: str, salt: bytes) -> str:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=2**14, r=8, p=1).hex()


def _one_time_credentials() -> tuple[str, dict[str, Any]]:
    """A new one-time password and the columns that go with it: it must be changed at the next
    sign-in, no TOTP enrolled, no failures counted, not locked (a new operator, or a reset)."""
    password = secrets.token_urlsafe(12)
    salt = secrets.token_bytes(16)
    return password, {
        "salt": salt.hex(),
        "pw_hash": _hash(password, salt),
        "must_change": True,
        "totp_secret": None,
        "totp_enabled": False,
        "totp_last_step": None,
        "failed_logins": 0,
        "locked_until": None,
    }


WRONG = "wrong operator name, password or code"
"""The one answer to an unknown name, a wrong password and a wrong code."""
_DUMMY_SALT = b"qipai-no-operator"
REFUSALS_EVERY_S = 60.0


class RefusalTally:
    """Refused sign-ins counted in memory and written as one operator-log row (`login.refused`:
    how many, by name — the 20 most tried — and by reason) per `every_s`: a flood of wrong
    names costs the database one row a minute. The first refusal after a quiet spell is written
    at once, so a single wrong attempt is in the log when it happens."""

    def __init__(self, log: OperatorLog, clock: Callable[[], float], every_s: float) -> None:
        self.log, self.clock, self.every_s = log, clock, every_s
        self._lock = threading.Lock()
        self._names: Counter[str] = Counter()
        self._reasons: Counter[str] = Counter()
        self._since: float | None = None
        self._written = -float("inf")

    def note(self, name: str, reason: str) -> None:
        with self._lock:
            self._names[name[:40]] += 1
            self._reasons[reason] += 1
            if self._since is None:
                self._since = self.clock()
            if self.clock() - self._written < self.every_s:
                return
            names, reasons, since = self._names, self._reasons, self._since
            self._names, self._reasons, self._since = Counter(), Counter(), None
            self._written = self.clock()
        self.write(names, reasons, since)

    def flush(self) -> None:
        """Write what is counted (at shutdown, or when asked)."""
        with self._lock:
            names, reasons, since = self._names, self._reasons, self._since
            self._names, self._reasons, self._since = Counter(), Counter(), None
        if names:
            self.write(names, reasons, since)

    def write(self, names: Counter[str], reasons: Counter[str], since: float | None) -> None:
        total = sum(reasons.values())
        detail = {
            "attempts": total,
            "names": dict(names.most_common(20)),
            "distinct_names": len(names),
            "reasons": dict(reasons),
            "since": since,
        }
        self.log.append(Actor("anonymous", "unknown"), "login.refused", "", "", detail, "refused")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("ascii", "replace")).hexdigest()


def check_name(name: object) -> str:
    if not isinstance(name, str) or not NAME.match(name):
        raise BadRequest(
            "an operator name is 2-32 of lowercase letters, digits, _ . - (starting with a letter)",
            "name",
        )
    return name


def check_new_password(
    password: object, field: str = "new_password", user_inputs: tuple[str, ...] = ()
) -> str:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise BadRequest(f"an operator password is {MIN_PASSWORD}-{MAX_PASSWORD} characters", field)
    strength.require_strong(password, field, user_inputs)
    return password


def qr_images(uri: str) -> dict[str, str]:
    """The otpauth URI as a QR code: inline SVG markup and a PNG data URI."""
    import segno

    qr = segno.make(uri, error="m")
    return {
        "qr_svg": qr.svg_inline(scale=4, border=2),
        "qr_png": qr.png_data_uri(scale=4, border=2),
    }


class OperatorStore:
    def __init__(
        self,
        engine: Engine,
        log: OperatorLog,
        policy: OperatorPolicy | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.engine = engine
        self.log = log
        self.policy = policy or OperatorPolicy()
        self.clock = clock
        self.refusals = RefusalTally(log, clock, REFUSALS_EVERY_S)

    # ----- accounts (the `qipai operator` command) ------------------------------------------
    def add(self, name: str, role: str = "supervisor", actor: Actor | None = None) -> str:
        """Create an operator; returns the one-time password (changed at first sign-in)."""
        check_name(name)
        if role not in OPERATOR_ROLES:
            raise BadRequest(f"role {role!r}: expected one of {', '.join(OPERATOR_ROLES)}", "role")
        password, fresh = _one_time_credentials()
        now = self.clock()
        with self.engine.begin() as conn:
            if conn.execute(select(operators.c.name).where(operators.c.name == name)).first():
                raise Conflict(f"operator {name!r} exists", "name")
            conn.execute(
                insert(operators).values(
                    name=name,
                    role=role,
                    **fresh,
                    disabled=False,
                    created_at=now,
                    updated_at=now,
                )
            )
            self.log.append_in(
                conn, actor or Actor("cli", "system"), "operator.add", name, "", {"role": role}
            )
        return password

    def reset(self, name: str, actor: Actor, reason: str = "") -> str:
        """A new one-time password and no TOTP (a lost device): every session of it ends."""
        password, fresh = _one_time_credentials()
        with self.engine.begin() as conn:
            self._require(conn, name)
            conn.execute(
                update(operators)
                .where(operators.c.name == name)
                .values(**fresh, updated_at=self.clock())
            )
            conn.execute(delete(op_sessions).where(op_sessions.c.operator == name))
            self.log.append_in(conn, actor, "operator.reset", name, reason)
        return password

    def set_disabled(self, name: str, disabled: bool, actor: Actor, reason: str = "") -> None:
        with self.engine.begin() as conn:
            self._require(conn, name)
            conn.execute(
                update(operators)
                .where(operators.c.name == name)
                .values(disabled=disabled, updated_at=self.clock())
            )
            if disabled:
                conn.execute(delete(op_sessions).where(op_sessions.c.operator == name))
            action = "operator.disable" if disabled else "operator.enable"
            self.log.append_in(conn, actor, action, name, reason)

    def lift_lockout(self, name: str, actor: Actor, reason: str = "") -> None:
        """Lift a lock-out (`locked_until`, failures counted) and nothing else: the password,
        the authenticator and the sessions stay."""
        with self.engine.begin() as conn:
            self._require(conn, name)
            conn.execute(
                update(operators)
                .where(operators.c.name == name)
                .values(failed_logins=0, locked_until=None, updated_at=self.clock())
            )
            self.log.append_in(conn, actor, "operator.unlock", name, reason)

    def all(self) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(operators).order_by(operators.c.name)).mappings()
            return [
                {
                    "name": r["name"],
                    "role": r["role"],
                    "totp_enabled": r["totp_enabled"],
                    "must_change_password": r["must_change"],
                    "disabled": r["disabled"],
                    "locked": bool(r["locked_until"] and r["locked_until"] > self.clock()),
                    "created_at": r["created_at"],
                }
                for r in rows
            ]

    def _require(self, conn: Connection, name: str) -> dict[str, Any]:
        row = conn.execute(select(operators).where(operators.c.name == name)).mappings().first()
        if row is None:
            raise NotFound(f"no operator {name!r}", "name")
        return dict(row)

    # ----- sign-in --------------------------------------------------------------------------
    def salt_of(self, name: str) -> bytes:
        """The salt to hash a sign-in's password with (a fixed one for an unknown name: the
        same work either way), read so that the hash can run outside this store (the server's
        bounded hashing pool)."""
        with self.engine.connect() as conn:
            salt = conn.execute(select(operators.c.salt).where(operators.c.name == name)).scalar()
        return _DUMMY_SALT if salt is None else bytes.fromhex(str(salt))

    def login(
        self, name: str, password: str, totp: str | None = None, *, hashed: str | None = None
    ) -> dict[str, Any]:
        """Check the password (and TOTP once enrolled); returns the new session. `hashed`: the
        password already hashed with `salt_of(name)` (the server hashes in its own pool);
        without it the hash is computed here."""
        if hashed is None:
            hashed = _hash(password, self.salt_of(name))
        now = self.clock()
        with self.engine.begin() as conn:
            outcome = self._login_in(conn, name, hashed, totp, now)
        if isinstance(outcome, tuple):
            refusal, reason = outcome
            self.refusals.note(name, reason)
            raise refusal
        return outcome

    def _login_in(
        self, conn: Connection, name: str, hashed: str, totp: str | None, now: float
    ) -> dict[str, Any] | tuple[Exception, str]:
        row = conn.execute(select(operators).where(operators.c.name == name)).mappings().first()
        if row is None:
            return AuthFailed(WRONG), "unknown name"
        if not hmac.compare_digest(hashed, row["pw_hash"]):
            return AuthFailed(WRONG), "wrong password"
        actor = Actor(name, row["role"])
        if row["disabled"]:  # told only to whoever knows the password
            return AccountLocked("this operator account is disabled"), "disabled"
        step: int | None = None
        if row["totp_enabled"]:
            if not totp:
                return TotpRequired("enter the code of your authenticator app", "totp"), "no code"
            step = self._totp_step(row["totp_secret"], totp, None, now)
            if step is None:
                return AuthFailed(WRONG), "wrong code"
            # single use, atomically: of requests carrying the same code at once, one moves the
            # last used step forward; the others find it there and are refused
            used = conn.execute(
                update(operators)
                .where(operators.c.name == name)
                .where((operators.c.totp_last_step.is_(None)) | (operators.c.totp_last_step < step))
                .values(totp_last_step=step, failed_logins=0, locked_until=None)
            )
            if used.rowcount != 1:
                return AuthFailed(WRONG), "reused code"
        stage = "full" if row["totp_enabled"] and not row["must_change"] else "setup"
        token = secrets.token_urlsafe(32)
        conn.execute(
            insert(op_sessions).values(
                token_hash=token_hash(token),
                operator=name,
                stage=stage,
                created_at=now,
                last_seen=now,
                expires_at=now + self.policy.max_s,
            )
        )
        self.log.append_in(conn, actor, "login", name, "", {"stage": stage})
        return {
            "operator": name,
            "role": row["role"],
            "token": token,
            "stage": stage,
            "next": self._next_steps(row),
        }

    @staticmethod
    def _next_steps(row: Any) -> list[str]:
        steps = []
        if row["must_change"]:
            steps.append("change_password")
        if not row["totp_enabled"]:
            steps.append("enrol_totp")
        return steps

    def _totp_step(
        self, secret: str | None, code: str, last_step: int | None, now: float
    ) -> int | None:
        """The time step a code belongs to (±1 step of clock skew), None if wrong or reused."""
        if not secret or not isinstance(code, str) or not code.isdigit() or len(code) != 6:
            return None
        totp = pyotp.TOTP(secret)
        current = int(now // TOTP_STEP)
        for step in (current, current - 1, current + 1):
            if hmac.compare_digest(totp.at(step * TOTP_STEP), code):
                if last_step is not None and step <= last_step:
                    return None  # a replayed (or older) code
                return step
        return None

    def session(self, token: str | None) -> Operator | None:
        """The operator of a token, refreshing its idle timer (None: unknown or ended)."""
        if not token:
            return None
        now = self.clock()
        digest = token_hash(token)
        with self.engine.begin() as conn:
            row = (
                conn.execute(
                    select(op_sessions, operators.c.role, operators.c.disabled)
                    .join(operators, operators.c.name == op_sessions.c.operator)
                    .where(op_sessions.c.token_hash == digest)
                )
                .mappings()
                .first()
            )
            if row is None:
                return None
            idle = self.policy.idle_s if row["stage"] == "full" else self.policy.setup_idle_s
            if row["disabled"] or row["expires_at"] <= now or row["last_seen"] + idle <= now:
                conn.execute(delete(op_sessions).where(op_sessions.c.token_hash == digest))
                return None
            conn.execute(
                update(op_sessions).where(op_sessions.c.token_hash == digest).values(last_seen=now)
            )
        return Operator(row["operator"], row["role"], row["stage"], digest)

    def logout(self, op: Operator) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(op_sessions).where(op_sessions.c.token_hash == op.token_hash))
            self.log.append_in(conn, op.actor, "logout", op.name)

    # ----- first sign-in: password and TOTP -------------------------------------------------
    def change_password(self, op: Operator, old: str, new: str) -> dict[str, Any]:
        check_new_password(new, user_inputs=(op.name,))
        if new == old:
            raise BadRequest("the new password must differ from the old one", "new_password")
        with self.engine.begin() as conn:
            row = self._require(conn, op.name)
            if not hmac.compare_digest(_hash(old, bytes.fromhex(row["salt"])), row["pw_hash"]):
                self.log.append_in(conn, op.actor, "password.change", op.name, "", {}, "refused")
                failed = True
            else:
                failed = False
                salt = secrets.token_bytes(16)
                conn.execute(
                    update(operators)
                    .where(operators.c.name == op.name)
                    .values(
                        salt=salt.hex(),
                        pw_hash=_hash(new, salt),
                        must_change=False,
                        updated_at=self.clock(),
                    )
                )
                # other sessions of this operator end: a changed password locks others out
                conn.execute(
                    delete(op_sessions).where(
                        op_sessions.c.operator == op.name,
                        op_sessions.c.token_hash != op.token_hash,
                    )
                )
                self.log.append_in(conn, op.actor, "password.change", op.name)
        if failed:
            raise AuthFailed("the current password is wrong", "old_password")
        return self._maybe_upgrade(op)

    def totp_enrol(self, op: Operator) -> dict[str, Any]:
        """A new TOTP secret (pending until confirmed with a code): URI and QR code."""
        secret = pyotp.random_base32()
        with self.engine.begin() as conn:
            row = self._require(conn, op.name)
            if row["totp_enabled"] and op.stage == "full":
                raise Conflict("TOTP is already enrolled; an operator reset starts it anew")
            conn.execute(
                update(operators)
                .where(operators.c.name == op.name)
                .values(totp_secret=secret, totp_enabled=False, updated_at=self.clock())
            )
            self.log.append_in(conn, op.actor, "totp.enrol", op.name)
        uri = pyotp.TOTP(secret).provisioning_uri(name=op.name, issuer_name=ISSUER)
        return {"secret": secret, "otpauth_uri": uri, **qr_images(uri)}

    def totp_confirm(self, op: Operator, code: str) -> dict[str, Any]:
        now = self.clock()
        with self.engine.begin() as conn:
            row = self._require(conn, op.name)
            if row["totp_secret"] is None:
                raise Conflict("enrol first (POST /api/ops/totp/enrol)")
            step = self._totp_step(row["totp_secret"], code, row["totp_last_step"], now)
            if step is None:
                self.log.append_in(conn, op.actor, "totp.confirm", op.name, "", {}, "refused")
            else:
                conn.execute(
                    update(operators)
                    .where(operators.c.name == op.name)
                    .values(totp_enabled=True, totp_last_step=step, updated_at=now)
                )
                self.log.append_in(conn, op.actor, "totp.confirm", op.name)
        if step is None:
            raise AuthFailed("wrong or reused code", "code")
        return self._maybe_upgrade(op)

    def _maybe_upgrade(self, op: Operator) -> dict[str, Any]:
        """The setup session becomes a full one once both first steps are done (the operator
        has just shown the password and a TOTP code)."""
        with self.engine.begin() as conn:
            row = self._require(conn, op.name)
            steps = self._next_steps(row)
            stage = "full" if not steps else "setup"
            conn.execute(
                update(op_sessions)
                .where(op_sessions.c.token_hash == op.token_hash)
                .values(stage=stage)
            )
        return {"operator": op.name, "role": op.role, "stage": stage, "next": steps}
