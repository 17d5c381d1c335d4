"""The lobby's table tiles: every listed table carries `recent` — its last rounds' nets and, for
Pok Deng, the current shoe's road — so a player can choose a table by its last results."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient

from qipai.server.app import create_app
from qipai.server.routers.lobby import RECENT, recent
from qipai.server.settings import Settings
from qipai.tables.table import Timing
from tests.authority.helpers import signup


def fake_table(results: list[dict[str, Any]], context: dict[str, Any]) -> Any:
    return SimpleNamespace(results=results, units=SimpleNamespace(carry_context=context))


def test_recent_keeps_the_last_rounds_nets_and_the_road() -> None:
    rounds = [
        {"round_id": f"r{n}", "number": n, "nets": {"S1": n, "S2": -n}, "chain_head": {"seq": n}}
        for n in range(1, 21)
    ]
    road = "W,L,T,Wr,Lp,-;L,L,W,T,W,p"
    out = recent(fake_table(rounds, {"road": road, "position": 17}))
    assert [r["number"] for r in out["results"]] == list(range(21 - RECENT, 21))
    # public facts only: the number and the nets, not the ledger's chain or round ids
    assert out["results"][-1] == {"number": 20, "nets": {"S1": 20, "S2": -20}}
    assert out["road"] == road
    assert recent(fake_table([], {}))["road"] is None
    assert recent(fake_table([], {"road": 7}))["road"] is None


def test_every_listed_table_has_its_recent_rounds(tmp_path: Path) -> None:
    settings = Settings(signup_rate="1000/minute")  # type: ignore[call-arg]
    app = create_app(str(tmp_path / "room.db"), settings=settings, timing=Timing(0.02, 0.1, 1.0))
    with TestClient(app) as client:
        bob = signup(client, "bob", deposit=50_000)
        made = client.post("/api/tables", json={"template": "pokdeng-classic"}, headers=bob)
        assert made.is_success, made.text
        listed = client.get("/api/tables").json()["tables"]
        tile = next(t for t in listed if t["id"] == made.json()["id"])
        assert tile["recent"] == {"results": [], "road": None}
