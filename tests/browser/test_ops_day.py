"""An operator's day run only through the back office in Chromium (docs/operators.md): the first
supervisor exists by `qipai operator add` (as on a real host); from then on every operator action
is a click in /ops. The supervisor adds a cashier and a finance officer in the staff tab (each
enrols TOTP in the page); a new version of a template is published by the supervisor and approved
by finance (four-eyes on), and the running table is moved to it in the versions tab; players'
withdrawals are approved and rejected at the cashier's desk, the large one approved a second
time by the supervisor; a seated player is locked mid-round and their seat is gone after that
round; their last 10 rounds are exported as CSV; the house results are read for a date range.
Players act through the player room or the player HTTP API (the rule is about operators).
Screenshots: the test's tmp dir."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pyotp
import pytest
from roomserver import ROOT, Server
from test_ops_console import FAST, _http
from test_play import play_step, quick_start, sign_up_and_deposit

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TEMPLATE = "niuniu"
PASSWORDS = {
    "sam": "the supervisor's long passphrase of the day",
    "carl": "the cashier's long passphrase at the desk",
    "fay": "finance signs the books with this phrase",
}
LARGE_OVER = 20_000  # a withdrawal above this needs a second operator
# four-eyes stays on (no QIPAI_AUTHORITY__TEMPLATE_APPROVAL=false here)
ROOM = {
    **{k: v for k, v in FAST.items() if k != "QIPAI_AUTHORITY__TEMPLATE_APPROVAL"},
    "QIPAI_AUTHORITY__WITHDRAWAL_APPROVAL_OVER": str(LARGE_OVER),
    "QIPAI_AUTHORITY__WITHDRAWAL_KYC": "false",
}


@pytest.fixture(scope="module")
def day_room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    """A room of its own whose only operator, supervisor `sam`, was added on the host's command
    line; returns the server and sam's one-time password."""
    db = tmp_path_factory.mktemp("day") / "room.db"
    added = subprocess.run(
        [sys.executable, "-m", "qipai.cli", "operator", "add", "sam", "--db", str(db)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    srv = Server(db, ROOM)
    srv.start()
    try:
        yield srv, added.stdout.strip().splitlines()[-1]
    finally:
        srv.stop()


def _first_sign_in(page: Any, srv: Server, name: str, once: str, role: str) -> None:
    """The first sign-in in the page: the one-time password, a new password, TOTP enrolment
    from the secret the page shows."""
    page.goto(srv.url + "/ops/")
    page.fill("#ops-name", name)
    page.fill("#ops-password", once)
    page.click("#ops-sign-in")
    page.fill("#ops-setup input[name=new_password]", PASSWORDS[name])
    page.click("#ops-setup button[type=submit]")
    secret = page.locator("#totp-secret").inner_text().strip()
    page.fill("#ops-setup input[name=code]", pyotp.TOTP(secret).now())
    page.click("#ops-setup button[type=submit]")
    page.wait_for_selector(f"#ops-who[data-role={role}]")


class Answers:
    """The console's prompts (reasons, a version's settings) answered in order."""

    def __init__(self, page: Any) -> None:
        self.queue: list[Any] = []
        page.on("dialog", self._answer)

    def _answer(self, dialog: Any) -> None:
        answer = self.queue.pop(0) if self.queue else "routine"
        dialog.accept(answer(dialog.default_value) if callable(answer) else answer)


def _in_round(page: Any) -> bool:
    return bool(
        page.evaluate(
            "(() => { const s = qipai.state(); return !!(s && s.you.in_round && s.round && "
            "!s.round.finished); })()"
        )
    )


def _play_until(page: Any, done: Any, deadline_s: float = 240) -> None:
    """Let the player at the table play (clicking) until `done()` holds."""
    deadline = time.time() + deadline_s
    while time.time() < deadline:
        if done():
            return
        if _in_round(page):
            play_step(page, "niuniu")
        page.wait_for_timeout(200)
    raise AssertionError("the condition never held")


def _play_rounds(page: Any, rounds: int, deadline_s: float = 400) -> None:
    """Let the player play until `rounds` more rounds have ended for them (the result banner)."""
    ended = 0
    clicked = False
    deadline = time.time() + deadline_s
    while ended < rounds and time.time() < deadline:
        page.wait_for_timeout(250)
        if _in_round(page):
            play_step(page, "niuniu")
            clicked = True
            continue
        if clicked and page.locator("#banner").count():
            ended += 1
            clicked = False
    assert ended >= rounds, f"only {ended} rounds ended"


def test_an_operator_runs_a_day_only_through_the_console(
    browser: Any, day_room: tuple[Server, str], tmp_path: Path
) -> None:
    srv, once = day_room
    shots = iter(range(100))

    def shot(page: Any, what: str) -> None:
        page.screenshot(path=str(tmp_path / f"{next(shots):02d}-{what}.png"), full_page=True)

    errors: list[str] = []
    contexts = []

    def console() -> tuple[Any, Answers]:
        ctx = browser.new_context(
            viewport={"width": 1400, "height": 950},
            accept_downloads=True,
            locale="en-US",
            bypass_csp=True,  # the page's CSP forbids eval; playwright's waits use it
        )
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page, Answers(page)

    try:
        # --- the supervisor's first sign-in, then two colleagues added in the staff tab
        sup, sup_says = console()
        _first_sign_in(sup, srv, "sam", once, "supervisor")
        sup.click("[data-tab=staff]")
        secrets: dict[str, str] = {}
        for name, role in (("carl", "cashier"), ("fay", "finance")):
            sup.fill("#staff-add input[name=name]", name)
            sup.select_option("#staff-add select[name=role]", role)
            sup.fill("#staff-add input[name=reason]", f"new {role} from today")
            sup.click("#staff-add button[type=submit]")
            sup.locator("#staff-secret", has_text=name).wait_for()
            secrets[name] = sup.locator("#staff-secret code").inner_text().strip()
            sup.wait_for_selector(f"#staff-list tr[data-name={name}]")
        shot(sup, "staff")
        cashier, cashier_says = console()
        _first_sign_in(cashier, srv, "carl", secrets["carl"], "cashier")
        finance, finance_says = console()
        _first_sign_in(finance, srv, "fay", secrets["fay"], "finance")
        sup.click("[data-tab=room]")
        sup.click("[data-tab=staff]")
        for name in secrets:  # MFA enrolled, shown to the supervisor
            assert "✓" in sup.locator(f"#staff-list tr[data-name={name}]").inner_text()
        # the cashier has no staff tab and may not change templates (docs/operators.md roles)
        assert cashier.locator("[data-tab=staff]").count() == 0
        cashier.click("[data-tab=templates]")
        cashier.wait_for_selector(f"#tpl-list tr[data-id={TEMPLATE}]")
        assert cashier.locator("#tpl-list button[data-act=version], #tpl-new").count() == 0

        # --- a player sits at a Niu Niu table (the player room)
        player_ctx = browser.new_context(bypass_csp=True)
        contexts.append(player_ctx)
        player = player_ctx.new_page()
        player.on("pageerror", lambda e: errors.append(str(e)))
        who = sign_up_and_deposit(player, srv)
        quick_start(player, "niuniu", TEMPLATE)
        player.wait_for_function("qipai.state() !== null")
        table_id = player.evaluate("qipai.state().table.id")
        before = player.evaluate("qipai.state().table.terms.template.version")

        # --- a new version: published by the supervisor, approved by finance, table moved
        def lower_commission(default: str) -> str:
            # the prompt shows the current settings; the new version's are those merged with
            # the change (the same body as tests/browser/test_ops_versions.py's)
            settings = json.loads(default) if default.strip() else {}
            settings["commission"] = "0.03"
            return json.dumps(settings)

        sup.click("[data-tab=templates]")
        sup_says.queue += [lower_commission, "lower commission from today"]
        sup.click(f"#tpl-list tr[data-id={TEMPLATE}] button[data-act=version]")
        sup.wait_for_selector("#tpl-note")
        # waiting for the second operator: the list still shows the old version
        assert sup.locator(f"#tpl-list tr[data-id={TEMPLATE}] td:nth-child(3)").inner_text() == str(
            before
        )
        shot(sup, "template-waiting")
        finance.click("[data-tab=cashier]")
        row = finance.locator(
            "#desk-approvals tbody tr", has=finance.locator("button[data-act=approve]")
        )
        row.first.wait_for()
        finance_says.queue.append("commission approved")
        row.first.locator("button[data-act=approve]").click()
        finance.wait_for_selector("#desk-note")
        shot(finance, "template-approved")
        newest = before + 1
        sup.click("[data-tab=versions]")
        table_row = f"#versions-tables tr[data-table='{table_id}']"
        sup.wait_for_selector(f"{table_row}[data-behind=true]")
        sup_says.queue.append("new commission from today")
        sup.click(f"{table_row} button[data-choice=at_boundary]")
        sup.wait_for_selector(f"{table_row}[data-pending='{newest}']")
        shot(sup, "versions-move")
        _play_until(
            player,
            lambda: player.evaluate("qipai.state().table.terms.template.version") == newest,
        )

        # --- money requests of another player (the player HTTP API), decided at the desk
        _, signed = _http(
            f"{srv.url}/api/signup", "POST", {"username": "wanda", "password": "secret-pw-1"}
        )
        wanda = signed["token"]
        _http(f"{srv.url}/api/wallet/deposit", "POST", {"amount": 100_000}, wanda)
        ids = []
        for amount in (5_000, 6_000, 30_000):
            status, req = _http(
                f"{srv.url}/api/wallet/withdrawals",
                "POST",
                {"amount": amount, "method": "bank", "reference": f"ref-{amount}"},
                wanda,
            )
            assert status in (200, 201), req
            ids.append(req["request"]["id"])
        small, wrong, large = ids
        cashier.click("[data-tab=cashier]")
        for rid, verb, reason in (
            (small, "approve", "paid to the bank"),
            (wrong, "reject", "reference does not match"),
            (large, "approve", "large, paid to the bank"),
        ):
            cashier.click("[data-tab=room]")  # the queue is read when the tab opens
            cashier.click("[data-tab=cashier]")
            cashier_says.queue.append(reason)
            cashier.click(f"#desk-requests tr[data-id='{rid}'] button[data-act={verb}]")
            if rid == large:  # still pending: it waits for the second operator
                cashier.locator("#desk-note", has_text="second operator").wait_for()
            else:
                cashier.wait_for_selector(f"#desk-requests tr[data-id='{rid}']:not(:has(button))")
        shot(cashier, "desk-decided")
        # the large one waits for a second operator, who is not the cashier
        _, mine = _http(f"{srv.url}/api/wallet/requests", token=wanda)
        status_of = {r["id"]: r["status"] for r in mine["requests"]}
        assert status_of[small] == "approved" and status_of[wrong] == "rejected", status_of
        assert status_of[large] != "approved", status_of
        assert cashier.locator("#desk-approvals button[data-act=approve]").count() == 0
        sup.click("[data-tab=cashier]")
        pending = sup.locator(
            "#desk-approvals tbody tr", has=sup.locator("button[data-act=approve]")
        )
        pending.first.wait_for()
        sup_says.queue.append("second approval, large withdrawal")
        pending.first.locator("button[data-act=approve]").click()
        sup.wait_for_selector("#desk-note")
        shot(sup, "desk-second-approval")
        _, mine = _http(f"{srv.url}/api/wallet/requests", token=wanda)
        assert {r["id"]: r["status"] for r in mine["requests"]}[large] == "approved", mine

        # --- the seated player plays 10 rounds, then is locked mid-round
        _play_rounds(player, 10)
        sup.click("[data-tab=room]")
        room_row = sup.locator(f"tr[data-table='{table_id}']")
        room_row.wait_for()
        # the seat is the player's before the lock (the live room names who sits)
        deadline = time.time() + 60
        while who not in room_row.inner_text() and time.time() < deadline:
            sup.wait_for_timeout(500)
        assert who in room_row.inner_text(), room_row.inner_text()
        _play_until(player, lambda: _in_round(player))
        sup.click("[data-tab=players]")
        sup.fill("#player-q", who)
        sup.click("#player-search")
        sup.click(f"#player-list a[data-player='{who}']")
        sup_says.queue.append("self-exclusion request")
        sup.click("#btn-lock")
        sup.locator("#player-detail", has_text="self-exclusion request").wait_for()
        shot(sup, "player-locked")
        # the lock reaches the player at once: the room closes their socket (4403)
        player.wait_for_selector("#conn-overlay[data-conn='account_locked']")
        sup.click("[data-tab=room]")
        room_row.wait_for()
        # the room tab reads the tables every few seconds: the seat goes once the round ends
        deadline = time.time() + 120
        while who in room_row.inner_text() and time.time() < deadline:
            if _in_round(player):
                play_step(player, "niuniu")
            sup.wait_for_timeout(500)
        assert who not in room_row.inner_text()
        shot(sup, "seat-gone")
        shot(player, "player-after-lock")

        # --- the player's last 10 rounds, exported
        sup.click("[data-tab=players]")
        sup.fill("#player-q", who)
        sup.click("#player-search")
        sup.click(f"#player-list a[data-player='{who}']")
        sup.fill("#player-last-n", "10")
        sup.click("#player-last-load")
        sup.wait_for_selector("#player-last-table tbody tr")
        with sup.expect_download() as got:
            sup.click("#player-last-csv")
        lines = list(csv.DictReader(io.StringIO(Path(got.value.path()).read_text("utf-8"))))
        assert len(lines) == 10 and len({line["id"] for line in lines}) == 10
        assert str(newest) in {line["template_version"] for line in lines}
        shot(sup, "last-rounds")

        # --- the house results for a date range
        sup.click("[data-tab=house]")
        today = date.today().isoformat()
        sup.fill("#house-since", today)
        sup.fill("#house-until", today)
        sup.wait_for_selector("#house-total")
        shot(sup, "house")
    finally:
        for ctx in contexts:
            ctx.close()
    assert not errors, errors
