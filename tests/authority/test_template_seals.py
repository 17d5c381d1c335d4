"""Terms are tamper-evident (docs/security.md, "Terms"): every template version is sealed with
the ledger's key in its own transaction; a pay table changed in the database (triggers
disabled) is caught at start-up (the template suspended: no table opens on it, the offer drops
it, every other template plays on) and by `qipai audit`; an operator's new version lifts the
suspension. On SQLite and PostgreSQL."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import Engine, select, text, update
from typer.testing import CliRunner

from qipai.authority import Authority
from qipai.authority import errors as E
from qipai.authority.oplog import SYSTEM, Actor
from qipai.authority.schema import table_templates
from qipai.cli import app
from qipai.ledger import Ledger
from tests.authority.conftest import Clock, both_backends

pytestmark = both_backends

OLGA = Actor("olga", "operator")


def _edit_config(engine: Engine, template_id: str, **changes: object) -> None:
    """What someone with the database's owner rights does: the version edited in place."""
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            conn.execute(text("DROP TRIGGER IF EXISTS table_templates_append_only_update"))
        else:
            conn.execute(text("ALTER TABLE table_templates DISABLE TRIGGER USER"))
        config = conn.execute(
            select(table_templates.c.config).where(table_templates.c.template_id == template_id)
        ).scalar_one()
        conn.execute(
            update(table_templates)
            .where(table_templates.c.template_id == template_id)
            .values(config={**config, **changes})
        )
        if engine.dialect.name == "postgresql":
            conn.execute(text("ALTER TABLE table_templates ENABLE TRIGGER USER"))


def test_an_altered_pay_table_suspends_its_template(ledger: Ledger, clock: Clock) -> None:
    authority = Authority(ledger.engine, ledger=ledger, clock=clock)
    authority.start()
    assert authority.templates.check_seals() == {}
    victim = authority.default_template("pokdeng")
    other = authority.default_template("niuniu")
    assert "pair_odds" in victim.config, victim.config
    _edit_config(ledger.engine, victim.id, pair_odds=100)

    # a restart: start-up finds it, suspends the template, logs it; the others play on
    restarted = Authority(ledger.engine, ledger=ledger, clock=clock)
    restarted.start()
    assert victim.id in restarted.templates.suspended
    with pytest.raises(E.TemplateSuspended):
        restarted.terms_for(victim.id)
    assert victim.id not in {t["template"]["id"] for t in restarted.offer()}
    assert restarted.terms_for(other.id) is not None
    (row,) = restarted.log.entries(action="template.suspend")
    assert row["target"] == victim.id and "differ from its seal" in row["reason"]

    # qipai audit reports it
    url = (
        ledger.url
        if ledger.schema is None
        else f"{ledger.url}?options=-csearch_path%3D{ledger.schema}"
    )
    out = CliRunner().invoke(app, ["audit", "--db", url, "--json", "--no-replay"])
    assert out.exit_code == 1, out.output
    found = [v for v in json.loads(out.output)["violations"] if v.startswith("template ")]
    assert found == [
        f"template {victim.id} version 1: its terms differ from its seal (altered in the database)"
    ]

    # the operator makes a new version: sealed, the suspension lifted
    body = {"base_version": 1, "settings": dict(victim.config), "reason": "restore the pay table"}
    fixed = restarted.templates.change(victim.id, body, OLGA)
    assert fixed.version == 2 and fixed.config["pair_odds"] == victim.config["pair_odds"]
    assert list(restarted.templates.check_seals()) == [(victim.id, 1)]  # still the audit's
    assert victim.id not in restarted.templates.suspended
    assert restarted.terms_for(victim.id) is not None


def test_a_deleted_seal_does_not_make_a_version_look_new(ledger: Ledger, clock: Clock) -> None:
    authority = Authority(ledger.engine, ledger=ledger, clock=clock)
    authority.start()
    made = authority.templates.create(
        {"game": "niuniu", "name": "niu test", "settings": {}}, SYSTEM
    )
    with ledger.engine.begin() as conn:
        if ledger.dialect == "sqlite":
            conn.execute(text("DROP TRIGGER IF EXISTS template_seals_append_only_delete"))
        else:
            conn.execute(text("ALTER TABLE template_seals DISABLE TRIGGER USER"))
        conn.execute(text(f"DELETE FROM template_seals WHERE template_id = '{made.id}'"))
    restarted = Authority(ledger.engine, ledger=ledger, clock=clock)
    restarted.start()
    assert restarted.templates.suspended[made.id].endswith(
        "it has no seal (written or altered without the ledger's key)"
    )
