"""The rules pages players read in the room: every game ships `rules/zh.md` and `rules/en.md`
inside its package (read through importlib.resources, so an installed wheel serves them), every
placeholder fills from every shipped template's settings, the text is for players (no developer
notes, no English words left in the Chinese page), and `/api/rules/{game}` serves the page with
the template's own settings and its facts (pay table, exact returns)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qipai.authority import games
from qipai.authority.templates import shipped_templates
from qipai.games import registry
from qipai.server import rules_pages
from qipai.server.app import create_app
from qipai.server.settings import Settings
from qipai.tables.table import Timing

GAMES = tuple(registry.names())
# Latin letters a Chinese page may keep: card ranks and positions as printed on the table
ZH_LATIN = re.compile(r"\b(?:[AJQK]|P[1-5]|B[1-5])\b")
DEVELOPER = re.compile(r"RULES\.md|docs/|tests?/|\.py\b|qipai|\bDecision\b|`|TODO|_s\b|\bconfig\b")


def config_of(body: dict[str, Any]) -> dict[str, Any]:
    return dict(games.parse_config(body["game"], body["settings"]).to_json())


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_game_ships_a_page_in_each_language_inside_its_package(game: str, lang: str) -> None:
    from qipai.games import registry

    found = registry.get(game).rules_page(lang)
    assert found is not None and found[1] == lang
    assert found[0].parent.parent == registry.get(game).folder  # inside the game's package
    text = rules_pages.page(game, lang)
    assert text is not None and text.startswith("# ")


def _shipped_games() -> list[dict[str, Any]]:
    """The shipped templates of the registry's games (a test module may have made a table
    game of its own known to the room by the time this is collected)."""
    names = set(registry.names())
    return [body for body in shipped_templates() if body["game"] in names]


@pytest.mark.parametrize("body", _shipped_games(), ids=lambda b: b["id"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_shipped_template_fills_its_page(body: dict[str, Any], lang: str) -> None:
    text = rules_pages.page(body["game"], lang)
    assert text is not None
    page = rules_pages.fill(text, config_of(body))
    assert "{{" not in page and ":::" not in page
    assert not DEVELOPER.search(page), DEVELOPER.search(page)  # for players, not developers
    if lang == "zh":
        latin = re.findall(r"[A-Za-z]+", ZH_LATIN.sub(" ", page))
        assert latin == [], latin


def test_the_page_carries_the_tables_own_numbers() -> None:
    text = rules_pages.page("paigow", "en")
    assert text is not None
    config = config_of({"game": "paigow", "settings": {"base": 250, "commission": "0.03"}})
    page = rules_pages.fill(text, config)
    assert "base 250" in page and "3% commission" in page
    assert "×1, ×2, ×3, ×4, ×5" in page  # the bet multiples
    assert "within 12 seconds" in page  # the bet countdown


def test_pok_deng_pages_follow_the_mode_and_never_promise_a_third_card() -> None:
    for lang in ("zh", "en"):
        text = rules_pages.page("pokdeng", lang)
        assert text is not None
        classic = rules_pages.fill(text, config_of({"game": "pokdeng", "settings": {}}))
        banker = rules_pages.fill(
            text, config_of({"game": "pokdeng", "settings": {"mode": "banker-player"}})
        )
        assert "B1" not in classic and "B1" in banker
        assert "0.95" in banker and "0.95" not in classic
        third = "不补第三张" if lang == "zh" else "Nobody ever draws a third card"
        assert third in classic and third in banker


def test_fill_refuses_a_setting_the_config_lacks() -> None:
    with pytest.raises(rules_pages.UnknownSetting):
        rules_pages.fill("{{no_such}}", {"base": 1})
    assert rules_pages.fill("::: a!=0\nx\n:::\n{{b|money}}", {"a": 0, "b": 12345}) == "12,345"
    assert rules_pages.fill("{{p|pct}} {{f}}", {"p": "0.125", "f": 12.0}) == "12.5% 12"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(signup_rate="1000/minute")  # type: ignore[call-arg]
    app = create_app(str(tmp_path / "room.db"), settings=settings, timing=Timing(0.02, 0.1, 1.0))
    with TestClient(app) as c:
        yield c


def test_the_route_serves_the_template_page_with_its_facts(client: TestClient) -> None:
    r = client.get("/api/rules/pokdeng", params={"lang": "zh", "template": "pokdeng-banker-player"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["template"]["id"] == "pokdeng-banker-player"
    assert "B1" in body["markdown"] and "{{" not in body["markdown"]
    assert body["facts"]["pay_table"]["bets"]
    default = client.get("/api/rules/pokdeng", params={"lang": "en"}).json()
    assert default["template"] is not None and default["markdown"].startswith("# Pok Deng")
    assert client.get("/api/rules/nosuch").status_code == 404
    wrong = client.get("/api/rules/paigow", params={"template": "pokdeng-classic"})
    assert wrong.status_code == 404
    assert client.get("/api/rules/paigow", params={"lang": "fr"}).status_code in (400, 422)
