"""A round records the terms it was dealt under (docs/ledger.md, "Terms"): its template id and
version and `terms_hash`, the hash the ledger takes of the settings in the round's header when
the round opens, all under the header's MAC. `qipai verify ROUND` and `qipai audit` recompute the
hash from the recorded settings and catch a round whose settings differ from its template
version's seal (a pay table edited in the database: new tables deal it under the old
`config_hash`). A round written before rounds recorded `terms_hash` still verifies. SQLite and
PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from qipai.authority import Authority, games
from qipai.authority.terms import build_terms
from qipai.cli import app
from qipai.core.rng import new_seed
from qipai.ledger import Ledger
from qipai.ledger import terms as ledger_terms
from qipai.ledger.commands import terms_check
from tests.authority.conftest import Clock, both_backends
from tests.authority.test_template_seals import _edit_config

pytestmark = both_backends


def _deal(ledger: Ledger, authority: Authority, template_id: str) -> str:
    """What a table does when a round opens: its terms from the template version as the
    database holds it, the round's meta as `tables.units.round_meta` writes it."""
    template = authority.templates.get(template_id, 1)
    terms = build_terms(template)
    return ledger.open_round(
        table_id="t1",
        game=terms.game,
        config=terms.config.to_json(),
        seats=[],
        players={},
        seed=new_seed(),
        meta={
            "template_id": terms.template_id,
            "template_version": terms.template_version,
            "config_hash": terms.config_hash,
        },
    )


PER_ROUND = {"records' MACs", "round's ledger facts", "template seal"}


def _failed(ledger: Ledger, round_id: str) -> dict[str, str]:
    """verify's per-round checks that failed (the round has no seats: nothing to replay)."""
    report = ledger.verify_round(round_id, terms=terms_check(ledger))
    assert {c.name for c in report.checks} >= PER_ROUND
    return {c.name: c.detail for c in report.checks if not c.ok and c.name in PER_ROUND}


def _round_findings(ledger: Ledger) -> list[str]:
    report = ledger.audit(replay=False, terms=terms_check(ledger))
    return [v for v in report.violations if v.startswith("round ")]


def test_a_round_dealt_from_an_edited_template_is_caught(ledger: Ledger, clock: Clock) -> None:
    authority = Authority(ledger.engine, ledger=ledger, clock=clock)
    authority.start()
    victim = authority.default_template("pokdeng")
    honest = _deal(ledger, authority, victim.id)
    meta: dict[str, Any] = ledger.round(honest)["meta"]
    config = games.parse_config("pokdeng", victim.config)
    assert meta["terms_hash"] == games.config_hash("pokdeng", config) == victim.config_hash
    assert (meta["template_id"], meta["template_version"]) == (victim.id, 1)
    assert _failed(ledger, honest) == {}  # the negative control
    assert _round_findings(ledger) == []

    _edit_config(ledger.engine, victim.id, pair_odds=100)
    fresh = Authority(ledger.engine, ledger=ledger, clock=clock)  # reads the edited version
    tampered = _deal(ledger, fresh, victim.id)
    assert ledger.round(tampered)["config"]["pair_odds"] == 100
    failed = _failed(ledger, tampered)
    assert "but its terms claim" in failed["round's ledger facts"], failed
    assert "differ from its seal" in failed["template seal"], failed
    assert f"not those of template {victim.id} version 1" in failed["template seal"], failed
    found = _round_findings(ledger)
    assert any(f.startswith(f"round {tampered}: it was dealt under settings") for f in found)
    # the honest round's template version no longer matches its seal either: reported
    assert any(f.startswith(f"round {honest}: template {victim.id} version 1") for f in found)
    # the command line: `qipai audit` and `qipai verify ROUND` exit 1 naming it
    url = (
        ledger.url
        if ledger.schema is None
        else f"{ledger.url}?options=-csearch_path%3D{ledger.schema}"
    )
    out = CliRunner().invoke(app, ["audit", "--db", url, "--json", "--no-replay"])
    assert out.exit_code == 1, out.output
    violations = json.loads(out.output)["violations"]
    assert any(v.startswith(f"round {tampered}: it was dealt under settings") for v in violations)
    out = CliRunner().invoke(app, ["verify", tampered, "--db", url])
    assert out.exit_code == 1 and "FAIL template seal" in out.output, out.output


def test_a_round_without_a_terms_hash_still_verifies(
    ledger: Ledger, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    authority = Authority(ledger.engine, ledger=ledger, clock=clock)
    authority.start()
    template = authority.default_template("niuniu")
    # a round written before rounds recorded terms_hash: its header MACed without it
    monkeypatch.setattr(ledger_terms, "with_terms", lambda config, meta: meta)
    old = _deal(ledger, authority, template.id)
    monkeypatch.undo()
    assert "terms_hash" not in ledger.round(old)["meta"]
    assert _failed(ledger, old) == {}
    assert _round_findings(ledger) == []
