"""The "verify" in the round history recomputes the deal in the page — WebCrypto
HMAC-SHA256 by qipai/web/fairness/verify.js, written from docs/fairness.md — and shows, hand by
hand, that it matches what was dealt; for every game (Tien Gow: each tile I was shown opens
against the root published at the start). A real `qipai serve` and Debian's Chromium.

The rounds are played over the WebSocket by the games' own bots choosing for the player (the
clicking is tests/browser/test_play.py's); the browser then signs in as that player. A short
Pok Deng shoe (one deck, the cut card 39 from the end: two rounds) is offered by the operator
so that its seed is revealed within the test."""

from __future__ import annotations

import json
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from roomserver import OUT, Server

from qipai.authority import Authority
from qipai.authority.oplog import SYSTEM
from qipai.core.protocol import ActionSpec
from qipai.core.rng import Rng
from qipai.ledger import Ledger
from qipai.tables import games

pytestmark = [pytest.mark.browser]

GAMES = ("pokdeng", "paigow", "holdem-bonus", "niuniu", "tiengow")
PASSWORD = "verify-" + uuid.uuid4().hex[:12]
# as tests/browser/conftest.py's server, and countdowns shortened (the bots choose at once)
FAST = {
    "QIPAI_BOT_DELAY": "0.15",
    "QIPAI_BETWEEN_ROUNDS": "1.5",
    "QIPAI_SIGNUP_RATE": "1000/minute",
    "QIPAI_COUNTDOWN_SCALE": "0.3",
}


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    """A server whose operator offers a two-round Pok Deng shoe (made in its database before
    it starts, as an operator would through the ops API)."""
    db = tmp_path_factory.mktemp("verify") / "room.db"
    ledger = Ledger.open(str(db))
    try:
        made = Authority(ledger.engine, ledger=ledger).templates.create(
            {
                "game": "pokdeng",
                "name": "Pok Deng short shoe",
                "settings": {"decks": 1, "cut_behind": [39, 39]},
            },
            SYSTEM,
        )
    finally:
        ledger.close()
    srv = Server(db, FAST)
    srv.start()
    yield srv, made.id
    srv.stop()


