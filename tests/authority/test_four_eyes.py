"""Four-eyes (docs/operators.md §2): adjustments, withdrawals above the threshold and template
changes wait for a second operator; nobody approves their own request; an approval runs the
action once. On SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from qipai.authority import Authority, AuthoritySettings
from qipai.authority import four_eyes as fe
from qipai.authority.errors import (
    BadRequest,
    KycRequired,
    LimitReached,
    OwnRequest,
    RoleForbidden,
)
from qipai.authority.oplog import Actor
from qipai.ledger import Ledger
from tests.authority.conftest import Clock, both_backends

pytestmark = both_backends

CASH, SUPER, FIN, FLOOR = (
    Actor("carl", "cashier"),
    Actor("sue", "supervisor"),
    Actor("fay", "finance"),
    Actor("flo", "floor"),
)


def _room(ledger: Ledger, clock: Clock, **kw: object) -> Authority:
    settings = AuthoritySettings(demo=False, withdrawal_approval_over=1_000, **kw)  # type: ignore[arg-type]
    authority = Authority(ledger.engine, settings, ledger=ledger, clock=clock)
    authority.start()
    return authority


def _player(ledger: Ledger, name: str = "alice", money: int = 50_000) -> str:
    ledger.create_user(name)
    ledger.deposit(name, money, f"seed:{name}")
    return name


def test_an_adjustment_waits_for_another_operator(ledger: Ledger, clock: Clock) -> None:
    authority = _room(ledger, clock)
    alice = _player(ledger)
    asked = fe.ask_adjust(authority, alice, 700, CASH, "goodwill")
    assert asked["status"] == "awaiting_approval"
    assert ledger.wallet(alice) == 50_000  # nothing moved yet
    approval = int(asked["approval"]["id"])
    with pytest.raises(OwnRequest):
        authority.approvals.decide(approval, True, CASH, "mine")
    with pytest.raises(RoleForbidden):
        authority.approvals.decide(approval, True, FLOOR, "not mine to judge")
    assert ledger.wallet(alice) == 50_000
    done = authority.approvals.decide(approval, True, FIN, "checked the ticket")
    assert done["status"] == "approved" and done["decided_by"] == "fay"
    assert ledger.wallet(alice) == 50_700
    with pytest.raises(Exception, match="approved already"):
        authority.approvals.decide(approval, True, SUPER, "again")
    assert ledger.wallet(alice) == 50_700  # once


def test_a_large_withdrawal_needs_two_cashiers(ledger: Ledger, clock: Clock) -> None:
    authority = _room(ledger, clock, withdrawal_kyc=False)
    alice = _player(ledger)
    small = authority.money.request(alice, "withdrawal", 500, "bank", "IBAN-1")["request"]
    large = authority.money.request(alice, "withdrawal", 5_000, "bank", "IBAN-2")["request"]
    assert small["method"] == "bank" and large["reference"] == "IBAN-2"
    assert fe.ask_withdrawal(authority, int(small["id"]), CASH, "ok")["status"] == "approved"
    first = fe.ask_withdrawal(authority, int(large["id"]), CASH, "looks fine")
    assert first["status"] == "pending" and first["awaiting_approval"]["status"] == "pending"
    with pytest.raises(OwnRequest):  # the same cashier again
        fe.ask_withdrawal(authority, int(large["id"]), CASH, "still fine")
    assert authority.money.get(int(large["id"]))["status"] == "pending"
    second = fe.ask_withdrawal(authority, int(large["id"]), SUPER, "second pair of eyes")
    assert second["status"] == "approved"
    assert ledger.wallet(alice) == 50_000 - 500 - 5_000


def test_a_template_change_waits_and_runs_under_the_asker(ledger: Ledger, clock: Clock) -> None:
    authority = _room(ledger, clock)
    body = {"game": "pokdeng", "name": "Quiet room", "settings": {}, "reason": "new room"}
    with pytest.raises(BadRequest):
        fe.ask_template(authority, "create", None, {**body, "reason": "  "}, FIN)
    with pytest.raises(BadRequest):  # refused when asked, not when approved
        fe.ask_template(authority, "create", None, {**body, "min_buy_in": 1}, FIN)
    asked = fe.ask_template(authority, "create", None, body, FIN)
    approval = int(asked["approval"]["id"])
    assert not [t for t in authority.templates.current().values() if t.name == "Quiet room"]
    with pytest.raises(OwnRequest):
        authority.approvals.decide(approval, True, FIN, "mine")
    done = authority.approvals.decide(approval, True, SUPER, "agreed")
    made = done["result"]
    assert made["created_by"] == "fay" and made["version"] == 1
    rejected = fe.ask_template(
        authority, "retire", made["id"], {"reason": "gone", "base_version": 1}, FIN
    )
    authority.approvals.decide(int(rejected["approval"]["id"]), False, SUPER, "keep it")
    assert authority.templates.get(made["id"]).active


def test_withdrawals_wait_for_kyc(ledger: Ledger, clock: Clock) -> None:
    authority = _room(ledger, clock)
    alice = _player(ledger)
    with pytest.raises(KycRequired):
        authority.money.request(alice, "withdrawal", 100)
    authority.players.set_kyc(alice, CASH, {"status": "verified", "reason": "passport seen"})
    assert authority.money.request(alice, "withdrawal", 100)["status"] == "pending"


def test_limits_lower_at_once_and_raise_after_cooling(ledger: Ledger, clock: Clock) -> None:
    authority = _room(ledger, clock, limit_cooling_s=3600.0)
    alice = _player(ledger)
    authority.limits.set_by_player(alice, {"kind": "deposit", "value": 1_000})
    authority.money.request(alice, "deposit", 600, "card", "tx-1")
    with pytest.raises(LimitReached):
        authority.money.request(alice, "deposit", 500)
    raised = authority.limits.set_by_player(alice, {"kind": "deposit", "value": 5_000})
    assert raised["effective"] == 1_000 and raised["pending"] == 5_000
    with pytest.raises(LimitReached):
        authority.money.request(alice, "deposit", 500)
    clock.advance(3601)
    assert authority.money.request(alice, "deposit", 500)["status"] == "pending"
    authority.limits.set_by_operator(
        alice, SUPER, {"kind": "deposit", "value": 1_100, "reason": "affordability"}
    )
    with pytest.raises(LimitReached):  # the operator's lower limit applies at once
        authority.money.request(alice, "deposit", 1)
