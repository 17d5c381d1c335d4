"""No one reads a live deal (docs/security.md, "Who reads what, when"): while a deal unit is
still dealing, its seed and the next unit's seed are in no API answer of any role (operator,
auditor, the player), no log line, and nowhere in the database in the clear — not in the ledger,
not in the saved table layout (`room_tables.data`), on SQLite (the file's bytes, as a copy
taken at a kill -9 would hold them) and PostgreSQL (every row of every table of the room's
schema). Once the unit ended (the operator voids the round) the back office shows the seed."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect, select, text

from qipai.authority import Authority
from qipai.server.store import room_tables
from qipai.tables import layout
from tests.authority.helpers import enrol, error, offer, signup
from tests.server import rooms

room, room_settings = rooms.room, rooms.room_settings  # the fixtures


def _bet(client: TestClient, headers: dict[str, str], table_id: str) -> dict[str, Any]:
    token = headers["Authorization"].removeprefix("Bearer ")
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "auth", "token": token})
        ws.send_json({"type": "subscribe", "table_id": table_id})
        sent = False
        for _ in range(500):
            msg = ws.receive_json()
            if msg.get("type") != "state" or not msg.get("round"):
                continue
            if msg["legal"] and not sent:
                action = {"type": "bet", "spot": "P1", "amount": 100}
                ws.send_json(
                    {
                        "type": "action",
                        "table_id": table_id,
                        "client_id": "b1",
                        "version": msg["version"],
                        "action": action,
                    }
                )
                sent = True
            elif sent and "bets" in [e["type"] for e in msg["events"]]:
                return msg
    raise AssertionError("the bet was never taken")


def _database_text(client: TestClient, backend: str) -> bytes:
    """Everything the database holds: the SQLite files' bytes, or every PostgreSQL row as text."""
    ledger: Any = client.app.state.ledger  # type: ignore[attr-defined]
    if backend == "sqlite":  # the file and its write-ahead log, as a copy would hold them
        folder = Path(ledger.url.removeprefix("sqlite:///")).parent
        return b"".join(p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file())
    out = []
    with ledger.engine.connect() as conn:
        names = inspect(conn).get_table_names()
        assert "room_tables" in names and "rounds" in names
        for name in names:
            rows = conn.execute(text(f'SELECT t::text FROM "{name}" t')).scalars()
            out.extend(str(r) for r in rows)
    return "\n".join(out).encode()


def _all_gets(client: TestClient, ids: dict[str, str]) -> list[str]:
    """Every GET route of the app with its path parameters filled in."""
    paths = client.app.openapi()["paths"]  # type: ignore[attr-defined]
    out = []
    for path, methods in sorted(paths.items()):
        if "get" not in methods:
            continue
        for name in re.findall(r"{(\w+)}", path):
            path = path.replace("{" + name + "}", ids.get(name, "bob"))
        out.append(path)
    return out


def test_no_role_reads_the_seed_of_a_unit_in_play(
    room: tuple[TestClient, str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    client, backend = room
    app: Any = client.app
    authority: Authority = app.state.authority
    olga = enrol(client, authority, "olga").headers
    ada = enrol(client, authority, "ada", "auditor").headers
    template = offer(client, "pokdeng", {"betting_s": 120}, "slow betting")
    bob = signup(client, "bob", deposit=50_000)
    table_id = client.post("/api/tables", json={"template": template}, headers=bob).json()["id"]
    assert client.post(f"/api/tables/{table_id}/sit", json={"buy_in": 10_000}, headers=bob)
    state = _bet(client, bob, table_id)
    round_id = state["round"]["round_id"]
    table = app.state.room.tables[table_id]
    table.save()
    assert table.units.carry_seed is not None
    secrets = {"running": table.units.carry_seed, "next": table.units.next_seed}

    def leaks(blob: bytes | str) -> list[str]:
        data = blob.encode() if isinstance(blob, str) else blob
        return [
            k
            for k, s in secrets.items()
            if s.hex().encode() in data.lower() or (isinstance(blob, bytes) and s in blob)
        ]

    # the layout a restart reads holds them sealed, and opens with the ledger's key
    with app.state.ledger.engine.connect() as conn:
        saved = conn.execute(
            select(room_tables.c.data).where(room_tables.c.id == table_id)
        ).scalar_one()
    assert str(saved["carry_seed"]).startswith("gcm1:"), saved["carry_seed"]
    opened = layout.open_seeds(saved, table_id, layout.sealer(table))
    assert opened["carry_seed"] == secrets["running"].hex()
    assert opened["next_seed"] == secrets["next"].hex()

    # every GET of every role: the operator, the auditor, the player, no one
    ids = {"round_id": round_id, "table_id": table_id, "player": "bob", "name": "bob"}
    answered = 0
    for headers in (olga, ada, bob, {}):
        for path in _all_gets(client, ids):
            r = client.get(path, headers=headers)
            assert r.status_code < 500, (path, r.text)
            answered += r.status_code == 200
            assert not leaks(r.content), (path, headers)
    assert answered > 40
    detail = client.get(f"/api/ops/rounds/{round_id}", headers=ada).json()["round"]
    assert detail["seed"] is None and detail["seed_withheld"] is True
    replay = client.get(f"/api/ops/rounds/{round_id}/replay", headers=olga)
    assert replay.status_code == 409 and error(replay)["code"] == "unit_in_play"
    verify = client.get(f"/api/ops/rounds/{round_id}/verify", headers=ada).json()
    assert verify["seed"] is None and verify["seed_withheld"] is True
    assert verify["checks"][0]["ok"] is True  # the check itself ran, with the sealed seed

    # the database, as a copy taken now (a kill -9) would hold it, and the logs
    assert leaks(_database_text(client, backend)) == []
    assert [r.getMessage() for r in caplog.records if leaks(r.getMessage())] == []

    # the operator ends the unit to inspect it: from then on the back office shows its seed
    r = client.post(f"/api/ops/rounds/{round_id}/void", json={"reason": "dispute"}, headers=olga)
    assert r.status_code == 200, r.text
    after = client.get(f"/api/ops/rounds/{round_id}", headers=ada).json()["round"]
    assert after["seed"] == secrets["running"].hex() and after["seed_withheld"] is False
    assert client.get(f"/api/ops/rounds/{round_id}/replay", headers=ada).status_code == 200


def test_a_layout_with_clear_seeds_is_still_restored(tmp_path: Path) -> None:
    """A layout saved before seeds were sealed (hex) opens as it is; a sealed one needs the key
    and its own table: a box copied to another table's layout does not open."""
    from qipai.ledger import Ledger
    from qipai.ledger.errors import KeyMismatch

    with Ledger.open(str(tmp_path / "k.db")) as ledger:
        seed = bytes(range(32))
        plain = {"carry_seed": seed.hex(), "next_seed": None}
        sealed = layout.seal_seeds(plain, "t1", ledger)
        assert sealed["carry_seed"] != seed.hex() and sealed["next_seed"] is None
        assert layout.seal_seeds(plain, "t1", ledger) == sealed  # stable: no needless write
        assert layout.open_seeds(sealed, "t1", ledger) == plain
        assert layout.open_seeds(plain, "t1", ledger) == plain
        with pytest.raises(KeyMismatch):
            layout.open_seeds(sealed, "t2", ledger)
