"""The player's guide: served by the room in both languages from inside the package, every
registered game linked to the room's own rules page, and docs/players.md written from the same
pages (docs/players.md is not edited by hand)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from qipai.games import registry
from qipai.server import player_guide


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    from qipai.server.app import create_app
    from qipai.tables.table import Timing

    db = tmp_path_factory.mktemp("guide") / "room.db"
    with TestClient(create_app(str(db), timing=Timing(0.02, 0.1, 1.0))) as c:
        yield c


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_room_serves_the_guide_with_every_game_linked(client: TestClient, lang: str) -> None:
    got = client.get("/api/guide", params={"lang": lang})
    assert got.status_code == 200, got.text
    body = got.json()
    assert body["lang"] == lang
    text = body["markdown"]
    assert "{{" not in text
    linked = re.findall(r"\]\(#/rules/([a-z-]+)\)", text)
    assert linked == registry.names()  # every game, in the registry's order, and nothing else
    for name in registry.names():
        title = registry.get(name).title[lang]
        assert f"[{title}" in text


def test_the_two_languages_have_the_same_sections() -> None:
    heads = {lang: re.findall(r"^## ", player_guide.source(lang), re.M) for lang in ("zh", "en")}
    assert len(heads["zh"]) == len(heads["en"]) >= 5


def test_an_unknown_language_is_a_typed_refusal(client: TestClient) -> None:
    got = client.get("/api/guide", params={"lang": "fr"})
    assert got.status_code in (400, 422)
    assert "lang" in got.text


def test_docs_players_md_is_written_from_the_pages() -> None:
    """`qipai docs --check` (CI) fails when docs/players.md differs from the pages."""
    assert not player_guide.stale(), "run `uv run qipai docs --write`"
    page = player_guide.render_docs()
    for lang in ("zh", "en"):
        for spec in registry.available().values():
            found = spec.rules_page(lang)
            assert found is not None
            assert found[0].name in page


def test_a_stale_docs_page_is_caught(tmp_path: Path) -> None:
    path = tmp_path / "players.md"
    assert player_guide.stale(path)
    assert player_guide.write(path) is True
    assert not player_guide.stale(path)
    path.write_text(path.read_text(encoding="utf-8") + "edited\n", encoding="utf-8")
    assert player_guide.stale(path)
