"""Terms per table in Chromium (docs/operators.md "Tables on older versions"): a player sits at a
Niu Niu table (each round is its own deal unit); the operator publishes a new version of its
template, sees the table behind it in the console's Versions tab and moves it at the boundary
with a reason; the player's table then plays the new version from its next round, and the
player is told and shown the new version in the help panel. Screenshots: test-output/ops-versions*.png."""

from __future__ import annotations

import time
from typing import Any

import pytest
from roomserver import OUT, Server
from test_ops_console import _http, _sign_in, ops_server
from test_play import play_step, quick_start, sign_up_and_deposit

pytestmark = [pytest.mark.browser]
__all__ = ["ops_server"]

TEMPLATE = "niuniu"


def test_an_operator_moves_a_table_to_the_new_version_and_the_player_is_told(
    browser: Any, ops_server: tuple[Server, str, str]
) -> None:
    srv, secret, token = ops_server
    # the room's CSP forbids string evaluation; the test's own probes need it
    player = browser.new_page(bypass_csp=True)
    sign_up_and_deposit(player, srv)
    quick_start(player, "niuniu", TEMPLATE)
    player.wait_for_function("qipai.state() !== null")
    table_id = player.evaluate("qipai.state().table.id")
    before = player.evaluate("qipai.state().table.terms.template.version")
    player.evaluate(
        "(() => { window.__toasts = []; new MutationObserver(() => {"
        " const t = document.getElementById('toast'); if (t) window.__toasts.push(t.textContent);"
        " }).observe(document.body, { childList: true, subtree: true }); })()"
    )

    status, changed = _http(
        f"{srv.url}/api/ops/templates/{TEMPLATE}",
        "PUT",
        {"base_version": before, "settings": {"commission": "0.03"}, "reason": "lower commission"},
        token,
    )
    assert status == 200, changed
    newest = changed["version"]

    ops = browser.new_page(bypass_csp=True)
    _sign_in(ops, srv, secret)
    ops.goto(srv.url + "/ops/#/versions")
    row = f"#versions-tables tr[data-table='{table_id}']"
    ops.wait_for_selector(f"{row}[data-behind=true]")
    ops.once("dialog", lambda d: d.accept("new commission from today"))
    ops.click(f"{row} button[data-choice=at_boundary]")
    ops.wait_for_selector(f"{row}[data-pending='{newest}']")
    ops.screenshot(path=str(OUT / "ops-versions.png"), full_page=True)

    deadline = time.time() + 120
    while time.time() < deadline:
        if player.evaluate("qipai.state().table.terms.template.version") == newest:
            break
        if player.evaluate(
            "(() => { const s = qipai.state(); return !!(s && s.you.in_round && s.round && "
            "!s.round.finished); })()"
        ):
            play_step(player, "niuniu")
        player.wait_for_timeout(200)
    assert player.evaluate("qipai.state().table.terms.template.version") == newest
    player.wait_for_function(
        "window.__toasts.some((t) => t.includes('version') || t.includes('版'))", timeout=10_000
    )
    player.click("#btn-help")
    player.wait_for_selector("#help .help-rtp")
    shown = f"/version {newest}\\)|第 {newest} 版/"  # the help panel's version line, en or zh
    player.wait_for_function(
        f"{shown}.test(document.querySelector('#help .help-rtp').textContent)",
        timeout=10_000,
    )
    player.screenshot(path=str(OUT / "ops-versions-player.png"), full_page=True)

    # the move is in the operator log, with its reason
    _, log = _http(f"{srv.url}/api/ops/log?target={table_id}", token=token)
    rows = log["entries"] if isinstance(log, dict) and "entries" in log else log
    assert any(
        r["action"] == "table.terms_move" and r["reason"] == "new commission from today"
        for r in rows
    ), rows
    ops.close()
    player.close()
