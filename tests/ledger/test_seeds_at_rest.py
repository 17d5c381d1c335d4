"""Seeds at rest (docs/ledger.md): the seed of a deal unit still in play is stored only sealed with the
ledger's key, so a copy of the database — the SQLite file's bytes, a `pg_dump` — holds no seed
of an open unit in the clear; once the unit ends its seed is public. `qipai verify` opens the
sealed seed with the key."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qipai.cli import app
from qipai.core.rng import new_seed
from qipai.games import PACKAGES
from qipai.ledger import Ledger
from tests.ledger.conftest import PG_URL
from tests.ledger.helpers import play_coin

PLAYERS = {"P1": "alice", "P2": "bob"}


@pytest.fixture(autouse=True)
def coin_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(PACKAGES, "coin", "tests.ledger.coin_game")
    yield


def _dump(ledger: Ledger, tmp_path: Path) -> bytes:
    if ledger.dialect == "sqlite":
        ledger.engine.dispose()  # (nothing held back in a connection)
        folder = Path(ledger.url.removeprefix("sqlite:///")).parent
        return b"".join(p.read_bytes() for p in sorted(folder.iterdir()) if ".sqlite3" in p.name)
    pg_dump = shutil.which("pg_dump") or "/usr/lib/postgresql/15/bin/pg_dump"
    from sqlalchemy.engine import make_url

    url = make_url(PG_URL)
    out = subprocess.run(
        [
            pg_dump,
            "-h",
            url.host or "127.0.0.1",
            "-p",
            str(url.port or 5432),
            "-U",
            url.username or "postgres",
            "-n",
            str(ledger.schema),
            "--data-only",
            url.database or "test",
        ],
        capture_output=True,
        check=True,
        timeout=120,
    )
    return out.stdout


def test_a_dump_holds_no_seed_of_a_unit_in_play(funded: Ledger, tmp_path: Path) -> None:
    in_play, done = new_seed(), new_seed()
    shoe, _ = play_coin(funded, {"P1": 10}, {"P1": "alice"}, seed=in_play, reveal_seed=False)
    open_round, _ = play_coin(funded, {"P1": 20, "P2": 30}, PLAYERS, seed=in_play, settle=False)
    finished, _ = play_coin(funded, {"P2": 15}, {"P2": "bob"}, seed=done)
    assert funded.round(shoe)["seed"] is None and funded.round(open_round)["seed"] is None
    assert funded.round(finished)["seed"] == done.hex()  # a unit that ended: public
    assert funded.round(open_round, include_seed=True)["seed"] == in_play.hex()  # the operator
    dump = _dump(funded, tmp_path)
    assert done.hex().encode() in dump  # the search finds a seed that is stored in the clear...
    assert in_play.hex().encode() not in dump and in_play not in dump  # ...and none in play
    assert in_play.hex().upper().encode() not in dump


def test_verify_opens_the_sealed_seed_with_the_key(funded: Ledger) -> None:
    seed = new_seed()
    rid, _ = play_coin(funded, {"P1": 10, "P2": 20}, PLAYERS, seed=seed, reveal_seed=False)
    db = (
        funded.url
        if funded.schema is None
        else (f"{funded.url}?options=-csearch_path%3D{funded.schema}")
    )
    out = CliRunner().invoke(app, ["verify", rid, "--db", db])
    assert out.exit_code == 0, out.output
    assert "ok   seed matches commitment" in out.output
    report = funded.audit()
    assert report.ok and report.stats["rounds_replayed"] == 1


def test_open_rounds_give_recovery_the_seed(funded: Ledger) -> None:
    seed = new_seed()
    rid, _ = play_coin(funded, {"P1": 10}, {"P1": "alice"}, seed=seed, settle=False)
    (found,) = funded.open_rounds()
    assert found["round_id"] == rid and found["seed"] == seed.hex()
