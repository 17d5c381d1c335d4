"""The operator log and the template versions are append-only (database triggers), and the log's
hash chain shows an edit made behind the triggers' back."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DatabaseError

from qipai.authority import Authority
from qipai.authority.oplog import SYSTEM, Actor
from tests.authority.conftest import both_backends

pytestmark = both_backends


def test_the_log_refuses_update_and_delete(engine: Engine, authority: Authority) -> None:
    authority.log.append(Actor("olga", "operator"), "table.suspend", "t1", "dealer error")
    for statement in (
        "UPDATE ops_log SET reason = 'nothing happened'",
        "DELETE FROM ops_log",
        "UPDATE table_templates SET status = 'active'",
        "DELETE FROM table_templates",
    ):
        with pytest.raises(DatabaseError, match="append-only"), engine.begin() as conn:
            if statement.startswith(("UPDATE table_templates", "DELETE FROM table_templates")):
                conn.execute(
                    text(
                        "INSERT INTO table_templates (template_id, version, game, name, status,"
                        " config, config_hash, engine_version, min_buy_in, max_buy_in,"
                        " bot_levels, private_allowed, pool_id, rtp_over_100, created_at,"
                        " created_by, reason) VALUES ('x', 1, 'pokdeng', 'x', 'retired', '{}',"
                        " 'h', '1', 1, 1, '[]', false, NULL, false, 0, 'system', '')"
                    )
                )
            conn.execute(text(statement))
    (row,) = authority.log.entries()
    assert row["reason"] == "dealer error" and row["actor"] == "olga"
    if engine.dialect.name == "postgresql":
        with pytest.raises(DatabaseError, match="append-only"), engine.begin() as conn:
            conn.execute(text("TRUNCATE ops_log"))


def test_the_chain_shows_an_edit_behind_the_triggers(engine: Engine, authority: Authority) -> None:
    for n in range(3):
        authority.log.append(SYSTEM, "template.create", f"t{n}", "", {"n": n})
    assert authority.log.verify() == []
    rows = authority.log.entries()
    assert rows[0]["prev_hash"] == rows[1]["hash"]
    with engine.begin() as conn:  # someone with the database's owner rights
        if engine.dialect.name == "sqlite":
            conn.execute(text("DROP TRIGGER ops_log_append_only_update"))
        else:
            conn.execute(text("ALTER TABLE ops_log DISABLE TRIGGER ops_log_append_only"))
        conn.execute(text("UPDATE ops_log SET target = 'tX' WHERE target = 't1'"))
    problems = authority.log.verify()
    assert problems == [f"row {rows[1]['id']}: content does not match its hash"]
