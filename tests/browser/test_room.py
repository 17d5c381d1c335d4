"""Browser tests of the player's room beyond a round's play (issue 21): a dropped connection
blocks the table behind an overlay and the action in flight is resent once and applied once;
the selected chip never changes silently; every refusal is translated by its code."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from roomserver import OUT, Server
from test_play import (
    PASSWORD,
    PHONE,
    games_available,
    quick_start,
    sign_up_and_deposit,
    switch_lang,
)

pytestmark = [pytest.mark.browser]

IN_BETTING = """() => { const s = qipai.state();
  return !!(s && s.round && !s.round.finished && s.round.phase === 'betting'
            && s.legal.some((a) => a.type === 'bet') && s.round.time_left > 6); }"""


def wait_betting(page: Any) -> None:
    page.wait_for_function(IN_BETTING, timeout=60000, polling=100)


def test_disconnect_overlay_and_the_pending_bet_is_resent_once_and_applied_once(
    page: Any, server: Server
) -> None:
    if "pokdeng" not in games_available(server):
        pytest.skip("no Pok Deng")
    frames: list[dict[str, Any]] = []
    routes: list[Any] = []
    drop = {"on": False}

    def handler(ws: Any) -> None:
        upstream = ws.connect_to_server()
        routes.append(ws)

        def from_page(message: str | bytes) -> None:
            frames.append(json.loads(message))
            upstream.send(message)

        def from_server(message: str | bytes) -> None:
            if not drop["on"]:  # while "on", the server's replies are lost on the way
                ws.send(message)

        ws.on_message(from_page)
        upstream.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws"), handler)
    sign_up_and_deposit(page, server)
    quick_start(page, "pokdeng")
    wait_betting(page)
    page.click(".chip[data-chip='100']")
    drop["on"] = True
    page.click(".pd-spot[data-spot=P1]")
    page.wait_for_function("qipai.store.get().pending.length === 1")
    sent = [f for f in frames if f.get("type") == "action"]
    assert len(sent) == 1
    client_id = sent[0]["client_id"]
    routes[-1].close()  # the connection drops before the ack arrived
    page.wait_for_selector("#conn-overlay", state="attached", timeout=5000)
    page.screenshot(path=str(OUT / "table-pokdeng-disconnected.png"))
    # the overlay takes every click: the felt cannot be bet on meanwhile
    hit = page.evaluate(
        """() => { const r = document.querySelector('.pd-spot[data-spot=P2]').getBoundingClientRect();
          const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return e ? (e.closest('#conn-overlay') ? 'overlay' : e.className) : null; }"""
    )
    assert hit == "overlay"
    drop["on"] = False  # reconnects until now lost their hello: the client retries after 5 s
    page.wait_for_selector("#conn-overlay", state="detached", timeout=40000)
    page.wait_for_function("qipai.store.get().pending.length === 0", timeout=10000)
    again = [f for f in frames if f.get("type") == "action" and f["client_id"] == client_id]
    assert len(again) == 2, again  # sent, then resent once after the reconnect
    page.wait_for_function(
        "(() => { const v = qipai.state().round.view; return v.me && v.me.bets.P1 === 100; })()"
    )
    assert page.evaluate("qipai.state().round.view.me.bets") == {"P1": 100}  # applied once


def test_the_chip_never_changes_silently(page: Any, server: Server) -> None:
    """Issue 21: with 10,000 at the table, bet the 5K chip (its hold takes all 10,000); the 5K
    chip stays selected (now disabled), and the next click says why instead of betting 100."""
    if "pokdeng" not in games_available(server):
        pytest.skip("no Pok Deng")
    sign_up_and_deposit(page, server)
    quick_start(page, "pokdeng")
    for lang in ("zh", "en"):
        switch_lang(page, lang)
        wait_betting(page)
        if page.evaluate("Object.keys(qipai.state().round.view.me.bets).length"):
            page.click("[data-action=clear]")
            page.wait_for_function("!Object.keys(qipai.state().round.view.me.bets).length")
        available = page.evaluate("qipai.state().round.view.me.available")
        chip = 5000 if available >= 10000 else 100 * (available // 200)
        page.click(f".chip[data-chip='{chip}']")
        page.click(".pd-spot[data-spot=P1]")
        page.wait_for_function(f"qipai.state().round.view.me.bets.P1 === {chip}")
        selected = page.locator(".chip[aria-pressed=true]")
        assert selected.count() == 1 and selected.get_attribute("data-chip") == str(chip)
        if chip == 5000:
            assert selected.is_disabled()  # cannot be afforded again: shown, not swapped
        before = page.evaluate("JSON.stringify(qipai.state().round.view.me.bets)")
        page.click(".pd-spot[data-spot=P2]")
        page.wait_for_selector("#toast.bad")
        note = page.locator("#toast").inner_text()
        assert ("余额不足" in note) if lang == "zh" else ("Not enough money" in note)
        page.wait_for_timeout(400)
        assert page.evaluate("JSON.stringify(qipai.state().round.view.me.bets)") == before
        assert page.locator(".chip[aria-pressed=true]").get_attribute("data-chip") == str(chip)
        page.screenshot(path=str(OUT / f"table-pokdeng-chip-{lang}.png"))
        page.click("[data-action=clear]")
        page.wait_for_function("!Object.keys(qipai.state().round.view.me.bets).length")


def test_errors_are_translated_by_code(page: Any, server: Server) -> None:
    """A short username, a deposit over the limit: the page says what is wrong in the UI's
    language, with no browser bubble in another language."""
    page.goto(server.url + "/")
    for lang in ("zh", "en"):
        switch_lang(page, lang)
        page.fill("#login-user", "ab")
        page.fill("#login-pass", PASSWORD)
        page.click("#btn-signup")
        text = page.locator("#login-error").inner_text()
        assert ("用户名" in text) if lang == "zh" else ("username" in text.lower())
    sign_up_and_deposit(page, server)
    page.set_viewport_size(PHONE)
    for lang in ("zh", "en"):
        switch_lang(page, lang)
        page.click("#btn-deposit")
        page.fill("#dlg-deposit input[type=number]", "2000000")
        page.click("#dlg-deposit .go")
        text = page.locator("#dlg-deposit .error-text").inner_text()
        assert ("充值" in text and "1,000,000" in text) if lang == "zh" else ("1,000,000" in text)
        page.screenshot(path=str(OUT / f"deposit-limit-{lang}.png"))
        page.click("#dlg-deposit .btn.ghost")
