"""Shared test fixtures: service availability that skips locally and fails under CI."""

from __future__ import annotations

import os
import socket

import pytest

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
# The PostgreSQL server the tests use: the machine's own by default (trust auth, database
# `test`), another with QIPAI_TEST_PG_URL (each test still works in a schema of its own).
PG_URL = os.environ.get("QIPAI_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def pg_port_open(url: str = PG_URL) -> bool:
    """Whether the server of a PostgreSQL URL listens (a cheap check before connecting)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    return port_open(parsed.host or "127.0.0.1", parsed.port or 5432)


# Every PostgreSQL batch of the ledger, in every test and in the processes tests start, also
# builds its statement's text afresh and checks it against the text kept for its shape
# (`qipai.ledger.execute_pg._Sql`): a shape that leaves out something the text depends on fails
# the test that meets it (it was on for tests/ledger only).
os.environ["QIPAI_LEDGER_VERIFY_TEXTS"] = "1"


@pytest.fixture(autouse=True)
def verify_statement_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    from qipai.ledger import execute_pg

    monkeypatch.setattr(execute_pg, "VERIFY_TEXTS", True)


def require_service(available: bool, what: str) -> None:
    """Skip a test whose service is missing, with a clear reason; under CI=true, fail instead."""
    if available:
        return
    if IN_CI:
        pytest.fail(f"{what} is required under CI (CI=true) but is not available", pytrace=False)
    pytest.skip(f"{what} is not available on this machine")


def port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False
