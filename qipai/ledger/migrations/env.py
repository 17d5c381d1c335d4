"""Alembic environment for the ledger: runs on the connection `qipai.ledger.db.migrate` passes."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from qipai.ledger.schema import metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = context.config.get_main_option("sqlalchemy.url")
    if not url:
        from qipai.ledger.db import resolve_url

        url = resolve_url(None)
    engine = create_engine(url)
    with engine.begin() as conn:
        _run(conn)
    engine.dispose()


run()
