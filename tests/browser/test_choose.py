"""Browser tests of the room players choose: each Pok Deng mode its own lobby entry and the
chosen one opened; Pok Deng's banker spots (B1–B5) and pair spots on screen inside the felt at a
desktop and a phone size, each a tap target of at least 44 px; Hold'em Bonus's side bets unticked
on a fresh table; what silence will do said beside the countdown; the rules as a page of the room
in Chinese with the table's pay table. Screenshots land in test-output/ (choose-*.png)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from roomserver import OUT, Server
from test_play import (
    DESKTOP,
    P1_HEAD,
    PHONE,
    games_available,
    quick_start,
    sign_up_and_deposit,
    switch_lang,
)

pytestmark = [pytest.mark.browser]

MY_BET = """() => { const s = qipai.state();
  return !!(s && s.round && !s.round.finished && s.legal.some((a) => a.type === 'bet')
            && s.round.time_left > 3); }"""

# Boxes of the selector's elements, the felt's and the window's.
BOXES_JS = """(sel) => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return {x: r.left, y: r.top, r: r.right, b: r.bottom, h: r.height, w: r.width, id: e.dataset.spot || e.id}; };
  return {items: [...document.querySelectorAll(sel)].map(box), felt: box(document.getElementById('felt')),
          width: window.innerWidth, height: window.innerHeight};
}"""


def inside(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (
        a["x"] >= b["x"] - 0.5
        and a["r"] <= b["r"] + 0.5
        and a["y"] >= b["y"] - 0.5
        and a["b"] <= b["b"] + 0.5
    )


def test_each_pok_deng_mode_is_its_own_choice_and_opens_its_own_table(
    page: Any, server: Server
) -> None:
    if "pokdeng" not in games_available(server):
        pytest.skip("no pokdeng")
    sign_up_and_deposit(page, server)
    modes = page.locator(".game-card[data-game=pokdeng]")
    assert modes.count() >= 2
    names = {modes.nth(i).locator(".game-name b").inner_text() for i in range(modes.count())}
    assert len(names) == modes.count(), names  # the entries read differently
    quick_start(page, "pokdeng", "pokdeng-classic")
    page.wait_for_function("qipai.state() && qipai.state().table")
    assert page.evaluate("qipai.state().table.terms.template.id") == "pokdeng-classic"
    assert page.evaluate("qipai.state().table.terms.config.mode") == "classic"


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_pok_deng_banker_and_pair_spots_are_on_screen_and_big_enough_to_tap(
    page: Any, server: Server, size: str
) -> None:
    if "pokdeng" not in games_available(server):
        pytest.skip("no pokdeng")
    sign_up_and_deposit(page, server)
    quick_start(page, "pokdeng", "pokdeng-banker-player")
    page.set_viewport_size(DESKTOP if size == "desktop" else PHONE)
    page.wait_for_function(MY_BET, timeout=90000, polling=100)
    for lang in ("zh", "en"):
        switch_lang(page, lang)
        page.wait_for_timeout(300)
        page.evaluate("window.scrollTo(0, 0)")
        found = page.evaluate(BOXES_JS, ".pd-spot, .pd-sub")
        spots = {i["id"] for i in found["items"]}
        want = {f"B{n}" for n in range(1, 6)} | {f"P{n}" for n in range(1, 6)}
        want |= {f"P{n} pair" for n in range(1, 6)} | {"B pair"}
        assert want <= spots, want - spots
        for item in found["items"]:
            where = f"{size} {lang} {item['id']}"
            assert inside(item, found["felt"]), f"{where} is not inside the felt {item}"
            assert item["b"] <= found["height"] and item["y"] >= 0, f"{where} off screen {item}"
        for item in found["items"]:
            if " pair" in item["id"] or item["id"].startswith("B"):
                assert item["h"] >= 44 - 0.5, f"{size} {lang} {item['id']}: {item['h']} px high"
        page.screenshot(path=str(OUT / f"choose-pokdeng-banker-player-{lang}-{size}.png"))
    # a tap on B3 bets on the banker against P3
    page.locator(".pd-sub[data-spot=B3]").click()
    page.wait_for_function("(qipai.state().round.view.me.bets || {})['B3'] > 0", timeout=10000)


def test_holdem_side_bets_start_unticked(page: Any, server: Server) -> None:
    if "holdem-bonus" not in games_available(server):
        pytest.skip("no holdem-bonus")
    sign_up_and_deposit(page, server)
    quick_start(page, "holdem-bonus")
    page.wait_for_function(MY_BET, timeout=90000, polling=100)
    page.wait_for_selector("#he-pool")
    assert page.locator("#he-pool").is_checked() is False
    assert page.locator("#he-bonus").is_checked() is False
    silent = page.locator("#turn-line #silence-note")
    assert silent.count() == 1 and silent.is_visible()


def test_the_rules_are_a_page_of_the_room_in_chinese(page: Any, server: Server) -> None:
    if "pokdeng" not in games_available(server):
        pytest.skip("no pokdeng")
    sign_up_and_deposit(page, server)
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        for lang in ("zh", "en"):
            switch_lang(page, lang)
            page.goto(server.url + "/#/rules/pokdeng/pokdeng-banker-player")
            page.wait_for_selector("#view-rules #rules-text h2")
            page.wait_for_selector("#rules-facts [data-pay-table]")
            text = page.locator("#rules-text").inner_text()
            assert "{" not in text and "**" not in text
            if lang == "zh":
                latin = re.findall(r"[A-Za-z]{2,}", re.sub(r"\b(?:P[1-5]|B[1-5])\b", " ", text))
                assert latin == [], latin
            width = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert width <= 1, f"rules {lang} {size}: scrolls sideways"
            page.screenshot(path=str(OUT / f"choose-rules-{lang}-{size['width']}.png"))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_red_note_never_covers_help_or_leave(page: Any, server: Server, size: str) -> None:
    if "pokdeng" not in games_available(server):
        pytest.skip("no pokdeng")
    sign_up_and_deposit(page, server)
    quick_start(page, "pokdeng", "pokdeng-classic")
    page.set_viewport_size(DESKTOP if size == "desktop" else PHONE)
    page.wait_for_function(MY_BET, timeout=90000, polling=100)
    page.locator("#actions .chip:not([disabled])").last.click()
    for _ in range(12):  # the biggest chip again and again: the hold outgrows the stack
        if page.locator("#toast.bad").count():
            break
        page.click(".pd-spot[data-spot=P1]", position=P1_HEAD)
        page.wait_for_timeout(200)
    page.wait_for_selector("#toast.bad")
    boxes = page.evaluate(
        """() => Object.fromEntries(['toast', 'btn-help', 'btn-leave'].map((id) => {
             const r = document.getElementById(id).getBoundingClientRect();
             return [id, {x: r.left, y: r.top, r: r.right, b: r.bottom}]; }))"""
    )
    toast = boxes.pop("toast")
    for name, b in boxes.items():
        apart = (
            toast["r"] <= b["x"]
            or b["r"] <= toast["x"]
            or toast["b"] <= b["y"]
            or b["b"] <= toast["y"]
        )
        assert apart, f"{size}: the note {toast} covers {name} {b}"
    assert (
        page.evaluate("getComputedStyle(document.getElementById('toast')).pointerEvents") == "none"
    )
    page.screenshot(path=str(OUT / f"choose-note-{size}.png"))


def test_a_deposit_of_a_fraction_is_told_it_must_be_whole(page: Any, server: Server) -> None:
    sign_up_and_deposit(page, server)
    for lang, word in (("zh", "整数"), ("en", "whole number")):
        switch_lang(page, lang)
        page.click("#btn-deposit")
        page.fill("#dlg-deposit input[type=number]", "12.5")
        page.click("#dlg-deposit .go")
        page.wait_for_function(
            f"document.querySelector('#dlg-deposit .error-text').textContent.includes('{word}')"
        )
        page.keyboard.press("Escape")
        page.wait_for_selector("#dlg-deposit", state="detached")
