"""The audit reports a round whose sealed seed does not open with the key (its box altered or
swapped with another round's) as a finding and goes on with the other rounds, instead of
stopping on the error. On SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import select, update

from qipai.core.rng import new_seed
from qipai.games import PACKAGES
from qipai.ledger import Ledger
from qipai.ledger.schema import rounds
from tests.ledger.helpers import play_coin
from tests.ledger.tamper import tampering


@pytest.fixture(autouse=True)
def coin_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PACKAGES, "coin", "tests.ledger.coin_game")


def test_a_seal_that_does_not_open_is_a_finding(funded: Ledger) -> None:
    shoe = new_seed()
    first, _ = play_coin(funded, {"P1": 10}, {"P1": "alice"}, seed=shoe, reveal_seed=False)
    second, _ = play_coin(funded, {"P2": 20}, {"P2": "bob"}, seed=new_seed(), reveal_seed=False)
    play_coin(funded, {"P1": 30}, {"P1": "alice"}, seed=new_seed())
    assert funded.audit().ok
    with funded.engine.connect() as conn:
        box = conn.execute(select(rounds.c.seed).where(rounds.c.id == second)).scalar_one()
    with tampering(funded) as conn:  # the second round's box put on the first round
        conn.execute(update(rounds).where(rounds.c.id == first).values(seed=box))
    report = funded.audit()
    sealed = [v for v in report.violations if "sealed seed" in v]
    assert sealed and sealed[0].startswith(f"round {first}: sealed seed:")
    assert report.stats["rounds_replayed"] == 3  # the others were replayed all the same
