"""Operator accounts: password + TOTP second factor, sessions separate from players'.

An operator is created by `qipai operator add NAME` with a one-time password. Signing in with it
gives a *setup* session that can do nothing but change the password and enrol TOTP (the
enrolment returns the secret, the otpauth URI and a QR code); once both are done the session
becomes a *full* one. Every later sign-in needs the password and a current TOTP code; a code is
accepted once (replays of the same time step are refused). Sessions end after a short idle time
and at an absolute limit; five wrong sign-ins in a row lock the account for a while.

Passwords are scrypt-hashed with a per-operator salt; session tokens are stored only as their
SHA-256.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pyotp
from sqlalchemy import Connection, Engine, delete, insert, select, update

from qipai.authority.errors import (
    AccountLocked,
    AuthFailed,
    BadRequest,
    Conflict,
    NotFound,
    TotpRequired,
)
from qipai.authority.oplog import Actor, OperatorLog
from qipai.authority.roles import OPERATOR_ROLES
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
    max_failures: int = 5
    lockout_s: float = 900.0


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
        return self.role == "operator"


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


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("ascii", "replace")).hexdigest()


def check_name(name: object) -> str:
    if not isinstance(name, str) or not NAME.match(name):
        raise BadRequest(
            "an operator name is 2-32 of lowercase letters, digits, _ . - (starting with a letter)",
            "name",
        )
    return name


def check_new_password(password: object, field: str = "new_password") -> str:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise BadRequest(f"an operator password is {MIN_PASSWORD}-{MAX_PASSWORD} characters", field)
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

    # ----- accounts (the `qipai operator` command) ------------------------------------------
    def add(self, name: str, role: str = "operator", actor: Actor | None = None) -> str:
        """Create an operator; returns the one-time password (changed at first sign-in)."""
        check_name(name)
        if role not in OPERATOR_ROLES:
            raise BadRequest(f"role {role!r}: expected operator or auditor", "role")
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
    def login(self, name: str, password: str, totp: str | None = None) -> dict[str, Any]:
        """Check the password (and TOTP once enrolled); returns the new session."""
        now = self.clock()
        # a refused attempt is logged: it commits, and the refusal is raised afterwards
        with self.engine.begin() as conn:
            refusal = self._login_in(conn, name, password, totp, now)
        if isinstance(refusal, Exception):
            raise refusal
        return refusal

    def _login_in(
        self, conn: Connection, name: str, password: str, totp: str | None, now: float
    ) -> dict[str, Any] | Exception:
        row = conn.execute(select(operators).where(operators.c.name == name)).mappings().first()
        if row is None:
            _hash("x", b"0" * 16)  # the same work either way
            self.log.append_in(conn, Actor(name[:40], "unknown"), "login", name, "", {}, "refused")
            return AuthFailed("wrong operator name or password")
        actor = Actor(name, row["role"])
        if row["disabled"]:
            self.log.append_in(conn, actor, "login", name, "disabled", {}, "refused")
            return AccountLocked("this operator account is disabled")
        if row["locked_until"] is not None and row["locked_until"] > now:
            self.log.append_in(conn, actor, "login", name, "locked", {}, "refused")
            return AccountLocked(
                f"too many failed sign-ins: locked for {int(row['locked_until'] - now)} s more"
            )
        ok = hmac.compare_digest(_hash(password, bytes.fromhex(row["salt"])), row["pw_hash"])
        step: int | None = None
        if ok and row["totp_enabled"]:
            if not totp:
                return TotpRequired("enter the code of your authenticator app", "totp")
            step = self._totp_step(row["totp_secret"], totp, row["totp_last_step"], now)
            ok = step is not None
        if not ok:
            failures = int(row["failed_logins"]) + 1
            lock = failures >= self.policy.max_failures
            conn.execute(
                update(operators)
                .where(operators.c.name == name)
                .values(
                    failed_logins=0 if lock else failures,
                    locked_until=now + self.policy.lockout_s if lock else row["locked_until"],
                )
            )
            self.log.append_in(
                conn, actor, "login", name, "", {"failures": failures, "locked": lock}, "refused"
            )
            return AuthFailed("wrong password or code" if row["totp_enabled"] else "wrong password")
        stage = "full" if row["totp_enabled"] and not row["must_change"] else "setup"
        conn.execute(
            update(operators)
            .where(operators.c.name == name)
            .values(failed_logins=0, locked_until=None, totp_last_step=step)
            if step is not None
            else update(operators)
            .where(operators.c.name == name)
            .values(failed_logins=0, locked_until=None)
        )
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
        check_new_password(new)
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
