"""Upgrading books written before the chains (revision 0001, as the previous release wrote them):
the first open migrates, seals every record into its chain and encrypts the seeds of units in play,
and the books say what they said before — balances, statuses, holds, results — and pass audit."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from qipai.games import PACKAGES
from qipai.ledger import Ledger
from qipai.ledger import db as dbm
from tests.ledger.coin_game import CoinConfig, CoinRound

LEGACY = Path(__file__).with_name("data") / "legacy-0001.sqlite3"


@pytest.fixture(autouse=True)
def coin_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(PACKAGES, "coin", "tests.ledger.coin_game")
    monkeypatch.delenv("QIPAI_KEY", raising=False)
    monkeypatch.delenv("QIPAI_KEY_FILE", raising=False)
    yield


def _old(path: Path) -> dict[str, object]:
    """What the old books said, read straight from the old schema."""
    with sqlite3.connect(path) as conn:
        return {
            "balances": dict(conn.execute("SELECT name, balance FROM accounts").fetchall()),
            "rounds": dict(conn.execute("SELECT id, status FROM rounds").fetchall()),
            "holds": dict(conn.execute("SELECT id, status FROM holds").fetchall()),
            "nets": {
                (r, s): n
                for r, s, n in conn.execute("SELECT round_id, seat, net FROM round_players")
            },
            "open_seeds": [
                s for (s,) in conn.execute("SELECT seed FROM rounds WHERE seed_revealed = 0")
            ],
            "version": conn.execute("SELECT version_num FROM alembic_version").fetchall(),
        }


def test_an_old_database_is_upgraded_sealed_and_still_says_the_same(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite3"
    shutil.copy(LEGACY, path)
    old = _old(path)
    assert ("0001",) in old["version"]  # type: ignore[operator]
    with Ledger.open(str(path)) as ledger:
        assert dbm._at_head(ledger.engine)
        report = ledger.audit()  # every settled round replayed too
        assert report.ok, report.violations
        assert report.stats["rounds_replayed"] == 4
        assert ledger.balances() == old["balances"]
        for rid, status in old["rounds"].items():  # type: ignore[attr-defined]
            record = ledger.round(rid)
            assert record["status"] == status
            for p in record["players"]:
                assert p["net"] == old["nets"][(rid, p["seat"])]  # type: ignore[index]
        for hold_id, status in old["holds"].items():  # type: ignore[attr-defined]
            assert ledger.hold(hold_id).status == status
        # the open round goes on where it was: its seed opens with the new key, and it settles
        (open_round,) = ledger.open_rounds()
        assert open_round["seed"] in old["open_seeds"]  # type: ignore[operator]
        config = CoinConfig.from_json(open_round["config"])
        from qipai.core.protocol import RecordedAction, Seat

        seats = [Seat.from_json(s) for s in open_round["seats"]]
        round_ = CoinRound.replay(
            config,
            seats,
            bytes.fromhex(open_round["seed"]),
            [
                RecordedAction(e["seat"], e["payload"])
                for e in open_round["log"]
                if e["kind"] == "action"
            ],
            open_round["context"],
        )
        assert round_.finished
        tx = ledger.settle_round(open_round["round_id"], round_.result())
        assert tx.head is not None
        report = ledger.audit()
        assert report.ok, report.violations
        in_play = [
            r["seed"]
            for r in (ledger.round(rid, include_seed=True) for rid in old["rounds"])  # type: ignore[attr-defined]
            if not r["seed_revealed"]
        ]
    # the seed of the unit still in play is in the file only sealed (the upgrade left no copy)
    assert len(in_play) == 1
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("room.sqlite3"))
    for seed in in_play:
        assert seed.encode() not in raw and bytes.fromhex(seed) not in raw


def test_sealing_happens_once(tmp_path: Path) -> None:
    """A second open finds the chains and seals nothing more; a row without a MAC added later
    is a violation, not something the next start-up would vouch for."""
    from sqlalchemy import text

    from qipai.ledger.legacy import seal_legacy
    from tests.ledger.tamper import tampering

    path = tmp_path / "room.sqlite3"
    shutil.copy(LEGACY, path)
    with Ledger.open(str(path)) as ledger:
        assert seal_legacy(ledger.engine, ledger.keys) == 0
        with tampering(ledger) as conn:
            conn.execute(
                text(
                    "INSERT INTO round_log (round_id, seq, kind, payload, created_at) "
                    "SELECT id, 50, 'event', '{}', opened_at FROM rounds LIMIT 1"
                )
            )
    with Ledger.open(str(path)) as ledger:
        report = ledger.audit(replay=False)
        assert any("is in no chain" in v for v in report.violations), report.violations
