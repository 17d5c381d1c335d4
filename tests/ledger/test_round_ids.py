"""The ledger's round ids sort by when the rounds opened (qipai/core/ids.py): each new round's
rows go to the end of every index keyed by round, where one commit's rounds share pages."""

from __future__ import annotations

import time

import pytest

from qipai.ledger import Ledger
from tests.ledger.helpers import play_coin


@pytest.fixture(autouse=True)
def _coin(monkeypatch: pytest.MonkeyPatch) -> None:
    from qipai.games import PACKAGES

    monkeypatch.setitem(PACKAGES, "coin", "tests.ledger.coin_game")


def test_rounds_opened_one_after_another_have_ids_in_that_order(ledger: Ledger) -> None:
    players = {"P1": "ann", "P2": "bea"}
    for user in players.values():
        ledger.create_user(user)
        ledger.deposit(user, 10_000, "d")
        ledger.buy_in(user, "t1", 10_000, "b")
    opened = []
    for _ in range(8):  # 8 random ids would come out in this order once in 40,320 runs
        rid, _round = play_coin(ledger, {"P1": 10, "P2": 10}, players)
        opened.append(rid)
        time.sleep(0.002)  # the next round opens in a later millisecond
    assert opened == sorted(opened)
    assert [ledger.round(rid)["round_id"] for rid in opened] == opened
