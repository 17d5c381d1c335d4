"""Screenshots of the room for people to look at: the lobby, every table template's table on a
player's turn and at its result, and a rules page — at a desktop (1400x950), a phone held upright
(390x844) and the same phone on its side (844x390), in Chinese and in English.

    uv run python tools/screenshots.py [OUT_DIR]     # default docs/screenshots/

It starts its own `qipai serve` on a free port with a throw-away database (bots fill the seats),
drives Debian's chromium (/usr/bin/chromium, never downloaded) with Playwright, and writes
`<what>-<lang>-<size>.jpg` plus `index.md` listing them. Nothing here is a test: the browser
suite (tests/browser) asserts the layouts; this only refreshes the pictures.
"""

from __future__ import annotations

import contextlib
import json
import sys
import tempfile
import urllib.request
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from roomserver import ARGS, CHROMIUM, Server  # noqa: E402

SIZES = {"desktop": (1400, 950), "phone": (390, 844), "landscape": (844, 390)}
LANGS = ("zh", "en")
# a long pause between rounds: the result stays on the table while it is photographed
FAST = {"QIPAI_BOT_DELAY": "0.3", "QIPAI_BETWEEN_ROUNDS": "30", "QIPAI_SIGNUP_RATE": "1000/minute"}
MY_TURN = """() => { const s = qipai.state();
  return !!(s && s.round && !s.round.finished && s.legal.length && s.round.time_left > 4); }"""
FINISHED = (
    "() => { const s = qipai.state(); return !!(s && s.round && s.round.finished && s.result); }"
)


def templates(server: Server) -> list[tuple[str, str]]:
    with urllib.request.urlopen(f"{server.url}/api/templates", timeout=60) as r:
        return [(t["game"], t["template"]["id"]) for t in json.load(r)["templates"]]


def set_lang(page: Any, lang: str) -> None:
    if page.evaluate("qipai.lang()") != lang:
        page.click("#btn-lang")
        page.wait_for_function(f"qipai.lang() === '{lang}'")


def shoot(
    page: Any, out: Path, what: str, shots: list[str], full: bool = False, sizes: Any = None
) -> None:
    """`what` at every size (or `sizes`) in both languages, as JPEG (a tenth of a PNG's bytes:
    the folder is kept in the repository)."""
    for lang in LANGS:
        set_lang(page, lang)
        for size in sizes or SIZES:
            w, h = SIZES[size]
            page.set_viewport_size({"width": w, "height": h})
            page.wait_for_timeout(350)
            page.evaluate("window.scrollTo(0, 0)")
            name = f"{what}-{lang}-{size}.jpg"
            page.screenshot(path=str(out / name), full_page=full, type="jpeg", quality=60)
            shots.append(name)
    page.set_viewport_size({"width": 1400, "height": 950})


def sign_up(page: Any, server: Server) -> None:
    page.goto(server.url + "/")
    page.fill("#login-user", "shots" + uuid.uuid4().hex[:8])
    page.fill("#login-pass", "felt-" + uuid.uuid4().hex[:12])
    page.click("#btn-signup")
    page.wait_for_selector(".game-card")
    page.click("#btn-deposit")
    page.click(".chip-btn[data-amount='100000']")
    page.click("#dlg-deposit .go")
    page.wait_for_function("document.getElementById('wallet').textContent.includes('100,000')")


def main(out: Path) -> int:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    for old in [*out.glob("*.png"), *out.glob("*.jpg")]:  # a refresh leaves no stale picture
        old.unlink()
    shots: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "room.db", FAST)
        server.start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
                # wait_for_function evaluates strings, which the room's CSP forbids (tests/browser/conftest.py)
                context = browser.new_context(
                    viewport={"width": 1400, "height": 950}, bypass_csp=True
                )
                page = context.new_page()
                sign_up(page, server)
                page.wait_for_timeout(4500)  # the deposit's note is gone
                shoot(page, out, "lobby", shots, full=True)
                for game, template in templates(server):
                    page.goto(server.url + "/#/lobby")
                    page.wait_for_selector(f".quick[data-template='{template}']")
                    page.click(f".quick[data-template='{template}']")
                    page.wait_for_selector("#balances .kv.me")
                    with contextlib.suppress(PlaywrightError):
                        page.wait_for_function(MY_TURN, timeout=60000, polling=200)
                        shoot(page, out, f"{template}-turn", shots)
                    with contextlib.suppress(PlaywrightError):
                        page.wait_for_function(FINISHED, timeout=120000, polling=200)
                        page.wait_for_timeout(
                            3600
                        )  # the showdown's reveal (ui/showdown.js SHOWDOWN_MS)
                        shoot(page, out, f"{template}-result", shots)
                    page.click("#btn-leave")
                    page.goto(server.url + f"/#/rules/{game}/{template}")
                    page.wait_for_selector("#rules-text h2")
                    if game == "pokdeng" or template == game:
                        shoot(page, out, f"rules-{template}", shots, True, ("desktop", "phone"))
                browser.close()
        finally:
            server.stop()
    lines = ["# Screenshots", "", "Written by `uv run python tools/screenshots.py`.", ""]
    lines += [f"* [{name}]({name})" for name in shots]
    (out / "index.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(shots)} screenshots to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"))
