"""Opening tables is bounded in rate per player and room-wide, refused (429 with Retry-After)
before any database work, beside the quota of tables open at once (docs/operators.md,
'Limits at the edge')."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.authority.helpers import signup
from tests.server.rooms import room  # noqa: F401  (the fixture)


@pytest.fixture
def room_settings() -> dict[str, object]:
    return {"table_open_rate": "2/minute", "room_table_open_rate": "3/minute"}


def test_a_player_and_the_room_open_tables_at_a_bounded_rate(
    room: tuple[TestClient, str],  # noqa: F811
) -> None:
    client, _ = room
    game = client.get("/api/games").json()["games"][0]["game"]
    alice, bob = signup(client, "alice"), signup(client, "bob")
    for _ in range(2):
        r = client.post("/api/tables", json={"game": game}, headers=alice)
        assert r.status_code == 200, r.text
    over = client.post("/api/tables", json={"game": game}, headers=alice)
    assert over.status_code == 429, over.text
    assert over.json()["error"]["code"] == "rate_limited"
    assert int(over.headers["Retry-After"]) >= 1
    assert client.post("/api/tables", json={"game": game}, headers=bob).status_code == 200
    room_full = client.post("/api/tables", json={"game": game}, headers=bob)
    assert room_full.status_code == 429
    assert "room" in room_full.json()["error"]["message"]
    tables = client.get("/api/tables").json()["tables"]
    assert len(tables) == 3  # nothing was opened by a refused request
