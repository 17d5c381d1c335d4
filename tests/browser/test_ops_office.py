"""The back office's reports and floor tools in Chromium (docs/operators.md): a live round voided
and its table resumed in one step; the round list with stake and net, paged and exported; a
player's last rounds with their terms exported as CSV; the house results for a range of days;
the operator log filtered by kind."""

from __future__ import annotations

import csv
import io
import time
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from roomserver import Server
from test_ops_console import _http, ops_server  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.browser]


def _open_round(srv: Server, token: str) -> tuple[str, str, str]:
    """A player at a slow-betting Pok Deng table with its round open: (player, table, round)."""
    status, made = _http(
        f"{srv.url}/api/ops/templates",
        "POST",
        {
            "game": "pokdeng",
            "name": "Slow betting office",
            "settings": {"betting_s": 120},
            "reason": "a round that stays open",
        },
        token,
    )
    assert status == 201, made
    _, signed = _http(
        f"{srv.url}/api/signup", "POST", {"username": "wendy", "password": "secret-pw-1"}
    )
    player = signed["token"]
    _http(f"{srv.url}/api/wallet/deposit", "POST", {"amount": 50_000}, player)
    _, table = _http(f"{srv.url}/api/tables", "POST", {"template": made["id"]}, player)
    status, sat = _http(
        f"{srv.url}/api/tables/{table['id']}/sit", "POST", {"buy_in": 10_000}, player
    )
    assert status == 200, sat
    for _ in range(600):  # the table opens its round after the break between rounds
        _, rows = _http(f"{srv.url}/api/ops/tables", token=token)
        row = next(r for r in rows["tables"] if r["id"] == table["id"])
        if row["round_id"]:
            return "wendy", str(table["id"]), str(row["round_id"])
        time.sleep(0.1)
    raise AssertionError("no round opened")


def test_void_and_resume_round_list_exports_and_filters(
    browser: Any,
    ops_server: tuple[Server, str, str],  # noqa: F811
    tmp_path: Path,
) -> None:
    srv, _, token = ops_server
    player, table_id, round_id = _open_round(srv, token)
    context = browser.new_context(
        viewport={"width": 1400, "height": 950}, bypass_csp=True, accept_downloads=True
    )
    ops = context.new_page()
    errors: list[str] = []
    ops.on("pageerror", lambda e: errors.append(str(e)))
    ops.on("dialog", lambda d: d.accept("wrong card shown"))  # the reason asked for
    try:
        ops.goto(srv.url + "/ops/")
        ops.evaluate("t => sessionStorage.setItem('qipai.ops.token', t)", token)
        ops.reload()
        ops.wait_for_selector("#ops-who[data-role=supervisor]")
        # void and resume, one click
        ops.click("[data-tab=rounds]")
        ops.fill("#q-round", round_id)
        ops.click("#round-find")
        ops.click(f"#round-list a[data-round='{round_id}']")
        ops.click("#btn-void-resume")
        ops.locator("#round-detail", has_text="wrong card shown").wait_for()
        _, rows = _http(f"{srv.url}/api/ops/tables", token=token)
        row = next(r for r in rows["tables"] if r["id"] == table_id)
        assert "suspended" not in str(row["status"]), row
        # the list of every round: stake and net columns, pages, CSV of the page
        ops.fill("#q-round", "")
        ops.click("#round-find")
        ops.wait_for_selector("#round-list [data-col=stake]")
        assert ops.locator("#round-list thead th").count() == 7
        with ops.expect_download() as got:
            ops.click("#round-csv")
        page_csv = Path(got.value.path()).read_text("utf-8")
        assert page_csv.splitlines()[0].startswith("id,table_id,game,template_id")
        # a player's last rounds with their terms, as CSV
        ops.click("[data-tab=players]")
        ops.fill("#player-q", player)
        ops.click("#player-search")
        ops.click(f"#player-list a[data-player='{player}']")
        ops.wait_for_selector("#player-last-table tbody tr")
        with ops.expect_download() as got:
            ops.click("#player-last-csv")
        lines = list(csv.DictReader(io.StringIO(Path(got.value.path()).read_text("utf-8"))))
        # newest first: the round the resumed table opened since, then the voided one
        status = {line["id"]: line["status"] for line in lines}
        assert status[round_id] == "voided" and lines[0]["id"] != round_id
        assert {line["template_version"] for line in lines} == {"1"}
        # the house results for a range of days
        ops.click("[data-tab=house]")
        today = date.today().isoformat()
        ops.fill("#house-since", today)
        ops.fill("#house-until", today)
        ops.wait_for_selector("#house-total")
        with ops.expect_download() as got:
            ops.click("#house-json")
        assert '"total"' in Path(got.value.path()).read_text("utf-8")
        # the operator log, filtered by kind
        ops.click("[data-tab=integrity]")
        ops.wait_for_selector("#op-log-kind option[value=round]", state="attached")
        ops.select_option("#op-log-kind", "round")
        ops.click("#op-log-find")
        ops.wait_for_function(
            "() => [...document.querySelectorAll('#op-log tbody tr td:nth-child(4)')]"
            ".map(td => td.textContent).join() === 'round.void'"
        )
        assert ops.evaluate("[...qipaiOps.missing]") == []
    finally:
        context.close()
    assert not errors, errors
