"""The operator log is keyed and anchored (docs/security.md, "The operator log"): an HMAC chain
under a key derived from the ledger's key (never in the database) and a MACed head written with
every row. Someone who can write the database (triggers disabled) but has no key cannot delete a
row and re-hash the rest, nor drop the newest rows, nor forge the head: the log's `verify` and
`qipai audit` each find it. On SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import hmac
import json

from sqlalchemy import Engine, delete, select, text, update
from typer.testing import CliRunner

from qipai.authority import Authority
from qipai.authority.oplog import SYSTEM, _canonical, row_hash
from qipai.authority.schema import ops_log, ops_log_head
from qipai.cli import app
from qipai.ledger import Ledger
from tests.authority.conftest import Clock, both_backends

pytestmark = both_backends


def _without_triggers(engine: Engine) -> None:
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            conn.execute(text("DROP TRIGGER IF EXISTS ops_log_append_only_update"))
            conn.execute(text("DROP TRIGGER IF EXISTS ops_log_append_only_delete"))
        else:
            conn.execute(text("ALTER TABLE ops_log DISABLE TRIGGER ops_log_append_only"))


def _rehash(engine: Engine, digest: object) -> None:
    """Rewrite every row's links and hashes after an edit, as someone with the database does."""
    with engine.begin() as conn:
        prev = "0" * 64
        for r in conn.execute(select(ops_log).order_by(ops_log.c.id)).mappings().all():
            row = {**dict(r), "prev_hash": prev}
            new = digest(row)  # type: ignore[operator]
            conn.execute(
                update(ops_log).where(ops_log.c.id == r["id"]).values(prev_hash=prev, hash=new)
            )
            prev = new


def _keyed(ledger: Ledger, clock: Clock) -> Authority:
    authority = Authority(ledger.engine, ledger=ledger, clock=clock)
    for n in range(8):
        authority.log.append(SYSTEM, "template.create", f"t{n}", "", {"n": n})
    assert authority.log.verify() == []
    return authority


def test_a_deleted_row_with_the_rest_rehashed_is_caught(ledger: Ledger, clock: Clock) -> None:
    authority = _keyed(ledger, clock)
    engine = ledger.engine
    _without_triggers(engine)
    with engine.begin() as conn:
        conn.execute(delete(ops_log).where(ops_log.c.target == "t3"))
    _rehash(engine, row_hash)  # plain SHA-256, as the log was hashed before it was keyed
    problems = authority.log.verify()
    assert problems and all("without the operator-log key" in p or "head" in p for p in problems)
    # with a key of the forger's own: no row carries the log's MAC
    wrong = b"k" * 32
    _rehash(
        engine,
        lambda row: hmac.new(wrong, _canonical(row).encode(), hashlib.sha256).hexdigest(),
    )
    problems = authority.log.verify()
    assert any("does not match its MAC" in p for p in problems), problems
    assert any("head says 8 rows" in p for p in problems), problems


def test_the_newest_rows_deleted_are_caught(ledger: Ledger, clock: Clock) -> None:
    authority = _keyed(ledger, clock)
    engine = ledger.engine
    _without_triggers(engine)
    with engine.begin() as conn:
        newest = [r[0] for r in conn.execute(select(ops_log.c.id).order_by(ops_log.c.id.desc()))]
        conn.execute(delete(ops_log).where(ops_log.c.id.in_(newest[:3])))
    (problem,) = authority.log.verify()
    assert "head says 8 rows ending at row" in problem and "has 5" in problem
    # the head moved back by hand: its MAC does not follow
    with engine.begin() as conn:
        last = conn.execute(select(ops_log).order_by(ops_log.c.id.desc()).limit(1)).first()
        assert last is not None
        conn.execute(update(ops_log_head).values(last_id=last.id, hash=last.hash, rows=5))
    assert authority.log.verify() == [
        "the operator log's head does not carry its MAC (it was altered)"
    ]


def test_qipai_audit_reports_the_operator_log(ledger: Ledger, clock: Clock) -> None:
    _keyed(ledger, clock)
    url = (
        ledger.url
        if ledger.schema is None
        else f"{ledger.url}?options=-csearch_path%3D{ledger.schema}"
    )
    runner = CliRunner()

    def findings() -> list[str]:
        out = runner.invoke(app, ["audit", "--db", url, "--json", "--no-replay"])
        assert out.exit_code in (0, 1), out.output  # (1: the test's superuser role, on PG)
        violations: list[str] = json.loads(out.output)["violations"]
        return [v for v in violations if v.startswith("operator log:")]

    assert findings() == []
    _without_triggers(ledger.engine)
    with ledger.engine.begin() as conn:
        newest = conn.execute(select(ops_log.c.id).order_by(ops_log.c.id.desc())).first()
        assert newest is not None
        conn.execute(delete(ops_log).where(ops_log.c.id == newest[0]))
    found = findings()
    assert len(found) == 1 and "rows were deleted" in found[0], found
