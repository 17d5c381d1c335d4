"""The card room's own tables, beside the ledger's in the same database: user credentials,
session tokens and table layouts (game, settings, who sits where).

The tables are made by Alembic (the `room` branch of `qipai/ledger/migrations`, upgraded with
the ledger's by `qipai.ledger.db.migrate`); `metadata` here is what those migrations must
produce (tests/server/test_migrations.py compares them).

Passwords are hashed with scrypt and a per-user salt (`qipai.server.passwords`, off the event
loop); session tokens are random and stored only as their SHA-256, so a stolen database does
not let anyone act for a player. Usernames are unique without regard to case: `username_key`
(the lower-case name) carries the unique index, `username` keeps the spelling chosen at
sign-up, which is the player's id everywhere else.

Every method here does blocking database work: the server calls them in worker threads.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass
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
    UniqueConstraint,
    bindparam,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from qipai.core.errors import InvalidInput
from qipai.server.errors import Conflict

metadata = MetaData()

room_users = Table(
    "room_users",
    metadata,
    Column("username", String(32), primary_key=True),
    Column("username_key", String(32), nullable=False),
    Column("salt", String(64), nullable=False),
    Column("pw_hash", String(128), nullable=False),
    Column("created_at", Float, nullable=False),
    UniqueConstraint("username_key", name="uq_room_users_username_key"),
)

room_sessions = Table(
    "room_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("username", String(32), nullable=False, index=True),
    Column("created_at", Float, nullable=False),
    Column("last_used_at", Float, nullable=False),
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
TOUCH_S = 60.0
"""A session's `last_used_at` is rewritten at most this often (idle expiry has this grain)."""


def username_key(username: str) -> str:
    """The case-insensitive identity of a username (usernames are ASCII: `lower` suffices)."""
    return username.lower()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass(frozen=True)
class Credentials:
    username: str
    salt: bytes
    pw_hash: str


@dataclass(frozen=True)
class Session:
    username: str
    token_hash: str
    expires_at: float
    """When the session dies at the latest if it stays in use (the absolute lifetime)."""


class RoomStore:
    """Accounts, sessions and table layouts (also the `TableRepo` of the runtime)."""

    def __init__(
        self,
        engine: Engine,
        *,
        session_idle_s: float = 12 * 3600.0,
        session_max_s: float = 7 * 24 * 3600.0,
    ) -> None:
        self.engine = engine
        self.session_idle_s = session_idle_s
        self.session_max_s = session_max_s

    # ----- accounts -------------------------------------------------------------------------
    def insert_user(self, username: str, salt: bytes, pw_hash: str) -> None:
        """Store a new account (its password already hashed); Conflict if the name is taken
        in any spelling."""
        if not USERNAME.match(username):
            raise InvalidInput("a username is 3-24 letters, digits or _")
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(room_users).values(
                        username=username,
                        username_key=username_key(username),
                        salt=salt.hex(),
                        pw_hash=pw_hash,
                        created_at=time.time(),
                    )
                )
        except IntegrityError:
            raise Conflict(f"the username {username!r} is taken") from None

    def create_user(self, username: str, password: str) -> None:
        """Hash and store in one call (scripts and benchmarks; the server hashes in its pool)."""
        from qipai.server.passwords import hash_password

        salt = secrets.token_bytes(16)
        self.insert_user(username, salt, hash_password(password, salt))

    def credentials(self, name: str) -> Credentials | None:
        """The stored credentials of the account called `name` in any spelling."""
        with self._read() as conn:
            row = conn.execute(
                select(room_users.c.username, room_users.c.salt, room_users.c.pw_hash).where(
                    room_users.c.username_key == username_key(name)
                )
            ).first()
        if row is None:
            return None
        return Credentials(str(row[0]), bytes.fromhex(row[1]), str(row[2]))

    # ----- sessions -------------------------------------------------------------------------
    def new_session(self, username: str) -> str:
        token = secrets.token_urlsafe(32)
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                insert(room_sessions).values(
                    token_hash=token_hash(token),
                    username=username,
                    created_at=now,
                    last_used_at=now,
                    expires_at=now + self.session_max_s,
                )
            )
        return token

    def session(self, token: str | None) -> Session | None:
        """The live session of `token` (None if unknown, idle too long or too old); marks it
        used."""
        if not token or len(token) > 256:
            return None
        return self.session_by_hash(token_hash(token))

    def session_by_hash(self, digest: str) -> Session | None:
        """The live session whose token hashes to `digest` (see `session`)."""
        now = time.time()
        with self._read() as conn:
            row = conn.execute(
                select(
                    room_sessions.c.username,
                    room_sessions.c.last_used_at,
                    room_sessions.c.expires_at,
                ).where(room_sessions.c.token_hash == digest)
            ).first()
        if row is None:
            return None
        username, last_used, expires = str(row[0]), float(row[1]), float(row[2])
        if now >= expires or now - last_used >= self.session_idle_s:
            self.end_session_hash(digest)
            return None
        if now - last_used >= TOUCH_S:
            with self.engine.begin() as conn:
                conn.execute(
                    update(room_sessions)
                    .where(room_sessions.c.token_hash == digest)
                    .values(last_used_at=now)
                )
        return Session(username, digest, expires)

    def session_hash_alive(self, digest: str) -> bool:
        return self.session_by_hash(digest) is not None

    @contextlib.contextmanager
    def _read(self) -> Iterator[Connection]:
        """A read-only connection (on SQLite a deferred transaction: no write lock)."""
        with self.engine.connect() as conn:
            conn = conn.execution_options(qipai_read=True)
            with conn.begin():
                yield conn

    def session_user(self, token: str | None) -> str | None:
        found = self.session(token)
        return None if found is None else found.username

    def end_session(self, token: str) -> str:
        """End one session; returns its token hash (to close its sockets)."""
        digest = token_hash(token)
        self.end_session_hash(digest)
        return digest

    def end_session_hash(self, digest: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(room_sessions).where(room_sessions.c.token_hash == digest))

    def end_all_sessions(self, username: str) -> list[str]:
        """End every session of `username`; returns their token hashes."""
        with self.engine.begin() as conn:
            digests = [
                str(r[0])
                for r in conn.execute(
                    select(room_sessions.c.token_hash).where(room_sessions.c.username == username)
                )
            ]
            conn.execute(delete(room_sessions).where(room_sessions.c.username == username))
        return digests

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
        with self._read() as conn:
            rows = conn.execute(select(room_tables.c.data).order_by(room_tables.c.updated_at))
            return [dict(r[0]) for r in rows]


__all__ = [
    "Credentials",
    "RoomStore",
    "Session",
    "metadata",
    "room_sessions",
    "room_tables",
    "room_users",
    "token_hash",
    "username_key",
]
