"""The browser client works under the server's Content-Security-Policy (no inline script, no
eval, connections to its own origin only): a person signs up, deposits, quick-starts a table,
the WebSocket connects (authenticated by its first message), and no CSP violation is reported.

(The other browser tests bypass the CSP because Playwright's `wait_for_function` evaluates
strings; this one drives the page with selectors only.)"""

from __future__ import annotations

import os
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "browser"))
from roomserver import ARGS, CHROMIUM, Server

from tests.conftest import require_service

pytestmark = [pytest.mark.browser]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "room.db", {"QIPAI_BOT_DELAY": "0.15", "QIPAI_BETWEEN_ROUNDS": "1.5"})
    srv.start()
    yield srv
    srv.stop()


def test_the_client_runs_under_the_csp(server: Server) -> None:
    require_service(os.path.exists(CHROMIUM), f"chromium at {CHROMIUM}")
    # in a thread of its own: the browser tests' session-wide Playwright may be running its
    # loop in this one, and a second sync Playwright refuses to start beside it
    failures: list[BaseException] = []
    violations: list[str] = []

    def run() -> None:
        try:
            drive(server, violations)
        except BaseException as exc:
            failures.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if failures:
        raise failures[0]
    assert violations == []


def drive(server: Server, violations: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            page: Any = browser.new_context(viewport={"width": 1400, "height": 950}).new_page()
            page.on("pageerror", lambda e: violations.append(f"pageerror: {e}"))
            page.on(
                "console",
                lambda m: (
                    violations.append(m.text) if "Content Security Policy" in m.text else None
                ),
            )
            page.goto(server.url + "/")
            page.fill("#login-user", "p" + uuid.uuid4().hex[:10])
            page.fill("#login-pass", "secret-pw")
            page.click("#btn-signup")
            page.wait_for_selector("#view-lobby:not([hidden])")
            page.wait_for_selector(".game-card")
            page.click("#btn-history")
            page.wait_for_selector("#view-history:not([hidden])")
            page.click("#btn-history-back")  # was an inline onclick, which the CSP blocks
            page.wait_for_selector("#view-lobby:not([hidden])")
            page.click("#btn-deposit")
            page.click(".chip-btn[data-amount='100000']")
            page.click("#btn-deposit-go")
            page.wait_for_selector("#wallet:has-text('100,000')")
            page.click(".quick[data-game='pokdeng']")
            page.wait_for_selector("#view-table:not([hidden])")
            page.wait_for_selector("#conn-state.ok", timeout=30_000)
            page.wait_for_selector("#stage .seat", timeout=30_000)
        finally:
            browser.close()
