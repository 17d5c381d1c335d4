"""The player's side: before sitting and betting, a player sees the Pok Deng pay table,
the limits and the exact return of each bet — in the lobby (the operator's offer) and at the
table (its help panel) — in both languages, exactly as the server states them."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from roomserver import OUT, Server
from test_play import quick_start, sign_up_and_deposit, switch_lang

pytestmark = [pytest.mark.browser]


def offer(server: Server, template: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/api/templates?game=pokdeng", timeout=60) as r:
        found = [t for t in json.load(r)["templates"] if t["template"]["id"] == template]
    assert found, f"no template {template}"
    return found[0]


def check_terms(box: Any, facts: dict[str, Any], lang: str, where: str) -> None:
    """The pay table, the limits and the return as the server gave them, in `lang`."""
    text = box.inner_text()
    for bet in facts["pay_table"]["bets"]:
        assert bet["label"][lang] in text, f"{where}: bet {bet['label'][lang]!r} missing"
        for pay in bet["pays"]:
            assert pay["when"][lang] in text, f"{where}: {pay['when'][lang]!r} missing"
            if pay["odds"] != "push":
                assert pay["odds"] in text, f"{where}: odds {pay['odds']} missing"
    for limit in facts["pay_table"]["limits"]:
        row = box.locator(f".pay-limits tr[data-limit='{limit['bet']}']").inner_text()
        assert f"{limit['min']:,}" in row and f"{limit['max']:,}" in row, f"{where}: {row}"
    for r in facts["rtp"]:
        row = box.locator(f".rtp-table tr[data-rtp-bet='{r['bet']}']").inner_text()
        assert f"{r['rtp_percent']}%" in row and r["label"][lang] in row, f"{where}: {row}"
    other = "en" if lang == "zh" else "zh"
    assert facts["pay_table"]["bets"][1]["label"][other] not in text or (
        other == "en" and lang == "zh"
    )


def test_pok_deng_pay_table_limits_and_return_in_the_lobby(page: Any, server: Server) -> None:
    facts = offer(server, "pokdeng-classic")
    assert facts["rtp"], "the server computed no return for the shipped template"
    sign_up_and_deposit(page, server)
    for lang in ("zh", "en"):
        switch_lang(page, lang)
        box = page.locator(".game-card[data-game=pokdeng] .offer[data-template=pokdeng-classic]")
        box.locator("summary").click()
        box.locator(".rtp-table").wait_for()
        # the buy-in range stands on the entry itself, above its folded pay table
        entry = page.locator(".game-card[data-template=pokdeng-classic] .game-limits")
        assert f"{facts['min_buy_in']:,}" in entry.inner_text()
        check_terms(box, facts, lang, f"lobby {lang}")
        page.screenshot(path=str(OUT / f"lobby-pokdeng-terms-{lang}.png"), full_page=True)
        box.locator("summary").click()


def test_pok_deng_pay_table_limits_and_return_at_the_table(page: Any, server: Server) -> None:
    sign_up_and_deposit(page, server)
    quick_start(page, "pokdeng")
    terms = page.evaluate("qipai.state().table.terms || null")
    # quick start picks one of the operator's Pok Deng templates: the table names it, and its
    # settings are exactly that template's (the same config hash as the offer)
    assert terms and terms.get("template"), f"the table does not name its template: {terms}"
    facts = offer(server, terms["template"]["id"])
    assert terms["config_hash"] == facts["config_hash"], (terms, facts)
    for lang in ("zh", "en"):
        switch_lang(page, lang)
        page.click("#btn-help")
        box = page.locator("#help[open]")
        box.locator(".rtp-table").wait_for()
        check_terms(box, facts, lang, f"table {lang}")
        page.screenshot(path=str(OUT / f"help-pokdeng-terms-{lang}.png"))
        page.click("#help-close")
        page.wait_for_selector("#help", state="detached")
