"""What the game ships for people: the rules pages, the client strings and the renderer's
keys — both languages complete, and the figures the pages state are the exact math's."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from qipai.games.sangong import analysis
from qipai.games.sangong.config import SangongConfig

FOLDER = Path(__file__).resolve().parents[1]
CLIENT_I18N = FOLDER.parents[1] / "web" / "i18n"


def _strings() -> dict[str, dict[str, str]]:
    data: dict[str, dict[str, str]] = json.loads((FOLDER / "web" / "i18n.json").read_text("utf-8"))
    return data


def test_both_languages_have_the_same_strings() -> None:
    strings = _strings()
    assert set(strings) == {"zh", "en"}
    assert set(strings["zh"]) == set(strings["en"]) and strings["en"]
    for lang in strings.values():
        assert all(isinstance(v, str) and v.strip() for v in lang.values())


def test_every_key_the_renderer_uses_exists_in_both_languages() -> None:
    source = (FOLDER / "web" / "renderer.js").read_text("utf-8")
    keys = set(re.findall(r"""\bt\(\s*["']([a-z0-9_]+)["']""", source))
    assert {"sg_pays", "step_result", "banker"} <= keys
    for lang in ("zh", "en"):
        client = json.loads((CLIENT_I18N / f"{lang}.json").read_text("utf-8"))
        known = set(client) | set(_strings()[lang])
        assert keys <= known, (lang, sorted(keys - known))
    # the show action's label: the Actions bar labels a button by its action type
    assert "show" in _strings()["en"] and "phase_show" in _strings()["zh"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_rules_pages_state_the_exact_return(lang: str) -> None:
    page = (FOLDER / "rules" / f"{lang}.md").read_text("utf-8")
    rtp = analysis.player_figures(SangongConfig().multipliers, Fraction(1, 20)).rtp
    assert f"{float(rtp) * 100:.2f}" in page  # 95.96
    # the worked example's figures and the tie-break examples
    for figure in ("1,710", "760", "−800", "−1,800", "130"):
        assert figure in page
    for hand in ("7♠ K♥ Q♦", "7♥ 10♣ 10♦", "9♥ J♠ 10♣", "9♠ J♥ 10♦", "Q♣ Q♦ Q♥", "K♠ K♥ Q♠"):
        assert hand in page


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_rules_pages_state_the_default_table(lang: str) -> None:
    page = (FOLDER / "rules" / f"{lang}.md").read_text("utf-8")
    config = SangongConfig()
    for seconds in (config.bid_s, config.bet_s, config.show_s):
        assert f"{seconds:g}" in page
    for m in config.multipliers.in_order()[:4]:
        assert f"×{m}" in page
    assert "5 %" in page or "5%" in page
