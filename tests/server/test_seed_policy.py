"""Seeds and Tien Gow's hidden discards (docs/rules/tiengow.md#discards): a Tien Gow table never shows
its seed to anyone — not in any WebSocket message, not in history or round details over HTTP —
because the seed would let anyone recompute every hand and so every face-down discard. Players
still get the commitment before the game, and the operator can still verify the round. Other
games reveal their seed once the deal unit ends (Pok Deng: when the shoe ends)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.server.app import create_app
from qipai.tables import games
from qipai.tables.table import Timing
from tests.authority.helpers import offer


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(str(tmp_path / "room.db"), timing=Timing(0.01, 0.1, 0.05))
    with TestClient(app) as c:
        yield c


def _signup(client: TestClient, name: str) -> tuple[dict[str, str], str]:
    r = client.post("/api/signup", json={"username": name, "password": "secret-pw"})
    token = r.json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    client.post("/api/wallet/deposit", json={"amount": 100_000}, headers=headers)
    return headers, token


def _play(
    client: TestClient, game: str, config: dict[str, Any], done: Callable[[dict[str, Any]], bool]
) -> tuple[list[str], str]:
    """Alice plays (with the game's own bot choosing for her) at a table full of bots until
    `done(state)`; returns every message text she received and the table id."""
    headers, token = _signup(client, "alice")
    template = offer(client, game, config)  # the operator offers these settings
    tid = client.post("/api/tables", json={"template": template}, headers=headers)
    tid = tid.json()["id"]
    info = games.get(game)
    assert client.post(
        f"/api/tables/{tid}/sit", json={"buy_in": 20_000}, headers=headers
    ).is_success
    client.post(f"/api/tables/{tid}/bots", json={}, headers=headers)
    bot, rng = info.make_bot(info.default_bot()), Rng(b"seed-policy-test" * 2)
    texts: list[str] = []
    ws: WebSocketTestSession
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "auth", "token": token})
        ws.send_json({"type": "subscribe", "table_id": tid})
        n = 0
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            text = ws.receive_text()
            texts.append(text)
            msg = json.loads(text)
            if msg["type"] != "state":
                continue
            if done(msg):
                return texts, tid
            if msg["legal"] and msg["round"] and not msg["round"]["finished"]:
                from qipai.core.protocol import ActionSpec

                legal = [
                    ActionSpec(a["type"], {k: v for k, v in a.items() if k != "type"})
                    for a in msg["legal"]
                ]
                try:
                    action = bot.choose(msg["round"]["view"], legal, rng)
                except Exception:
                    continue
                n += 1
                ws.send_json(
                    {
                        "type": "action",
                        "table_id": tid,
                        "client_id": f"c{n}",
                        "version": msg["version"],
                        "action": action,
                    }
                )
    raise AssertionError("the game did not finish in time")


def _http_texts(client: TestClient, headers: dict[str, str]) -> tuple[list[str], list[str]]:
    history = client.get("/api/history?limit=50", headers=headers).json()["rounds"]
    ids = [r["round_id"] for r in history]
    texts = [json.dumps(history)]
    texts += [client.get(f"/api/rounds/{rid}", headers=headers).text for rid in ids]
    return texts, ids


def test_tien_gow_never_shows_its_seed_to_players(client: TestClient) -> None:
    texts, tid = _play(client, "tiengow", {}, lambda m: bool(m["results"]))
    headers = {
        "Authorization": "Bearer "
        + client.post("/api/login", json={"username": "alice", "password": "secret-pw"}).json()[
            "token"
        ]
    }
    ledger = client.app.state.ledger  # type: ignore[attr-defined]
    http, ids = _http_texts(client, headers)
    assert ids, "the game is in alice's history"
    for rid in ids:
        record = ledger.round(rid, include_seed=True)
        seed = record["seed"]
        assert all(seed not in t for t in texts), "a WebSocket message contained the seed"
        assert all(seed not in t for t in http), "an HTTP response contained the seed"
        if record["status"] != "settled":
            continue  # the next game, started after alice stopped listening
        # the commitment was shown before the game started (as the next unit's commitment,
        # before any message of the round itself: before the client seeds were read)
        first = next(i for i, t in enumerate(texts) if record["seed_commitment"] in t)
        dealt = next(i for i, t in enumerate(texts) if rid in t)
        assert first <= dealt
        assert json.loads(texts[first])["type"] == "state"
        shown = json.loads(texts[first])
        assert record["seed_commitment"] in (
            shown["fairness"]["next_commitment"],
            (shown["round"] or {}).get("commitment"),
        )
        # the operator can still check seed vs commitment and the replay
        report = ledger.verify_round(rid)
        assert report.ok, report
    states = [json.loads(t) for t in texts if '"type":"state"' in t]
    assert all(s["fairness"]["seed_policy"] == "operator_only" for s in states)
    detail = json.loads(http[1])
    assert detail["seed"] is None and detail["seed_policy"] == "operator_only"
    # a voided Tien Gow round (the ledger marks a voided round's seed revealed) shows none either
    seed = bytes(range(32))
    ledger.create_user("alice-void", None)
    ledger.open_round(
        table_id=tid,
        game="tiengow",
        config=table_config(tid, client),
        seats=[Seat(s, 0) for s in ("E", "S", "W", "N")],
        players={"E": "alice"},
        seed=seed,
        context={},
        round_id="voided-tiengow",
    )
    ledger.void_round("voided-tiengow", "test")
    assert ledger.round("voided-tiengow")["seed"] == seed.hex()  # the ledger's own rule
    text = client.get("/api/rounds/voided-tiengow", headers=headers).text
    assert seed.hex() not in text and json.loads(text)["seed"] is None


def table_config(tid: str, client: TestClient) -> dict[str, Any]:
    config: dict[str, Any] = client.app.state.room.tables[tid].config.to_json()  # type: ignore[attr-defined]
    return config


def test_pok_deng_reveals_its_seed_when_the_shoe_ends(client: TestClient) -> None:
    from qipai.games.pokdeng.config import CARDS_PER_ROUND

    small_shoe = {"decks": 1, "cut_behind": [CARDS_PER_ROUND, CARDS_PER_ROUND]}
    texts, _tid = _play(client, "pokdeng", small_shoe, lambda m: bool(m["fairness"]["revealed"]))
    last = json.loads(texts[-1])
    assert last["fairness"]["seed_policy"] == "after_deal"
    revealed = last["fairness"]["revealed"][-1]
    ledger = client.app.state.ledger  # type: ignore[attr-defined]
    rid = revealed["rounds"][0]
    assert ledger.round(rid, include_seed=True)["seed"] == revealed["seed"]
    headers = {
        "Authorization": "Bearer "
        + client.post("/api/login", json={"username": "alice", "password": "secret-pw"}).json()[
            "token"
        ]
    }
    detail = client.get(f"/api/rounds/{rid}", headers=headers).json()
    assert detail["seed"] == revealed["seed"] and detail["seed_policy"] == "after_deal"
    # before the shoe ended, no message carried that seed
    before = texts[: texts.index(texts[-1])]
    assert all(revealed["seed"] not in t for t in before[:-1] if '"revealed":[]' in t)
