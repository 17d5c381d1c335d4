"""Database engines and migrations: SQLite by default, PostgreSQL by URL.

`resolve_url` turns a `--db` value (a URL, a file path, or nothing) into a SQLAlchemy URL: nothing
means `QIPAI_DATABASE_URL`, else the embedded SQLite file in the user's data directory. SQLite
connections run every write transaction as `BEGIN IMMEDIATE` (writers queue on the database lock
instead of failing mid-transaction) in WAL mode with foreign keys on.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, create_engine, event, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError, ProgrammingError

if TYPE_CHECKING:
    from alembic.config import Config

ENV_URL = "QIPAI_DATABASE_URL"
ENV_APP_ROLE = "QIPAI_APP_ROLE"
_ROLE = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
MIGRATIONS = Path(__file__).with_name("migrations")
_SCHEMA = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def default_sqlite_path() -> Path:
    """The embedded database file: `<user data dir>/qipai/qipai.sqlite3` (platformdirs)."""
    from platformdirs import user_data_path

    return user_data_path("qipai", appauthor=False) / "qipai.sqlite3"


def resolve_url(db: str | None = None) -> str:
    """A database URL from a `--db` value: a URL as is, a path as a SQLite file, else the default."""
    value = db or os.environ.get(ENV_URL) or str(default_sqlite_path())
    if "://" in value:
        return value
    path = Path(value).expanduser().resolve()
    return f"sqlite:///{path}"


def create(url: str, *, schema: str | None = None, pool_size: int = 10) -> Engine:
    """An engine configured for the ledger's concurrency model on either database."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 60.0, "check_same_thread": False})
        _sqlite_events(engine)
        return engine
    if parsed.get_backend_name() != "postgresql":
        raise ValueError(
            f"unsupported database {parsed.get_backend_name()!r}: use SQLite or PostgreSQL"
        )
    connect_args: dict[str, Any] = {}
    options = []
    if schema is not None:
        if not _SCHEMA.match(schema):
            raise ValueError(f"invalid schema name {schema!r}")
        options.append(f"-csearch_path={schema}")
    sync = _pg_sync()
    if sync is not None:
        options.append(f"-csynchronous_commit={sync}")
    if options:
        given = parsed.query.get("options", "")  # (a URL's own options are kept)
        given = " ".join(given) if isinstance(given, tuple) else given
        connect_args["options"] = " ".join([given, *options] if given else options)
    return create_engine(
        url,
        connect_args=connect_args,
        pool_size=pool_size,
        max_overflow=2 * pool_size,
        pool_pre_ping=True,
    )


def _sqlite_sync() -> str:
    level = os.environ.get("QIPAI_SQLITE_SYNC", "NORMAL").upper()
    if level not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
        raise ValueError(f"QIPAI_SQLITE_SYNC must be NORMAL, FULL, EXTRA or OFF, not {level!r}")
    return level


PG_SYNC_LEVELS = ("on", "off", "local", "remote_write", "remote_apply")


def _pg_sync() -> str | None:
    """`QIPAI_PG_SYNC`: the ledger's connections' `synchronous_commit` (unset: the server's).
    `on` waits for each commit's WAL flush to disk; `off` returns before it — a commit then
    survives a killed card room (the database has it) but the last ones (at most about three
    `wal_writer_delay`s, 0.6 s by default) may be lost if the database server or the machine
    crashes; never a half-written transaction or a corrupt database (the same class as SQLite's
    WAL + synchronous=NORMAL)."""
    level = os.environ.get("QIPAI_PG_SYNC")
    if level is None or level == "":
        return None
    level = level.lower()
    if level not in PG_SYNC_LEVELS:
        raise ValueError(f"QIPAI_PG_SYNC must be one of {', '.join(PG_SYNC_LEVELS)}, not {level!r}")
    return level


