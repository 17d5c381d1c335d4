"""The back office in Chromium (docs/operators.md): an operator signs in with TOTP, finds the round a
player just played, steps through its replay, verifies it, and sees the house result and the
exact-vs-observed row change after more rounds; a player and an anonymous visitor get nothing
from /ops or /api/ops. Screenshots: test-output/ops-*.png."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pyotp
import pytest
from roomserver import OUT, ROOT, Server
from test_play import play_step, quick_start, sign_up_and_deposit, switch_lang

import qipai

pytestmark = [pytest.mark.browser]

NEW_PASSWORD = "a long operator password for the console"
# the browser suite's fast room (tests/browser/conftest.py's FAST)
FAST = {
    "QIPAI_BOT_DELAY": "0.15",
    "QIPAI_BETWEEN_ROUNDS": "1.5",
    "QIPAI_SIGNUP_RATE": "1000/minute",
    # one supervisor runs this room alone (four-eyes is tested in tests/authority/test_four_eyes.py)
    "QIPAI_AUTHORITY__TEMPLATE_APPROVAL": "false",
}


def _http(
    url: str, method: str = "GET", body: Any = None, token: str | None = None
) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


@pytest.fixture(scope="module")
def ops_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str, str]]:
    """A room whose operator `olga` was added with `qipai operator add` and has enrolled TOTP
    (the first sign-in over HTTP); returns the server, olga's TOTP secret and that first
    session's token (full once enrolled: a test may use it without a second TOTP code)."""
    db = tmp_path_factory.mktemp("ops") / "room.db"
    added = subprocess.run(
        [sys.executable, "-m", "qipai.cli", "operator", "add", "olga", "--db", str(db)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    once = added.stdout.strip().splitlines()[-1]
    srv = Server(db, FAST)
    srv.start()
    try:
        status, login = _http(
            f"{srv.url}/api/ops/login", "POST", {"name": "olga", "password": once}
        )
        assert status == 200 and login["stage"] == "setup", login
        tok = login["token"]
        status, _ = _http(
            f"{srv.url}/api/ops/password",
            "POST",
            {"old_password": once, "new_password": NEW_PASSWORD},
            tok,
        )
        assert status == 200
        _, enrolment = _http(f"{srv.url}/api/ops/totp/enrol", "POST", {}, tok)
        secret = enrolment["secret"]
        # the previous step's code (accepted: ±1 step), so the browser's sign-in with the
        # current code is not a replay of it
        code = pyotp.TOTP(secret).at(time.time() - 30)
        _, done = _http(f"{srv.url}/api/ops/totp/confirm", "POST", {"code": code}, tok)
        assert done["stage"] == "full", done
        yield srv, secret, tok
    finally:
        srv.stop()


def _play_rounds(page: Any, rounds: int, deadline_s: float = 120) -> None:
    """Let the player at the table play until `rounds` more rounds have ended for them."""
    ended = 0
    clicked = False
    deadline = time.time() + deadline_s
    while ended < rounds and time.time() < deadline:
        page.wait_for_timeout(250)
        in_round = page.evaluate(
            "(() => { const s = qipai.state(); return !!(s && s.you.in_round && s.round && "
            "!s.round.finished); })()"
        )
        if in_round:
            play_step(page, "pokdeng")
            clicked = True
            continue
        if clicked and page.locator("#banner").count():
            ended += 1
            clicked = False
    assert ended >= rounds, f"only {ended} rounds ended"


def _sign_in(page: Any, srv: Server, secret: str) -> None:
    page.goto(srv.url + "/ops/")
    page.wait_for_selector("#ops-login")
    page.fill("#ops-name", "olga")
    page.fill("#ops-password", NEW_PASSWORD)
    page.fill("#ops-totp", pyotp.TOTP(secret).now())
    page.click("#ops-sign-in")
    page.wait_for_selector("#ops-who[data-role=supervisor]")
    # the release the room runs, beside the title (CHANGELOG.md says what it holds)
    assert page.locator("#ops-version").text_content() == f"qipai {qipai.__version__}"


def _cell(page: Any, selector: str) -> int:
    return int(page.locator(selector).inner_text().replace(",", "").replace("+", ""))


def test_an_operator_voids_a_live_round_from_the_console(
    browser: Any, ops_server: tuple[Server, str, str]
) -> None:
    """The round inspector's "void" on a round a live table is playing: the table
    ends it by its own interruption (suspended, the stake back), the page shows the round voided
    with the operator's reason, and the operator log says how. (First in this module: it uses
    the fixture's fresh session, which the console takes from this tab's storage.)"""
    srv, _, token = ops_server
    status, made = _http(
        f"{srv.url}/api/ops/templates",
        "POST",
        {
            "game": "pokdeng",
            "name": "Slow betting",
            "settings": {"betting_s": 120},
            "reason": "a round that stays open",
        },
        token,
    )
    assert status == 201, made
    _, signed = _http(
        f"{srv.url}/api/signup", "POST", {"username": "vivian", "password": "secret-pw-1"}
    )
    player = signed["token"]
    _http(f"{srv.url}/api/wallet/deposit", "POST", {"amount": 50_000}, player)
    _, table = _http(f"{srv.url}/api/tables", "POST", {"template": made["id"]}, player)
    status, sat = _http(
        f"{srv.url}/api/tables/{table['id']}/sit", "POST", {"buy_in": 10_000}, player
    )
    assert status == 200, sat
    round_id = None
    for _ in range(600):  # the table opens its round after the break between rounds
        _, rows = _http(f"{srv.url}/api/ops/tables", token=token)
        row = next(r for r in rows["tables"] if r["id"] == table["id"])
        round_id = row["round_id"]
        if round_id:
            break
        time.sleep(0.1)
    assert round_id, row

    context = browser.new_context(viewport={"width": 1400, "height": 950}, bypass_csp=True)
    ops = context.new_page()
    errors: list[str] = []
    ops.on("pageerror", lambda e: errors.append(str(e)))
    ops.on("dialog", lambda d: d.accept("dealer misdeal"))  # the reason asked for
    try:
        ops.goto(srv.url + "/ops/")
        ops.evaluate("t => sessionStorage.setItem('qipai.ops.token', t)", token)
        ops.reload()
        ops.wait_for_selector("#ops-who[data-role=supervisor]")
        ops.click("[data-tab=rounds]")
        ops.fill("#q-round", round_id)
        ops.click("#round-find")
        ops.click(f"#round-list a[data-round='{round_id}']")
        ops.wait_for_selector("#btn-void")
        ops.click("#btn-void")
        ops.locator("#round-detail", has_text="dealer misdeal").wait_for()
        assert ops.locator("#btn-void").count() == 0  # a voided round has nothing to void
        ops.screenshot(path=str(OUT / "ops-void.png"))
    finally:
        context.close()
    assert not errors, errors
    _, detail = _http(f"{srv.url}/api/ops/rounds/{round_id}", token=token)
    assert detail["round"]["status"] == "voided"
    _, rows = _http(f"{srv.url}/api/ops/tables", token=token)
    row = next(r for r in rows["tables"] if r["id"] == table["id"])
    assert "suspended" in json.dumps(row["status"]) and row["round_id"] is None
    _, log = _http(f"{srv.url}/api/ops/log?action=round.void", token=token)
    (entry,) = [e for e in log["entries"] if e["target"] == round_id]
    assert entry["reason"] == "dealer misdeal" and entry["detail"]["how"] == "table suspended"


def test_operator_inspects_verifies_and_watches_the_numbers(
    browser: Any, ops_server: tuple[Server, str, str]
) -> None:
    srv, secret, token = ops_server
    OUT.mkdir(exist_ok=True)
    player_ctx = browser.new_context(viewport={"width": 1400, "height": 950}, bypass_csp=True)
    ops_ctx = browser.new_context(viewport={"width": 1400, "height": 950}, bypass_csp=True)
    player, ops = player_ctx.new_page(), ops_ctx.new_page()
    errors: list[str] = []
    for pg in (player, ops):
        pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        name = sign_up_and_deposit(player, srv)
        quick_start(player, "pokdeng")
        _play_rounds(player, 1)

        _sign_in(ops, srv, secret)
        ops.wait_for_selector("#room-tables tr[data-table]")
        ops.screenshot(path=str(OUT / "ops-room.png"))
        # the player: found by name, the wallet's entries with their running balance
        ops.click("[data-tab=players]")
        ops.fill("#player-q", name[:6])
        ops.click("#player-search")
        ops.click(f"#player-list a[data-player='{name}']")
        ops.wait_for_selector("#player-entries tbody tr")
        assert ops.locator("#player-accounts tr").count() >= 2  # the wallet and the table stack
        ops.screenshot(path=str(OUT / "ops-player.png"))
        # find the player's round
        ops.click("[data-tab=rounds]")
        ops.fill("#q-player", name)
        ops.click("#round-find")
        ops.wait_for_selector("#round-list a[data-round]")
        chosen = ops.locator("#round-list a[data-round]").last
        round_id = chosen.get_attribute("data-round")
        chosen.click()
        # the shoe deals on: its cards and replay are withheld from every role (docs/security.md,
        # "Who reads what, when") until the unit ends; suspending the table ends it
        ops.wait_for_selector("#replay-withheld")
        assert ops.locator("#replay").count() == 0
        table_id = player.evaluate("location.hash").split("/")[-1]
        for verb in ("suspend", "resume"):
            status, body = _http(
                f"{srv.url}/api/ops/tables/{table_id}/{verb}",
                "POST",
                {"reason": "end the shoe to inspect a round"},
                token,
            )
            assert status == 200, body
        ops.click("#round-find")
        ops.wait_for_selector("#round-list a[data-round]")
        ops.click(f"#round-list a[data-round='{round_id}']")
        ops.wait_for_selector("#replay")
        steps = int(ops.locator("#replay").get_attribute("data-steps") or 0)
        assert steps >= 2
        # step through the replay: the deal, then every action, the felt redrawn each time
        seen = []
        for _ in range(steps - 1):
            seen.append(ops.locator("#step-label").inner_text())
            ops.click("#step-next")
        seen.append(ops.locator("#step-label").inner_text())
        assert len(set(seen)) == steps
        assert ops.locator("#replay [data-card], #replay .card").count() > 0  # cards drawn
        ops.screenshot(path=str(OUT / "ops-replay.png"))
        ops.click("#btn-verify")
        ops.wait_for_selector("#verdict[data-ok=true]")
        assert "MAC" in ops.locator("#verdict").inner_text()
        template = ops.locator("#round-detail .muted").first.inner_text().split("·")[-1].strip()
        template_id = template.split(" v")[0]
        # house results and the exact-vs-observed row of the template
        ops.click("[data-tab=house]")
        ops.wait_for_selector("#house-total")
        turnover_before = _cell(ops, "#house-total [data-col=turnover]")
        ops.click("[data-tab=returns]")
        row = f"#returns-table tr[data-template='{template_id}'][data-bet=player]"
        ops.wait_for_selector(row)
        rounds_before = int(ops.locator(row).get_attribute("data-rounds") or 0)
        observed_before = ops.locator(f"{row} .observed").inner_text()
        assert rounds_before >= 1
        ops.screenshot(path=str(OUT / "ops-returns.png"))

        _play_rounds(player, 2)

        ops.click("#returns-refresh")
        ops.wait_for_function(
            f'document.querySelector("{row}").dataset.rounds > {rounds_before}', timeout=30000
        )
        assert int(ops.locator(row).get_attribute("data-rounds") or 0) >= rounds_before + 2
        assert ops.locator(f"{row} .observed").inner_text() != "" and observed_before
        ops.click("[data-tab=house]")
        ops.click("#house-refresh")
        ops.wait_for_function(  # (the table is absent while the tab's first report loads)
            "Number(document.querySelector('#house-total [data-col=turnover]')?.textContent"
            f".replace(/,/g, '')) > {turnover_before}",
            timeout=30000,
        )
        # uPlot draws the chart after the report's numbers are in the table: wait for it
        ops.wait_for_selector("#house-chart canvas", timeout=30000)
        assert ops.locator("#house-chart canvas").count() == 1  # uPlot drew the chart, once
        ops.screenshot(path=str(OUT / "ops-house.png"))
        # both languages, no key missing
        ops.click("#ops-lang")
        ops.wait_for_selector("#ops-house")
        assert ops.evaluate("[...qipaiOps.missing]") == []
    finally:
        player_ctx.close()
        ops_ctx.close()
    assert not errors, errors


def test_players_and_visitors_get_nothing(
    browser: Any, ops_server: tuple[Server, str, str]
) -> None:
    srv, _, _ = ops_server
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    try:
        # an anonymous visitor: the sign-in form, no data; every data route refuses
        page.goto(srv.url + "/ops")
        page.wait_for_selector("#ops-login")
        assert page.locator("#ops-tabs").count() == 0
        for path in ("tables", "rounds", "reports/house", "reports/returns", "integrity"):
            status, body = _http(f"{srv.url}/api/ops/{path}")
            assert status == 401 and body["error"]["code"] == "auth_required", path
        # a signed-in player: the same, and 403 with their token
        sign_up_and_deposit(page, srv)
        token = page.evaluate("localStorage.getItem('qipai.token')")
        assert token
        page.goto(srv.url + "/ops/")
        page.wait_for_selector("#ops-login")
        assert page.locator("#ops-tabs").count() == 0
        for path in ("tables", "rounds", "reports/house", "integrity"):
            status, body = _http(f"{srv.url}/api/ops/{path}", token=token)
            assert status == 403 and body["error"]["code"] == "operator_only", path
        replies = page.evaluate(
            """async () => { const out = [];
              for (const p of ['tables', 'reports/house', 'integrity']) {
                const r = await fetch('/api/ops/' + p); out.push(r.status); }
              return out; }"""
        )
        assert replies == [401, 401, 401]
    finally:
        context.close()


def test_an_operator_offers_a_template_and_a_player_finds_it(
    browser: Any, ops_server: tuple[Server, str, str]
) -> None:
    """Operator authority end to end (docs/operators.md): the operator signs in to the console with
    TOTP, creates a Pok Deng template from that session, and a player finds it in the lobby
    with its pay table, limits and buy-in — in both languages. (Last in this module: it signs in
    with the next step's code, which no earlier test used.)"""
    srv, secret, _ = ops_server
    OUT.mkdir(exist_ok=True)
    ops_ctx = browser.new_context(viewport={"width": 1400, "height": 950}, bypass_csp=True)
    player_ctx = browser.new_context(viewport={"width": 1400, "height": 950}, bypass_csp=True)
    ops, player = ops_ctx.new_page(), player_ctx.new_page()
    errors: list[str] = []
    for pg in (ops, player):
        pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        ops.goto(srv.url + "/ops/")
        ops.wait_for_selector("#ops-login")
        ops.fill("#ops-name", "olga")
        ops.fill("#ops-password", NEW_PASSWORD)
        ops.fill("#ops-totp", pyotp.TOTP(secret).at(time.time() + 30))
        ops.click("#ops-sign-in")
        ops.wait_for_selector("#ops-who[data-role=supervisor]")
        made = ops.evaluate(
            """async () => {
              const r = await fetch('/api/ops/templates', { method: 'POST',
                headers: { 'Content-Type': 'application/json',
                  Authorization: 'Bearer ' + sessionStorage.getItem('qipai.ops.token') },
                body: JSON.stringify({ id: 'pokdeng-high-roller', game: 'pokdeng',
                  name: 'High roller', min_buy_in: 50000, max_buy_in: 5000000,
                  settings: { mode: 'classic', pair_odds: 5,
                    limits: { player: { min: 1000, max: 500000 }, pair: { min: 1000, max: 50000 } } },
                  reason: 'a table for big stakes' }) });
              return { status: r.status, body: await r.json() }; }"""
        )
        assert made["status"] == 201, made
        facts = made["body"]["facts"]
        sign_up_and_deposit(player, srv)
        for lang in ("zh", "en"):
            switch_lang(player, lang)
            box = player.locator(
                ".game-card[data-game=pokdeng] .offer[data-template=pokdeng-high-roller]"
            )
            box.wait_for()
            # the buy-in range stands on the entry itself, above its folded pay table
            entry = player.locator(".game-card[data-template=pokdeng-high-roller] .game-limits")
            assert f"{facts['min_buy_in']:,}" in entry.inner_text()
            box.locator("summary").click()
            box.locator(".rtp-table").wait_for()
            text = box.inner_text()
            assert "1:5" in text or "5:1" in text, text  # the operator's pair pay
            assert "500,000" in text and "50,000" in text, text  # the operator's limits
            player.screenshot(path=str(OUT / f"ops-template-in-lobby-{lang}.png"), full_page=True)
            box.locator("summary").click()
    finally:
        ops_ctx.close()
        player_ctx.close()
    assert not errors, errors
