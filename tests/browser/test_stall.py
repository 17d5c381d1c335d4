"""A network stall of 20 s in the middle of a bet (docs/protocol.md, "Heartbeat" and "State
versions"): the page says "reconnecting" and covers the table while the connection is silent,
and the bet clicked into the stall is either placed in the round it was made for or reported as
not placed — never placed in a later round.

The stall is made on the page's WebSocket (Playwright's route): for 20 s nothing passes either
way and new connections get no answer, as when a network drops packets; the server gives the
silent socket up (its heartbeat) and the page reconnects once the network is back."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from roomserver import OUT, Server
from test_play import games_available, quick_start, sign_up_and_deposit, switch_lang
from test_room import wait_betting

pytestmark = [pytest.mark.browser]

STALL_S = 20.0


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_bet_clicked_into_a_stall_is_placed_in_its_round_or_reported(
    page: Any, server: Server, lang: str
) -> None:
    if "pokdeng" not in games_available(server):
        pytest.skip("no Pok Deng")
    stalled = {"on": False}
    to_server: list[dict[str, Any]] = []  # every frame the page sent, and whether it got through
    to_page: list[dict[str, Any]] = []  # every frame the server sent that reached the page

    def handler(ws: Any) -> None:
        if stalled["on"]:
            return  # a connection made during the stall: never answered (the page times it out)
        upstream = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") == "auth" and frame.get("deltas"):
                # whole states rather than deltas (docs/protocol.md, "Deltas"), so that this
                # test reads every state the page was sent
                frame["deltas"] = False
                message = json.dumps(frame)
            to_server.append({**frame, "_through": not stalled["on"]})
            if not stalled["on"]:
                upstream.send(message)

        def from_server(message: str | bytes) -> None:
            if not stalled["on"]:
                to_page.append(json.loads(message))
                ws.send(message)

        ws.on_message(from_page)
        upstream.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws"), handler)
    sign_up_and_deposit(page, server)
    switch_lang(page, lang)
    quick_start(page, "pokdeng")
    wait_betting(page)
    page.wait_for_function("qipai.store.get().conn === 'open'")
    round_n = page.evaluate("qipai.state().round.round_id")
    # the network stalls; the player, who cannot know yet, bets
    stalled["on"] = True
    began = time.monotonic()
    page.locator("#actions .chip:not([disabled])").first.click()
    page.click(".pd-spot[data-spot=P1]")
    page.wait_for_function("qipai.store.get().pending.length === 1")
    [bet] = [f for f in to_server if f["type"] == "action"]
    assert bet["_through"] is False and bet["version"].startswith(round_n + ".")
    # the page notices the silence by itself (its heartbeat) and covers the table
    page.wait_for_selector("#conn-overlay", state="attached", timeout=15000)
    assert page.evaluate("qipai.store.get().conn") == "reconnecting"
    text = page.locator("#conn-overlay").inner_text()
    assert ("重新连接" in text) if lang == "zh" else ("reconnecting" in text.lower()), text
    page.screenshot(path=str(OUT / f"table-pokdeng-stalled-{lang}.png"))
    page.wait_for_timeout(max(0.0, STALL_S - (time.monotonic() - began)) * 1000)
    stalled["on"] = False
    page.wait_for_selector("#conn-overlay", state="detached", timeout=60000)
    page.wait_for_function("qipai.store.get().pending.length === 0", timeout=30000)
    answers = [f for f in to_page if f.get("client_id") == bet["client_id"]]
    assert len(answers) == 1, answers
    [answer] = answers
    resent = [f for f in to_server if f.get("client_id") == bet["client_id"] and f["_through"]]
    assert [f["version"] for f in resent] == [bet["version"]]  # the same state, once
    if answer["type"] == "ack":  # placed: only possible in its own round, still running
        states = [m for m in to_page if m["type"] == "state" and m.get("round")]
        assert states[-1]["round"]["round_id"] == round_n
        page.wait_for_function("!!qipai.state().round.view.me.bets.P1")
        return
    assert answer["code"] == "stale_action", answer
    # the round had moved on: another round, or the betting of this one had closed
    assert answer.get("round_id") != round_n or answer.get("phase") != "betting", answer
    log = page.locator("#log").inner_text()
    said = "下注未成交" if lang == "zh" else "Your bet was not placed: the round had moved on"
    assert said in log, log
    page.screenshot(path=str(OUT / f"table-pokdeng-not-placed-{lang}.png"))
    # and never placed, then or later: no state since shows a bet of mine
    after = [m for m in to_page if m["type"] == "state" and m.get("round")]
    last_seen = max(i for i, m in enumerate(after) if m["version"] == bet["version"])
    after = after[last_seen + 1 :]
    assert after and all(not m["round"]["view"]["me"]["bets"] for m in after)
