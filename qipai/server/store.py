"""The card room's own tables, beside the ledger's in the same database: user credentials,
session tokens and table layouts (game, settings, who sits where).

Passwords are hashed with scrypt and a per-user salt; session tokens are random and stored only
as their SHA-256, so a stolen database does not let anyone act for a player.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from typing import Any

from sqlalchemy import (
    JSON,
    Column,
    Connection,
    Engine,
    Float,
    MetaData,
    String,
    Table,
    bindparam,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from qipai.core.errors import InvalidInput

metadata = MetaData()

room_users = Table(
    "room_users",
    metadata,
    Column("username", String(32), primary_key=True),
    Column("salt", String(64), nullable=False),
    Column("pw_hash", String(128), nullable=False),
    Column("created_at", Float, nullable=False),
)

room_sessions = Table(
    "room_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("username", String(32), nullable=False, index=True),
    Column("expires_at", Float, nullable=False),
)

room_tables = Table(
    "room_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("data", JSON, nullable=False),
    Column("updated_at", Float, nullable=False),
)

# Built once: a table's layout is saved every round, and building the statement around the
# layout's dict each time (SQLAlchemy coerces the literal) cost more than running it.
_SAVE_UPDATE = (
    update(room_tables)
    .where(room_tables.c.id == bindparam("t_id"))
    .values(
        data=bindparam("t_data", type_=room_tables.c.data.type),
        updated_at=bindparam("t_at", type_=room_tables.c.updated_at.type),
    )
)
_SAVE_INSERT = insert(room_tables).values(
    id=bindparam("t_id"),
    data=bindparam("t_data", type_=room_tables.c.data.type),
    updated_at=bindparam("t_at", type_=room_tables.c.updated_at.type),
)

USERNAME = re.compile(r"^[A-Za-z0-9_]{3,24}$")
SESSION_S = 7 * 24 * 3600.0


class AuthError(InvalidInput):
    code = "auth_failed"


class Conflict(InvalidInput):
    code = "conflict"


def _hash(password: str, salt: bytes) -> str:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=2**14, r=8, p=1).hex()


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("ascii", "replace")).hexdigest()


class RoomStore:
    """Accounts, sessions and table layouts (also the `TableRepo` of the runtime)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        metadata.create_all(engine)

    # ----- accounts -------------------------------------------------------------------------
    def create_user(self, username: str, password: str) -> None:
        if not isinstance(username, str) or not USERNAME.match(username):
            raise InvalidInput("a username is 3-24 letters, digits or _")
        if not isinstance(password, str) or len(password) < 6 or len(password) > 200:
            raise InvalidInput("a password is 6-200 characters")
        salt = secrets.token_bytes(16)
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(room_users).values(
                        username=username,
                        salt=salt.hex(),
                        pw_hash=_hash(password, salt),
                        created_at=time.time(),
                    )
                )
        except IntegrityError:
            raise Conflict(f"the username {username!r} is taken") from None

    def check_password(self, username: str, password: str) -> bool:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(room_users.c.salt, room_users.c.pw_hash).where(
                    room_users.c.username == username
                )
            ).first()
        if row is None or not isinstance(password, str):
            _hash("x", b"0" * 16)  # same work either way
            return False
        return hmac.compare_digest(_hash(password, bytes.fromhex(row[0])), row[1])

    def new_session(self, username: str) -> str:
        token = secrets.token_urlsafe(32)
        with self.engine.begin() as conn:
            conn.execute(
                insert(room_sessions).values(
                    token_hash=_token_hash(token),
                    username=username,
                    expires_at=time.time() + SESSION_S,
                )
            )
        return token

    def session_user(self, token: str | None) -> str | None:
        if not token:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(room_sessions.c.username, room_sessions.c.expires_at).where(
                    room_sessions.c.token_hash == _token_hash(token)
                )
            ).first()
        if row is None or row[1] < time.time():
            return None
        return str(row[0])

    def end_session(self, token: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                delete(room_sessions).where(room_sessions.c.token_hash == _token_hash(token))
            )

    # ----- table layouts (TableRepo) --------------------------------------------------------
    def save_table(self, table_id: str, data: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            self.save_table_in(conn, table_id, data)

    def save_table_in(self, conn: Connection, table_id: str, data: dict[str, Any]) -> None:
        """Save a layout inside the caller's transaction (the ledger's settlement)."""
        values = {"t_id": table_id, "t_data": data, "t_at": time.time()}
        if conn.execute(_SAVE_UPDATE, values).rowcount == 0:
            conn.execute(_SAVE_INSERT, values)

    def delete_table(self, table_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(room_tables).where(room_tables.c.id == table_id))

    def load_tables(self) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(room_tables.c.data).order_by(room_tables.c.updated_at))
            return [dict(r[0]) for r in rows]
