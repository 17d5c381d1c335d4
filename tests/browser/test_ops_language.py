"""The back office opens in the browser's language (navigator.languages) until the operator
chooses one with the language button; the choice then wins (qipai/web/ops/lang.js)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from roomserver import Server

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(Path(tmp_path_factory.mktemp("ops-lang")) / "room.db")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def _opened(browser: Any, srv: Server, locale: str, saved: str | None = None) -> str:
    context = browser.new_context(locale=locale, bypass_csp=True)
    try:
        page = context.new_page()
        if saved is not None:
            page.goto(srv.url + "/ops/")
            page.evaluate(f"localStorage.setItem('qipai.lang', '{saved}')")
        page.goto(srv.url + "/ops/")
        page.wait_for_selector("#ops-login")
        assert page.evaluate("[...qipaiOps.missing]") == []
        return str(page.evaluate("document.documentElement.lang"))
    finally:
        context.close()


def test_the_console_follows_the_browser_until_chosen(browser: Any, server: Server) -> None:
    assert _opened(browser, server, "en-US") == "en"
    assert _opened(browser, server, "zh-TW") == "zh"
    assert _opened(browser, server, "fr-FR") == "en"  # neither: English
    # the operator's choice (the language button saves it) wins over the browser's
    assert _opened(browser, server, "en-US", saved="zh") == "zh"
    assert _opened(browser, server, "zh-CN", saved="en") == "en"
