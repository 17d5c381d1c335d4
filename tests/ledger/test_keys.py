"""The ledger's key lives outside the database: created on first start with owner-only
permissions, taken from QIPAI_KEY / QIPAI_KEY_FILE in production, and a missing or wrong key at
start-up is a clear error that writes nothing (no new chain over the old one)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qipai.cli import app
from qipai.ledger import KeyMismatch, KeyMissing, Keys, Ledger
from qipai.ledger import db as dbm
from qipai.ledger import keys as keys_mod


@pytest.fixture(autouse=True)
def no_key_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv(keys_mod.ENV_KEY, raising=False)
    monkeypatch.delenv(keys_mod.ENV_KEY_FILE, raising=False)
    yield


def _write_something(ledger: Ledger) -> None:
    ledger.create_user("alice")
    ledger.deposit("alice", 500, "k")


def test_first_start_creates_an_owner_only_key_file_beside_the_database(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite3"
    with Ledger.open(str(path)) as ledger:
        _write_something(ledger)
        key_id = ledger.keys.key_id
    key_file = tmp_path / "room.sqlite3.key"
    assert key_file.exists()
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert Keys.parse(key_file.read_text(), "x").key_id == key_id
    assert key_file.read_text().strip() not in path.read_bytes().decode("latin-1")
    with Ledger.open(str(path)) as again:  # the same key is loaded again
        assert again.keys.key_id == key_id and again.wallet("alice") == 500


def test_a_missing_key_file_refuses_to_start_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite3"
    with Ledger.open(str(path)) as ledger:
        _write_something(ledger)
        key_id = ledger.keys.key_id
    key_file = tmp_path / "room.sqlite3.key"
    key_file.unlink()
    before = path.read_bytes()
    with pytest.raises(KeyMissing, match=f"key id {key_id}"):
        Ledger.open(str(path))
    assert not key_file.exists()  # no new key was made for an old database
    assert path.read_bytes() == before
    engine = dbm.create(f"sqlite:///{path}")
    assert dbm.recorded_key_id(engine) == key_id
    engine.dispose()


def test_a_wrong_key_refuses_to_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "room.sqlite3"
    with Ledger.open(str(path)) as ledger:
        _write_something(ledger)
    other = Keys.generate()
    with pytest.raises(KeyMismatch, match="not the key this database was written with"):
        Ledger.open(str(path), keys=other)
    monkeypatch.setenv(keys_mod.ENV_KEY, other.master.hex())
    with pytest.raises(KeyMismatch, match=r"\$QIPAI_KEY"):
        Ledger.open(str(path))


def test_production_keys_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = Keys.generate()
    key_file = tmp_path / "secrets" / "qipai.key"
    key_file.parent.mkdir()
    key_file.write_text(secret.text())
    monkeypatch.setenv(keys_mod.ENV_KEY_FILE, str(key_file))
    path = tmp_path / "prod.sqlite3"
    with Ledger.open(str(path)) as ledger:
        assert ledger.keys.key_id == secret.key_id
        _write_something(ledger)
    assert not (tmp_path / "prod.sqlite3.key").exists()  # no default key file is made
    monkeypatch.delenv(keys_mod.ENV_KEY_FILE)
    monkeypatch.setenv(keys_mod.ENV_KEY, secret.master.hex())
    with Ledger.open(str(path)) as ledger:
        assert ledger.wallet("alice") == 500
    import base64

    monkeypatch.setenv(keys_mod.ENV_KEY, base64.urlsafe_b64encode(secret.master).decode())
    with Ledger.open(str(path)) as ledger:
        assert ledger.keys.key_id == secret.key_id
    # a configured key file that is missing, for a database that has a key: refused
    monkeypatch.delenv(keys_mod.ENV_KEY)
    monkeypatch.setenv(keys_mod.ENV_KEY_FILE, str(tmp_path / "nowhere.key"))
    with pytest.raises(KeyMissing, match=r"nowhere.key\) does not exist"):
        Ledger.open(str(path))


@pytest.mark.parametrize("bad", ["", "abc", "zz" * 32, "00" * 31, "qipai-key-v1:" + "0" * 60])
def test_malformed_keys_are_refused(
    bad: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if bad:
        monkeypatch.setenv(keys_mod.ENV_KEY, bad)
    else:
        key_file = tmp_path / "empty.key"
        key_file.write_text("\n")
        monkeypatch.setenv(keys_mod.ENV_KEY_FILE, str(key_file))
    with pytest.raises(KeyMissing, match="not 32 bytes"):
        Ledger.open(str(tmp_path / "x.sqlite3"))


def test_audit_reports_a_missing_key_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite3"
    with Ledger.open(str(path)) as ledger:
        _write_something(ledger)
    (tmp_path / "room.sqlite3.key").unlink()
    out = CliRunner().invoke(app, ["audit", "--db", str(path)])
    assert out.exit_code == 2
    assert out.output.startswith("error: the ledger key is missing")


def test_the_server_does_not_start_without_its_key(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite3"
    with Ledger.open(str(path)) as ledger:
        _write_something(ledger)
    (tmp_path / "room.sqlite3.key").unlink()
    before = path.read_bytes()
    env = {k: v for k, v in os.environ.items() if not k.startswith("QIPAI_KEY")}
    proc = subprocess.run(
        [sys.executable, "-m", "qipai.cli", "serve", "--db", str(path), "--port", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert proc.returncode != 0
    assert "the ledger key is missing" in proc.stderr + proc.stdout
    assert path.read_bytes() == before and not (tmp_path / "room.sqlite3.key").exists()


@pytest.mark.slow  # two server starts in subprocesses; the missing-key start stays in the default suite
def test_the_server_does_not_start_with_a_wrong_key(tmp_path: Path) -> None:
    """`qipai serve` with a QIPAI_KEY that is not the database's: one clear line, a non-zero
    exit, nothing written (no new chain over the old one)."""
    path = tmp_path / "room.sqlite3"
    with Ledger.open(str(path)) as ledger:
        _write_something(ledger)
    before = path.read_bytes()
    env = {k: v for k, v in os.environ.items() if not k.startswith("QIPAI_KEY")}
    env[keys_mod.ENV_KEY] = Keys.generate().master.hex()
    proc = subprocess.run(
        [sys.executable, "-m", "qipai.cli", "serve", "--db", str(path), "--port", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert "not the key this database was written with" in lines[0], lines[0]
    assert "$QIPAI_KEY" in lines[0]
    assert "qipai card room: http" not in proc.stdout
    assert path.read_bytes() == before


def test_an_in_memory_database_gets_a_process_key() -> None:
    with Ledger.open("sqlite://") as ledger:
        assert ledger.keys.source == "in-memory database"
        _write_something(ledger)


def test_default_key_path_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert keys_mod.default_key_path(dbm.resolve_url(None)) == (
        tmp_path / "data" / "qipai" / "qipai.sqlite3.key"
    )
    assert keys_mod.default_key_path("sqlite:///:memory:") is None
    pg = keys_mod.default_key_path("postgresql+psycopg://app:pw@db.example:6543/room", "s1")
    assert pg == tmp_path / "data" / "qipai" / "keys" / "db.example_6543_room_s1.key"