def _sqlite_events(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        # WAL + synchronous=NORMAL: a commit survives a killed process (kill -9, the crash the
        # card room recovers from); only an OS crash or power loss can lose the last commits,
        # never corrupt the file. FULL (fsync per commit) is kept available for operators who
        # run on SQLite without a UPS: QIPAI_SQLITE_SYNC=FULL. Production scale uses PostgreSQL.
        cursor.execute(f"PRAGMA synchronous={_sqlite_sync()}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=60000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        read_only = conn.get_execution_options().get("qipai_read", False)
        # straight to the driver (SQLAlchemy's statement machinery cost more than SQLite's BEGIN)
        driver = conn.connection.dbapi_connection
        assert driver is not None
        driver.execute("BEGIN DEFERRED" if read_only else "BEGIN IMMEDIATE")


def create_schema(engine: Engine, schema: str) -> None:
    """Create a PostgreSQL schema if it does not exist (used to isolate test runs and tenants;
    an existing schema is left alone, so a role without CREATE on the database may open it)."""
    if not _SCHEMA.match(schema):
        raise ValueError(f"invalid schema name {schema!r}")
    plain = create_engine(engine.url)
    try:
        with plain.begin() as conn:
            found = conn.execute(
                text("SELECT 1 FROM pg_namespace WHERE nspname = :s"), {"s": schema}
            ).first()
            if found is None:
                conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{schema}"'))
    finally:
        plain.dispose()


def drop_schema(engine: Engine, schema: str) -> None:
    if not _SCHEMA.match(schema):
        raise ValueError(f"invalid schema name {schema!r}")
    plain = create_engine(engine.url)
    with plain.begin() as conn:
        conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    plain.dispose()


def alembic_config(conn: Connection | None = None) -> Config:
    from alembic.config import Config  # imported only to migrate (see `head_revisions`)

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if conn is not None:
        cfg.attributes["connection"] = conn
    return cfg


@functools.cache
def head_revisions() -> frozenset[str]:
    """The newest revision of every migration branch (the ledger's, the authority's and the
    card room's; read once per process). Read from the scripts' `revision` and
    `down_revision` assignments without importing Alembic: opening a database that is
    already at its heads (every start but the first) then needs none of Alembic, Mako or
    Pygments (about a second of import, docs/scaling.md "Start-up")."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for script in (MIGRATIONS / "versions").glob("*.py"):
        found = _assigned(script, ("revision", "down_revision"))
        revision = found.get("revision")
        if not isinstance(revision, str):
            raise RuntimeError(f"migration {script.name} names no revision")
        revisions.add(revision)
        down = found.get("down_revision")
        if isinstance(down, str):
            parents.add(down)
        elif isinstance(down, tuple | list):
            parents.update(str(d) for d in down)
    heads = revisions - parents
    assert heads
    return frozenset(heads)


def _assigned(script: Path, names: tuple[str, ...]) -> dict[str, object]:
    """The literal values a module assigns to `names` at its top level."""
    import ast

    found: dict[str, object] = {}
    for node in ast.parse(script.read_text(encoding="utf-8")).body:
        target: ast.expr
        if isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id in names:
            found[target.id] = ast.literal_eval(value)
    return found


def head_revision() -> str:
    """The single head revision (only while there is one migration branch)."""
    heads = head_revisions()
    if len(heads) != 1:
        raise RuntimeError(f"several migration heads: {sorted(heads)}")
    return next(iter(heads))


def _at_head(engine: Engine) -> bool:
    try:
        with engine.connect() as conn:
            conn.execution_options(qipai_read=True)
            with conn.begin():
                found = (
                    conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
                )
    except (OperationalError, ProgrammingError):
        return False
    return frozenset(found) == head_revisions() and len(found) == len(head_revisions())


def migrate(engine: Engine, revision: str = "heads", *, app_role: str | None = None) -> None:
    """Bring the schema to `revision` (default: the head of every branch) with Alembic,
    serialized against concurrent openers (a database already at the heads costs one query).

    PostgreSQL: run this as the schema's owner; `app_role` (or `QIPAI_APP_ROLE`) is then granted
    what the card room needs and no more (`grant_app`). SQLite rebuilds a table to alter it;
    foreign keys are switched off for the migration (as SQLite's ALTER TABLE procedure
    requires) and checked before it commits."""
    app_role = app_role or os.environ.get(ENV_APP_ROLE) or None
    if revision in ("head", "heads") and _at_head(engine):
        if app_role and engine.dialect.name == "postgresql":
            grant_app(engine, app_role)
        return
    if revision == "head":
        revision = "heads"
    if engine.dialect.name != "sqlite":
        with engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(7240917)"))
            _upgrade(conn, revision)
        if app_role and engine.dialect.name == "postgresql":
            grant_app(engine, app_role)
        return
    with engine.connect() as conn:
        raw = conn.connection.dbapi_connection
        assert raw is not None
        raw.execute("PRAGMA foreign_keys=OFF")  # outside any transaction, as SQLite needs
        try:
            with conn.begin():
                _upgrade(conn, revision)
                broken = conn.exec_driver_sql("PRAGMA foreign_key_check").all()
                if broken:
                    raise RuntimeError(f"migration broke foreign keys: {broken[:5]}")
        finally:
            raw.execute("PRAGMA foreign_keys=ON")


def _upgrade(conn: Connection, revision: str) -> None:
    from alembic import command

    command.upgrade(alembic_config(conn), revision)


def grant_app(engine: Engine, role: str) -> None:
    """PostgreSQL: give the application role exactly what the card room needs in this schema —
    SELECT and INSERT everywhere; UPDATE and DELETE only on tables that are not append-only (no
    table of `schema.APPEND_ONLY`, none with an `…append_only…` trigger: the ledger's caches
    and leases, the card room's sessions and layouts); no TRUNCATE, no ownership, no CREATE.
    Run as the owner (the role that migrates)."""
    from qipai.ledger.schema import APPEND_ONLY, NEVER_DELETED

    if not _ROLE.match(role):
        raise ValueError(f"invalid role name {role!r}")
    with engine.begin() as conn:
        schema = str(conn.execute(text("SELECT current_schema()")).scalar_one())
        tables = [
            str(t)
            for (t,) in conn.execute(
                text("SELECT tablename FROM pg_tables WHERE schemaname = :s"), {"s": schema}
            )
        ]
        guarded = {
            str(t)
            for (t,) in conn.execute(
                text(
                    "SELECT DISTINCT c.relname FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid "
                    "JOIN pg_namespace n ON n.oid = c.relnamespace "
                    "WHERE n.nspname = :s AND NOT g.tgisinternal AND g.tgname LIKE '%append_only%'"
                ),
                {"s": schema},
            )
        }
        conn.execute(text(f'GRANT USAGE ON SCHEMA "{schema}" TO "{role}"'))
        conn.execute(text(f'REVOKE CREATE ON SCHEMA "{schema}" FROM "{role}"'))
        for table in tables:
            conn.execute(text(f'REVOKE ALL ON "{schema}"."{table}" FROM "{role}"'))
            verbs = "SELECT, INSERT"
            if table not in APPEND_ONLY and table not in guarded:
                verbs += ", UPDATE" if table in NEVER_DELETED else ", UPDATE, DELETE"
            conn.execute(text(f'GRANT {verbs} ON "{schema}"."{table}" TO "{role}"'))
        conn.execute(text(f'GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA "{schema}" TO "{role}"'))


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


KEY_ID = "key_id"


def recorded_key_id(engine: Engine) -> str | None:
    """The id of the key this database's chains were written with (None: never recorded)."""
    from qipai.ledger.schema import ledger_meta

    with engine.connect() as conn:
        conn.execution_options(qipai_read=True)
        with conn.begin():
            value = conn.execute(
                select(ledger_meta.c.value).where(ledger_meta.c.key == KEY_ID)
            ).scalar()
    return None if value is None else str(value)


def record_key_id(engine: Engine, key_id: str) -> None:
    """Record the key id on first use (a no-op once recorded; `keys.load` compared them)."""
    from qipai.ledger.schema import ledger_meta

    if recorded_key_id(engine) == key_id:
        return
    with engine.begin() as conn:
        table = ledger_meta
        stmt: Any
        if conn.dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import insert as pg_insert

            stmt = pg_insert(table).values(key=KEY_ID, value=key_id).on_conflict_do_nothing()
        else:
            from sqlalchemy.dialects.sqlite import insert as lite_insert

            stmt = lite_insert(table).values(key=KEY_ID, value=key_id).on_conflict_do_nothing()
        conn.execute(stmt)
    recorded = recorded_key_id(engine)
    if recorded != key_id:
        from qipai.ledger.errors import KeyMismatch

        raise KeyMismatch(
            f"another process recorded key id {recorded} for this database while this one "
            f"loaded key id {key_id}"
        )