def _post(url: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.load(r)


def _ended(game: str, msg: dict[str, Any], mine: set[str]) -> set[str]:
    """The rounds this player acted in (`mine`) whose deal unit has ended (its seed shown). The
    table's `fairness.revealed` lists its last revealed units, an earlier player's too: at a
    table an earlier test played (automatch seats the next player there) it is never empty, so
    only a unit holding one of `mine` counts."""
    if game == "tiengow":  # its seed is never revealed: the game's end opens my tiles
        r = msg.get("round") or {}
        rid = r.get("round_id")
        return {rid} if r.get("finished") and rid in mine else set()
    return {
        rid
        for u in msg["fairness"]["revealed"]
        if u.get("seed")
        for rid in u.get("rounds") or ()
        if rid in mine
    }


def play_until_revealed(
    server: Server, game: str, template: str | None
) -> tuple[str, str, list[str]]:
    """A new player automatches into `game` (bots fill the table) and plays with the game's
    bot choosing until the deal unit's seed is revealed; returns (player, token, the rounds
    it acted in of the revealed unit). The player stays seated: the table may go on dealing
    it into rounds of the next unit (settled, seed not yet shown) while the test looks."""
    from websockets.sync.client import connect

    name = "v" + uuid.uuid4().hex[:10]
    token = str(
        _post(f"{server.url}/api/signup", {"username": name, "password": PASSWORD})["token"]
    )
    _post(f"{server.url}/api/wallet/deposit", {"amount": 1_000_000}, token)
    with urllib.request.urlopen(f"{server.url}/api/games", timeout=60) as r:
        info_out = {g["game"]: g for g in json.load(r)["games"]}[game]
    pick: dict[str, Any] = {"template": template} if template else {"game": game}
    buy = min(1_000_000, int(info_out.get("default_buy_in") or 100_000))
    tid = _post(
        f"{server.url}/api/automatch",
        {**pick, "buy_in": buy, "client_seed": f"browser-{name}"},
        token,
    )["table_id"]
    info = games.get(game)
    bot, rng = info.make_bot(info.default_bot()), Rng(f"verify-test/{name}".encode() * 2)
    ws_url = server.url.replace("http://", "ws://") + "/ws"
    deadline = time.monotonic() + 240
    n = 0
    mine: set[str] = set()  # the rounds this player acted in
    with connect(ws_url, open_timeout=30) as ws:
        ws.send(json.dumps({"type": "auth", "token": token}))
        ws.send(json.dumps({"type": "subscribe", "table_id": tid}))
        while time.monotonic() < deadline:
            msg = json.loads(ws.recv(timeout=60))
            if msg.get("type") != "state":
                continue
            ended = _ended(game, msg, mine)
            if ended:
                return name, token, sorted(ended)
            if msg.get("legal") and msg.get("round") and not msg["round"]["finished"]:
                legal = [
                    ActionSpec(a["type"], {k: v for k, v in a.items() if k != "type"})
                    for a in msg["legal"]
                ]
                try:
                    action = bot.choose(msg["round"]["view"], legal, rng)
                except Exception:
                    continue
                n += 1
                mine.add(str(msg["round"]["round_id"]))
                ws.send(
                    json.dumps(
                        {
                            "type": "action",
                            "table_id": tid,
                            "client_id": f"c{n}",
                            "version": msg["version"],
                            "action": action,
                        }
                    )
                )
    raise AssertionError(f"{game}: the deal unit did not end in time")


def open_history(page: Any, server: Server, name: str, token: str) -> None:
    page.goto(server.url + "/")
    page.evaluate(
        "([t, p]) => { localStorage.setItem('qipai.token', t); localStorage.setItem('qipai.player', p); }",
        [token, name],
    )
    page.reload()  # signed in as that player from the start
    page.wait_for_selector("#btn-history")
    page.click("#btn-history")
    page.wait_for_selector(".history-item")


def verify_rows(page: Any, round_id: str) -> tuple[str, list[dict[str, str]]]:
    """Click "verify" on a round and wait for the page's verdict; its rows as shown."""
    page.click(f"[data-verify='{round_id}']")
    panel = page.locator(f".history-item[data-round='{round_id}'] .verify-panel")
    panel.locator("xpath=self::*[@data-verified!='pending']").wait_for(timeout=60_000)
    verdict = str(panel.get_attribute("data-verified"))
    rows = panel.locator(".verify-table tbody tr")
    out = []
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        out.append(
            {
                "what": cells.nth(0).inner_text(),
                "dealt": cells.nth(1).inner_text(),
                "computed": cells.nth(2).inner_text(),
                "match": str(rows.nth(i).get_attribute("data-match")),
            }
        )
    return verdict, out


@pytest.mark.parametrize("game", GAMES)
def test_verify_recomputes_the_deal_in_the_page(
    page: Any, room: tuple[Server, str], game: str
) -> None:
    server, short_shoe = room
    name, token, ended = play_until_revealed(
        server, game, short_shoe if game == "pokdeng" else None
    )
    # the short shoe and a Pai Gow game are two rounds, both mine
    assert len(ended) >= (2 if game in ("pokdeng", "paigow") else 1), ended
    open_history(page, server, name, token)
    checked = 0
    for round_id in ended:
        item = page.locator(f".history-item[data-game='{game}'][data-round='{round_id}']")
        item.wait_for()  # every round of the ended unit is in my history
        with urllib.request.urlopen(
            urllib.request.Request(
                f"{server.url}/api/rounds/{round_id}",
                headers={"Authorization": f"Bearer {token}"},
            ),
            timeout=60,
        ) as r:
            export = json.load(r)
        assert export["status"] == "settled", export["status"]
        verdict, rows = verify_rows(page, round_id)
        assert verdict == "ok", (game, rows)
        assert rows and all(r["match"] == "1" for r in rows), rows
        text = " ".join(r["what"] for r in rows)
        if game == "tiengow":
            # my eight tiles and every face-up play, each against the published root
            opened = export["tiles"]["openings"]
            assert len(opened) >= 8 and export["seed"] is None
            assert any("root" in r["what"] or "根" in r["what"] for r in rows), text
        else:
            # a table automatch opened deals its first unit without the opener's client seed
            # (docs/fairness.md, "Which commitment a seed meets"): the key is the server's
            assert export["seed"] and isinstance(export["client_seeds"], dict), export
            # the seed against its commitment, then hand by hand: what was dealt = computed
            hands = [r for r in rows if r["dealt"] and r["computed"]]
            dealt = export["dealt"] or {}
            expected = len(dealt.get("hands") or dealt.get("boxes") or {})
            assert len(hands) >= min(expected, 1), rows
            if game != "niuniu":  # Niu Niu's computed hand lists first cards, swaps, fifth
                for r in hands:
                    assert r["dealt"] == r["computed"], r
        checked += 1
    assert checked >= 1, f"{game}: no settled round to verify"
    page.screenshot(path=str(OUT / f"verify-{game}.png"), full_page=True)


def test_verify_shows_a_tampered_deal_as_a_mismatch(page: Any, room: tuple[Server, str]) -> None:
    """The page really compares: a round export whose dealt hand was changed on the way is
    shown as not matching, that hand's row marked."""
    server, short_shoe = room
    name, token, ended = play_until_revealed(server, "pokdeng", short_shoe)

    def tamper(route: Any) -> None:
        response = route.fetch()
        try:
            body = response.json()
        except Exception:  # not JSON: passed on as it came
            route.fulfill(response=response)
            return
        if isinstance(body, dict) and (body.get("dealt") or {}).get("hands"):
            spot = sorted(body["dealt"]["hands"])[0]
            body["dealt"]["hands"][spot] = ["As", "Ah"]
        route.fulfill(json=body)

    page.route("**/api/rounds/*", tamper)
    open_history(page, server, name, token)
    round_id = ended[0]  # a round of mine whose shoe's seed is shown
    verdict, rows = verify_rows(page, round_id)
    assert verdict == "mismatch", rows
    bad = [r for r in rows if r["match"] == "0"]
    assert bad and all("As Ah" in r["dealt"] for r in bad), rows


def test_the_verifier_module_is_the_pages_own(room: tuple[Server, str]) -> None:
    """The page loads verify.js from the server (no generated code): the file served is the
    repository's."""
    server, _ = room
    with urllib.request.urlopen(f"{server.url}/fairness/verify.js", timeout=60) as r:
        served = r.read().decode()
    source = Path(__file__).resolve().parents[2] / "qipai" / "web" / "fairness" / "verify.js"
    assert served == source.read_text(encoding="utf-8")
    assert "crypto.subtle" in served and "HMAC" in served
