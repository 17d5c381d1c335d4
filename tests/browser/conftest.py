"""A real server subprocess and Debian's chromium for the browser tests.

Without /usr/bin/chromium the tests skip with a reason; under CI=true that is a failure
(`require_service`). Browsers are never downloaded.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import require_service
from roomserver import ARGS, CHROMIUM, OUT, Server

# (every test signs up from 127.0.0.1: the server's per-address sign-up limit is raised)
FAST = {
    "QIPAI_BOT_DELAY": "0.15",
    "QIPAI_BETWEEN_ROUNDS": "1.5",
    "QIPAI_SIGNUP_RATE": "1000/minute",
}


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("room") / "room.db", FAST)
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    require_service(os.path.exists(CHROMIUM), f"chromium at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    OUT.mkdir(exist_ok=True)
    # Playwright's wait_for_function evaluates strings, which the server's CSP forbids
    # (script-src 'self'); the client itself under the CSP: tests/server/test_browser_csp.py
    context = browser.new_context(viewport={"width": 1400, "height": 950}, bypass_csp=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors
    yield pg
    context.close()
    assert not errors, f"JavaScript errors: {errors}"
