"""Browser tests of the player's room beyond a round's play (ARCHITECTURE.md, "The browser client"): a dropped connection
blocks the table behind an overlay and the action in flight is resent once and applied once;
the selected chip never changes silently; every refusal is translated by its code."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from roomserver import OUT, Server
from test_play import (
    DESKTOP,
    LAPTOP,
    P1_HEAD,
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


# My turn with time to spare (the action sent below must reach the server before the countdown).
MY_TURN = """() => { const s = qipai.state();
  return !!(s && s.round && !s.round.finished && s.legal.length && s.round.time_left > 2.5
            && document.querySelector('#actions button.action:not([disabled]), #actions .chip:not([disabled]), #dock .tile.clickable')); }"""

# Each game once in the default run, the sizes and languages spread over them; every game at
# every size in both languages under `-m slow`.
SIZES = {"desktop": DESKTOP, "laptop": LAPTOP, "phone": PHONE}
SPREAD = [
    ("pokdeng", "phone", "zh"),
    ("paigow", "laptop", "en"),
    ("niuniu", "desktop", "zh"),
    ("tiengow", "phone", "en"),
    ("holdem-bonus", "laptop", "zh"),
]
MATRIX = [
    pytest.param(g, size, lang, marks=[] if (g, size, lang) in SPREAD else [pytest.mark.slow])
    for g in ("pokdeng", "paigow", "niuniu", "tiengow", "holdem-bonus")
    for size in SIZES
    for lang in ("zh", "en")
]


def one_action(page: Any, game: str) -> None:
    """Click one action of my turn (its reply is lost on the way, so nothing is waited for)."""
    if game == "pokdeng":
        page.locator("#actions .chip:not([disabled])").first.click()
        page.click(".pd-spot[data-spot=P1]", position=P1_HEAD)
    elif game == "tiengow":  # one of the plays the server offers, else a discard of the size asked
        legal = page.evaluate("qipai.state().legal")
        play = next((a for a in legal if a["type"] == "play" and a.get("plays")), None)
        if play is not None:
            for tile in play["plays"][0]:
                page.click(f".tile-row.mine .tile[data-id='{tile}']")
            page.click("[data-action=play]")
        else:
            discard = next(a for a in legal if a["type"] == "discard")
            if discard.get("choices"):
                for tile in discard["choices"][0]:
                    page.click(f".tile-row.mine .tile[data-id='{tile}']")
            else:
                tiles = page.locator(".tile-row.mine .tile.clickable")
                for i in range(discard["count"]):
                    tiles.nth(i).click()
            page.click("[data-action=discard]")
        return
    else:
        page.locator("#actions button.action:not([disabled])").first.click()


@pytest.mark.parametrize(("game", "size", "lang"), MATRIX)
def test_disconnect_overlay_and_the_pending_action_is_resent_once_and_applied_once(
    page: Any, server: Server, game: str, size: str, lang: str
) -> None:
    """The connection drops while my action is in flight (its ack lost): an overlay covers the
    table and takes every click; on return the action is sent once more with the same client_id,
    and the server applies it once (the repeat is acknowledged as a duplicate, no error)."""
    if game not in games_available(server):
        pytest.skip(f"no {game}")
    to_page: list[dict[str, Any]] = []  # every server frame, delivered or lost
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
            to_page.append({**json.loads(message), "_lost": drop["on"]})
            if not drop["on"]:  # while "on", the server's replies are lost on the way
                ws.send(message)

        ws.on_message(from_page)
        upstream.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws"), handler)
    sign_up_and_deposit(page, server)
    page.set_viewport_size(SIZES[size])
    switch_lang(page, lang)
    quick_start(page, game)
    page.wait_for_function(MY_TURN, timeout=90000, polling=100)
    drop["on"] = True
    one_action(page, game)
    page.wait_for_function("qipai.store.get().pending.length === 1")
    sent = [f for f in frames if f.get("type") == "action"]
    assert len(sent) == 1, sent
    client_id = sent[0]["client_id"]
    routes[-1].close()  # the connection drops before the ack arrived
    page.wait_for_selector("#conn-overlay", state="attached", timeout=5000)
    page.screenshot(path=str(OUT / f"table-{game}-disconnected-{lang}-{SIZES[size]['width']}.png"))
    # the overlay takes every click: neither the felt nor the action bar can be used meanwhile
    hits = page.evaluate(
        """() => ['#felt', '#dock'].map((q) => { const r = document.querySelector(q).getBoundingClientRect();
          const x = Math.min(r.left + r.width / 2, innerWidth - 2), y = Math.min(r.top + r.height / 2, innerHeight - 2);
          const e = document.elementFromPoint(x, Math.max(y, 1));
          return e ? (e.closest('#conn-overlay') ? 'overlay' : e.className) : null; })"""
    )
    assert hits == ["overlay", "overlay"], hits
    text = page.locator("#conn-overlay").inner_text()
    assert ("重新连接" in text) if lang == "zh" else ("reconnecting" in text.lower()), text
    drop["on"] = False  # reconnects until now lost their hello: the client retries after 5 s
    page.wait_for_selector("#conn-overlay", state="detached", timeout=40000)
    page.wait_for_function("qipai.store.get().pending.length === 0", timeout=10000)
    again = [f for f in frames if f.get("type") == "action" and f["client_id"] == client_id]
    assert len(again) == 2, again  # sent, then resent once after the reconnect
    assert again[0]["action"] == again[1]["action"]
    answers = [f for f in to_page if f.get("client_id") == client_id]
    delivered = [(f["type"], f.get("duplicate")) for f in answers if not f["_lost"]]
    lost = [(f["type"], f.get("duplicate")) for f in answers if f["_lost"]]
    # the page heard one answer: an ack, a duplicate one if the first send had been applied
    # (its ack lost with the connection, or never sent on the closed socket); never an error
    assert len(delivered) == 1 and delivered[0][0] == "ack", answers
    assert lost in ([], [("ack", False)]), answers
    assert delivered[0][1] is bool(lost) or delivered[0][1] is True, answers
    if game == "pokdeng":  # applied once: one chip on P1, not two
        page.wait_for_function(
            "(() => { const v = qipai.state().round.view; return v.me && Object.keys(v.me.bets).length > 0; })()"
        )
        bets = page.evaluate("qipai.state().round.view.me.bets")
        assert list(bets) == ["P1"] and bets["P1"] == again[0]["action"]["amount"], bets


def test_the_chip_never_changes_silently(page: Any, server: Server) -> None:
    """With 10,000 at the table, bet the 5K chip (its hold takes all 10,000); the 5K
    chip stays selected (now disabled), and the next click says why instead of betting 100."""
    if "pokdeng" not in games_available(server):
        pytest.skip("no Pok Deng")
    sign_up_and_deposit(page, server)
    quick_start(page, "pokdeng")
    for lang, size in (("zh", PHONE), ("en", LAPTOP)):
        page.set_viewport_size(size)
        switch_lang(page, lang)
        wait_betting(page)
        if page.evaluate("Object.keys(qipai.state().round.view.me.bets).length"):
            page.click("[data-action=clear]")
            page.wait_for_function("!Object.keys(qipai.state().round.view.me.bets).length")
        available = page.evaluate("qipai.state().round.view.me.available")
        chip = 5000 if available >= 10000 else 100 * (available // 200)
        page.click(f".chip[data-chip='{chip}']")
        page.click(".pd-spot[data-spot=P1]", position=P1_HEAD)
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
        page.screenshot(path=str(OUT / f"table-pokdeng-chip-{lang}-{size['width']}.png"))
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


def test_motion_follows_prefers_reduced_motion_and_the_mute_is_remembered(
    page: Any, server: Server
) -> None:
    """The deal, flip, squeeze (a Pok Deng / Niu Niu reveal), chips-to-winner and banner
    animations run, and none of them under prefers-reduced-motion; the sound toggle survives a
    reload."""
    sign_up_and_deposit(page, server)
    probe = """() => ['card back deal', 'card face deal', 'chip to-me', 'chip to-house', 'banner win',
        'card face deal squeeze']
      .map((cls) => { const e = document.createElement('div'); e.className = cls;
        document.body.append(e); const name = getComputedStyle(e).animationName; e.remove();
        return name; })"""
    for motion in ("no-preference", "reduce"):
        page.emulate_media(reduced_motion=motion)
        names = page.evaluate(probe)
        if motion == "reduce":
            assert names == ["none"] * 6, names
        else:
            assert "none" not in names, names
            assert names == [
                "deal-in",
                "flip-in",
                "chip-to-me",
                "chip-to-house",
                "banner-in",
                "squeeze-in",
            ]
    assert page.get_attribute("#btn-sound", "aria-pressed") == "false"
    page.click("#btn-sound")
    page.wait_for_function("qipai.sound.muted === true")
    page.reload()
    page.wait_for_selector("#view-lobby:not([hidden])")
    assert page.get_attribute("#btn-sound", "aria-pressed") == "true"
    assert page.evaluate("qipai.sound.muted") is True
    page.click("#btn-sound")
    page.wait_for_function("qipai.sound.muted === false")


TABLES_OF = """async (game) => {
  const r = await fetch('/api/tables', { headers: { Authorization: 'Bearer ' + localStorage.getItem('qipai.token') } });
  return (await r.json()).tables.filter((t) => t.game === game).length; }"""
IDLE = "() => !Object.keys(qipai.store.get().busy).length && !qipai.store.get().pending.length"
NO_RED = """() => !document.querySelector('#toast.bad')
  && !(document.getElementById('action-error') || { textContent: '' }).textContent.trim()"""


def test_double_clicks_do_one_thing_and_show_no_error(page: Any, server: Server) -> None:
    """Double-clicking "new table" opens exactly one table; double-clicking an action sends it
    once (the second click is dropped while the first is pending): no red error either time."""
    sign_up_and_deposit(page, server)
    games = games_available(server)
    game = "niuniu" if "niuniu" in games else sorted(games)[0]
    before = page.evaluate(TABLES_OF, game)
    page.dblclick(f".new-table[data-game='{game}']")
    page.wait_for_selector("#view-table:not([hidden])")
    page.wait_for_function(IDLE)
    assert page.evaluate(TABLES_OF, game) == before + 1
    assert page.evaluate(NO_RED), page.locator("#toast").all_inner_texts()
    # an action at a table: my seat, bots, my turn, and a double click on its first button
    page.click("#btn-back")
    quick_start(page, game)
    page.wait_for_function(MY_TURN, timeout=60000, polling=100)
    sent = page.evaluate(
        "() => { window.__sent = 0; const ws = qipai.socket.ws; const send = ws.send.bind(ws);"
        " ws.send = (m) => { if (JSON.parse(m).type === 'action') window.__sent++; send(m); }; return 0; }"
    )
    assert sent == 0
    page.locator("#actions button.action:not([disabled])").first.dblclick()
    page.wait_for_function(IDLE)
    assert page.evaluate("window.__sent") == 1
    assert page.evaluate(NO_RED), page.locator("#action-error").inner_text()
    page.screenshot(path=str(OUT / f"double-click-{game}.png"))
