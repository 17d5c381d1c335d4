"""A table on an older version of its template moves to the newest one at its next deal-unit
boundary (docs/operators.md "Tables on older versions"), with a better and a worse new version
(Pai Gow's commission lowered and raised; a Pai Gow game of two rounds is one deal unit):

* the rounds of the unit in play when the move is asked keep the old terms; from the first round
  of the next unit every round is dealt with, journaled under and shown the new version, and the
  players' state of that round carries `terms_changed` and the new terms;
* the pending move survives a restart (the layout keeps it), and "leave" withdraws it.

On SQLite and PostgreSQL, through the real table runtime into the ledger.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from sqlalchemy import select

from qipai.authority import Authority, AuthoritySettings
from qipai.authority.oplog import SYSTEM
from qipai.authority.terms import build_terms
from qipai.core.rng import Rng
from qipai.ledger import Ledger
from qipai.ledger.schema import rounds
from qipai.tables import layout, moves
from qipai.tables.table import Table
from tests.authority.conftest import both_backends
from tests.authority.tableplay import play, policy

pytestmark = both_backends


def _more(table: Table, humans: list[str], count: int) -> None:
    """Play `count` more rounds at a table `play` set up (its people act by the game's policy)."""
    chooser, rng = policy(table.game.name), Rng(hashlib.sha256(b"more").digest())

    def settled() -> int:
        return table.number - (1 if table.round is not None else 0)

    target, guard = settled() + count, 0
    while settled() < target:
        guard += 1
        assert guard < 200 * count + 1000, "the table stopped dealing"
        table.clock.advance(0.5)  # type: ignore[attr-defined]
        table.tick()
        for p in humans:
            seat = table.seating.seat_of(p)
            assert seat is not None, f"{p} was stood up"
            for _ in range(8):
                rnd = table.round
                if rnd is None or rnd.finished or seat not in rnd.awaiting():
                    break
                legal = rnd.legal_actions(seat)
                if not legal:
                    break
                table.act(p, chooser.choose(rnd.view(seat), legal, rng), None)


def _played(ledger: Ledger, table_id: str) -> list[dict[str, Any]]:
    with ledger.engine.connect() as conn:
        rows = conn.execute(
            select(rounds.c.meta, rounds.c.config)
            .where(rounds.c.table_id == table_id)
            .order_by(rounds.c.chain_seq)
        ).all()
    return [
        {"version": m["template_version"], "hash": m["config_hash"], "config": c} for m, c in rows
    ]


@pytest.mark.parametrize("commission", ["0.03", "0.07"], ids=["better", "worse"])
def test_a_table_moves_to_the_new_version_at_its_next_unit(ledger: Ledger, commission: str) -> None:
    authority = Authority(ledger.engine, AuthoritySettings(demo=False), ledger=ledger)
    authority.start()
    (old,) = [t for t in authority.templates.active() if t.game == "paigow"]
    table = play(ledger, authority, old.id, 1, seed=7, people=2)
    humans = [p for p in table.seating.humans()]
    sent: list[tuple[str, dict[str, Any]]] = []
    table.send = lambda player, message: sent.append((player, message))
    assert table.units.running  # the first round of a two-round game: the unit goes on

    new = authority.templates.change(
        old.id,
        {
            "base_version": old.version,
            "settings": {**old.config, "commission": commission},
            "reason": "commission change",
        },
        SYSTEM,
    )
    assert new.version == old.version + 1
    with table.lock:
        moves.ask(table, build_terms(new))
    assert layout.build(table)["pending_terms"]["template_version"] == new.version

    _more(table, humans, 3)
    played = _played(ledger, table.id)
    versions = [r["version"] for r in played]
    assert versions == [old.version, old.version, new.version, new.version]
    for r in played[2:]:
        assert r["hash"] == new.config_hash
        assert r["config"]["commission"] == commission
    for r in played[:2]:
        assert r["config"]["commission"] == old.config["commission"]
    assert table.terms.template_version == new.version and table.pending_terms is None
    assert table.config.to_json()["commission"] == commission

    told = [m for _, m in sent if any(e["type"] == "terms_changed" for e in m.get("events") or [])]
    assert told
    assert {m["table"]["terms"]["template"]["version"] for m in told} == {new.version}
    tellers = {
        p for p, m in sent if any(e["type"] == "terms_changed" for e in m.get("events") or [])
    }
    assert tellers == set(humans)  # every player seated is told


def test_a_pending_move_survives_a_restart_and_leave_withdraws_it(ledger: Ledger) -> None:
    authority = Authority(ledger.engine, AuthoritySettings(demo=False), ledger=ledger)
    authority.start()
    (old,) = [t for t in authority.templates.active() if t.game == "paigow"]
    table = play(ledger, authority, old.id, 1, seed=8, people=2)
    new = authority.templates.change(
        old.id,
        {"base_version": old.version, "min_buy_in": old.min_buy_in, "reason": "new version"},
        SYSTEM,
    )
    with table.lock:
        with pytest.raises(Exception, match="not newer"):
            moves.ask(table, build_terms(old))
        moves.ask(table, build_terms(new))
    saved = layout.build(table)
    again = Table(table.id, table.game, table.ledger, table.clock, terms=build_terms(old))
    layout.restore(again, saved)
    assert again.pending_terms is not None
    assert again.pending_terms.template_version == new.version
    with again.lock:
        assert moves.leave(again)
    assert again.pending_terms is None
    assert layout.build(again)["pending_terms"] is None
