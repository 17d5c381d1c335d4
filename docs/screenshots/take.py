"""Take the README's screenshots of a running room (the player's table, the back office).

    uv run qipai operator add olga --db /tmp/docs.db        # prints a one-time password
    uv run qipai serve --db /tmp/docs.db --port 8822 &
    uv run python docs/screenshots/take.py --url http://127.0.0.1:8822 --password ONE_TIME

Signs the operator in over the API (new password, TOTP enrolment), then in Chromium signs a
player up, deposits demo money, quick-starts a Pok Deng table with bots and plays until the
cards are on the table; then opens the back office's round inspector on the live round.
"""

from __future__ import annotations

import argparse
import json
import secrets
import time
import urllib.request
from pathlib import Path
from typing import Any

import pyotp
from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
NEW_PASSWORD = "correct-horse-battery-staple-" + secrets.token_hex(4)


def call(url: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(req) as resp:
        result: dict[str, Any] = json.load(resp)
        return result


def enrol_operator(base: str, name: str, once: str) -> str:
    """The operator's first sign-in: a new password and a TOTP authenticator; its secret."""
    login = call(f"{base}/api/ops/login", {"name": name, "password": once})
    token = login["token"]
    call(f"{base}/api/ops/password", {"old_password": once, "new_password": NEW_PASSWORD}, token)
    secret: str = call(f"{base}/api/ops/totp/enrol", {}, token)["secret"]
    call(f"{base}/api/ops/totp/confirm", {"code": pyotp.TOTP(secret).at(time.time() - 30)}, token)
    return secret


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", default="http://127.0.0.1:8822")
    ap.add_argument("--operator", default="olga")
    ap.add_argument("--password", required=True, help="the operator's one-time password")
    args = ap.parse_args()
    secret = enrol_operator(args.url, args.operator, args.password)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 950})
        page.goto(args.url + "/")
        page.fill("#login-user", "mei" + secrets.token_hex(2))
        page.fill("#login-pass", NEW_PASSWORD)
        page.click("#btn-signup")
        page.wait_for_selector(".game-card")
        page.screenshot(path=str(HERE / "lobby.png"))
        page.click("#btn-deposit")
        page.click(".chip-btn[data-amount='100000']")
        page.click("#dlg-deposit .go")
        page.click(".quick[data-game='pokdeng']")
        page.wait_for_selector("[data-action=done]", timeout=60_000)
        page.click(".pd-spot[data-spot=P1]")
        page.click(".pd-spot[data-spot=P3]")
        page.click("[data-action=done]")
        page.wait_for_selector("#banner", timeout=60_000)
        page.wait_for_timeout(800)
        page.screenshot(path=str(HERE / "room.png"))
        ops = browser.new_page(viewport={"width": 1400, "height": 950})
        ops.goto(args.url + "/ops/")
        ops.fill("#ops-name", args.operator)
        ops.fill("#ops-password", NEW_PASSWORD)
        ops.fill("#ops-totp", pyotp.TOTP(secret).now())
        ops.click("#ops-sign-in")
        ops.wait_for_selector("#ops-who[data-role=operator]")
        ops.click("#ops-lang")  # the back office in English, the room in Chinese
        ops.wait_for_selector("td a.small")
        ops.locator("td a.small").first.click()  # the round inspector, on the live round
        ops.wait_for_selector("#step-next")
        for _ in range(6):  # a few steps of its journal (the button stops at the last)
            if ops.locator("#step-next").is_enabled():
                ops.click("#step-next", timeout=5_000)
        ops.wait_for_timeout(800)
        ops.screenshot(path=str(HERE / "backoffice.png"))
        browser.close()


if __name__ == "__main__":
    main()
