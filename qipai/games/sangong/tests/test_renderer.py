"""The browser modules run under the client's test tools (vitest, happy-dom): the renderer
(web/renderer.js) on views from the real engine (tests/web/renderer.test.js), and the in-page
deal (web/verify.js) against fairness.py (tests/web/verify.test.js)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.games.sangong import fairness
from qipai.games.sangong.config import SangongConfig
from qipai.games.sangong.round import SangongRound

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]


def _views() -> dict[str, object]:
    r = SangongRound.start(
        SangongConfig(), [Seat(s, 100_000) for s in "ABCDE"], Rng(b"renderer-views-0")
    )
    views: dict[str, object] = {"bid_A": r.view("A")}
    r.act("C", {"type": "bid", "multiple": 2})
    r.expire()
    r.expire()
    views["show_A"] = r.view("A")
    r.expire()
    views["finished_A"] = r.view("A")
    return views


def _deals() -> list[dict[str, object]]:
    """Deals with every way to choose the banker (and one before it is chosen)."""
    cases: list[dict[str, object]] = []
    bids_of = [
        None,
        {"A": 0, "B": 2, "C": 1},  # the highest bid
        {"A": 3, "B": 3, "C": 3, "D": 1},  # a tie, drawn by stacks
        {"A": 0, "B": 0},  # nobody bids
    ]
    for n in range(40):
        bids = bids_of[n % len(bids_of)]
        seats = list(bids) if bids else ["A", "B", "C", "D", "E", "F"][: 2 + n % 5]
        inputs = {
            "seats": seats,
            "bids": bids,
            "stacks": {s: (i + 1) * 1000 * (n % 3) for i, s in enumerate(seats)},
        }
        key = bytes([n]) * 32
        cases.append(
            {"key": key.hex(), "inputs": inputs, "expected": fairness.sangong_deal(key, inputs)}
        )
    return cases


@pytest.mark.skipif(
    shutil.which("npx") is None or not (ROOT / "node_modules").is_dir(), reason="needs node"
)
def test_the_browser_modules(tmp_path: Path) -> None:
    views = tmp_path / "views.json"
    views.write_text(json.dumps(_views(), ensure_ascii=False), encoding="utf-8")
    deals = tmp_path / "deals.json"
    deals.write_text(json.dumps(_deals()), encoding="utf-8")
    done = subprocess.run(
        ["npx", "vitest", "run", "--config", str(HERE / "web" / "vitest.config.js")],
        cwd=ROOT,
        env={**os.environ, "SANGONG_VIEWS": str(views), "SANGONG_DEALS": str(deals)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "8 passed" in done.stdout, done.stdout[-2000:]
