"""The money desk: demo deposits within a daily limit (a retry is the same deposit), requests an
operator approves when demo money is off, and that refusals move nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, select

from qipai.authority import Authority, AuthoritySettings
from qipai.authority import errors as E
from qipai.authority.oplog import Actor
from qipai.authority.schema import money_requests
from qipai.ledger import Ledger
from qipai.ledger.errors import InsufficientFunds
from qipai.ledger.holds import Hold
from tests.authority.conftest import BOTH, Clock

OLGA = Actor("olga", "operator")


def test_demo_deposits_have_a_daily_limit(ledger: Ledger, clock: Clock) -> None:
    authority = Authority(
        ledger.engine, AuthoritySettings(demo_daily_limit=3_000), ledger=ledger, clock=clock
    )
    ledger.create_user("alice")
    assert authority.money.deposit("alice", 2_000, "k1")["demo_left_today"] == 1_000
    assert authority.money.deposit("alice", 2_000, "k1")["wallet"] == 2_000  # a retry
    with pytest.raises(E.Conflict):
        authority.money.deposit("alice", 500, "k1")
    with pytest.raises(E.DemoLimit) as over:
        authority.money.deposit("alice", 1_001)
    assert over.value.field == "amount"
    assert ledger.wallet("alice") == 2_000
    authority.money.deposit("alice", 1_000)
    for bad in (0, -5, True, 1.5, "100", 10**13):
        with pytest.raises(E.BadRequest):
            authority.money.deposit("alice", bad)
    clock.advance(86_400)
    assert authority.money.deposit("alice", 3_000)["demo_left_today"] == 0
    assert ledger.wallet("alice") == 6_000
    authority.players.set_limits("alice", OLGA, {"demo_daily_limit": 0, "reason": "abuse"})
    with pytest.raises(E.DemoLimit):
        authority.money.deposit("alice", 1)


def test_without_demo_money_operators_approve_requests(ledger: Ledger, engine: Engine) -> None:
    authority = Authority(
        engine, AuthoritySettings(demo=False, withdrawal_kyc=False), ledger=ledger
    )
    ledger.create_user("bob")
    pending = authority.money.deposit("bob", 5_000)
    assert pending["status"] == "pending" and ledger.wallet("bob") == 0
    rid = pending["request"]["id"]
    with pytest.raises(E.BadRequest):
        authority.money.decide(rid, True, OLGA, "")
    done = authority.money.decide(rid, True, OLGA, "bank transfer 42")
    assert done["status"] == "approved" and ledger.wallet("bob") == 5_000
    with pytest.raises(E.Conflict):
        authority.money.decide(rid, True, OLGA, "again")
    assert ledger.wallet("bob") == 5_000
    with pytest.raises(E.BadRequest):  # more than the wallet holds
        authority.money.request("bob", "withdrawal", 6_000)
    out = authority.money.request("bob", "withdrawal", 4_000)["request"]
    authority.money.decide(out["id"], False, OLGA, "identity not checked")
    assert ledger.wallet("bob") == 5_000
    out = authority.money.request("bob", "withdrawal", 4_000)["request"]
    assert authority.money.cancel("bob", out["id"])["status"] == "cancelled"
    with pytest.raises(E.NotFound):
        authority.money.cancel("bob", out["id"])
    for _ in range(5):
        authority.money.request("bob", "deposit", 1)
    with pytest.raises(E.Conflict):
        authority.money.request("bob", "deposit", 1)
    actions = [r["action"] for r in authority.log.entries()]
    assert actions == ["money.withdrawal.reject", "money.deposit.approve"]


@pytest.mark.parametrize("ledger", BOTH, indirect=True)
def test_a_withdrawal_request_holds_its_money(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The money a withdrawal asks for is held in the ledger from the request on (it
    cannot be bet or bought in meanwhile); a cancel or a rejection gives it back, an approval
    pays the held money out; the audit balances throughout."""
    authority = Authority(
        ledger.engine, AuthoritySettings(demo=False, withdrawal_kyc=False), ledger=ledger
    )
    ledger.create_user("carol")
    ledger.deposit("carol", 10_000, "bank-1")
    desk = authority.money

    def request(amount: int) -> int:
        return int(desk.request("carol", "withdrawal", amount)["request"]["id"])

    first = request(8_000)
    assert ledger.wallet("carol") == 2_000 and desk.held("carol") == 8_000
    with pytest.raises(InsufficientFunds):  # the held money cannot go to a table
        ledger.buy_in("carol", "t1", 5_000, "sit-1")
    with pytest.raises(E.BadRequest):  # nor be asked for twice
        request(5_000)
    assert _audit_ok(ledger)
    desk.cancel("carol", first)
    assert ledger.wallet("carol") == 10_000 and desk.held("carol") == 0

    second = request(6_000)
    desk.decide(second, False, OLGA, "name does not match the bank account")
    assert ledger.wallet("carol") == 10_000 and desk.held("carol") == 0

    third = request(7_000)
    ledger.buy_in("carol", "t1", 3_000, "sit-2")  # the rest is the player's to play with
    done = desk.decide(third, True, OLGA, "paid to the bank")
    assert done["status"] == "approved" and done["tx_id"]
    assert ledger.wallet("carol") == 0 and desk.held("carol") == 0
    assert ledger.stack("carol", "t1") == 3_000
    (hold,) = [h for h in _holds(ledger) if h.status == "captured"]
    assert (hold.amount, hold.captured, hold.purpose) == (7_000, 7_000, "withdrawal")
    report = ledger.audit()
    assert _audit_ok(ledger), report.violations
    assert report.stats["withdrawals"] == 7_000 and report.stats["deposits"] == 10_000
    with pytest.raises(E.Conflict):  # decided once
        desk.decide(third, True, OLGA, "again")
    with pytest.raises(E.Conflict) as held_money:  # its opposite would refill a closed hold
        desk.reverse(done["tx_id"], OLGA, "bank bounced it")
    assert held_money.value.field == "tx_id"
    assert _audit_ok(ledger) and ledger.balance("external") == -3_000

    # spent between the check and the hold (a bet in another request): no request, nothing held
    ledger.cash_out("carol", "t1", "stand-1")
    before = desk.requests(player="carol")
    monkeypatch.setattr(ledger, "wallet", lambda _player: 10**9)
    with pytest.raises(E.BadRequest) as short:
        request(5_000)
    assert short.value.field == "amount"
    monkeypatch.undo()
    assert desk.requests(player="carol") == before and desk.held("carol") == 0
    assert ledger.wallet("carol") == 3_000 and _audit_ok(ledger)


def test_a_hold_left_by_a_crash_is_released_at_start(ledger: Ledger) -> None:
    """A request rejected (or cancelled) whose release did not happen (the process died in
    between) is released at the next start; a pending request keeps its hold."""
    authority = Authority(
        ledger.engine, AuthoritySettings(demo=False, withdrawal_kyc=False), ledger=ledger
    )
    ledger.create_user("dave")
    ledger.deposit("dave", 9_000, "bank-1")
    desk = authority.money
    kept = int(desk.request("dave", "withdrawal", 2_000)["request"]["id"])
    lost = int(desk.request("dave", "withdrawal", 3_000)["request"]["id"])
    released: list[int] = []
    original = desk._release
    desk._release = released.append  # type: ignore[method-assign]  # the crash
    desk.decide(lost, False, OLGA, "duplicate")
    desk._release = original  # type: ignore[method-assign]
    assert released == [lost] and ledger.wallet("dave") == 4_000
    Authority(
        ledger.engine, AuthoritySettings(demo=False, withdrawal_kyc=False), ledger=ledger
    ).start()
    assert ledger.wallet("dave") == 7_000 and desk.held("dave") == 2_000
    assert desk.get(kept)["status"] == "pending" and _audit_ok(ledger)


def _audit_ok(ledger: Ledger) -> bool:
    """The audit finds nothing wrong with the books (the test database's superuser role,
    which the PostgreSQL audit also reports, aside)."""
    report = ledger.audit()
    return not [v for v in report.violations if "is a superuser" not in v]


def _holds(ledger: Ledger) -> list[Hold]:
    from qipai.ledger.holds import _SELECT, _hold

    with ledger.engine.connect() as conn:
        return [_hold(r) for r in conn.execute(_SELECT).mappings()]


@pytest.mark.parametrize("ledger", BOTH, indirect=True)
def test_a_demo_deposit_whose_ledger_write_fails_is_not_left_approved(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ledger refuses the write: the request is not `approved`, the daily limit is not
    spent, and a retry with the same key is one deposit, approved."""
    authority = Authority(ledger.engine, AuthoritySettings(demo_daily_limit=3_000), ledger=ledger)
    ledger.create_user("alice")
    real = Ledger.deposit

    def broken(self: Ledger, user_id: str, amount: int, key: str) -> object:
        raise OSError("the ledger's disk is gone")

    monkeypatch.setattr(Ledger, "deposit", broken)
    with pytest.raises(OSError):
        authority.money.deposit("alice", 3_000, "k1")
    with ledger.engine.connect() as conn:
        statuses = [r.status for r in conn.execute(select(money_requests.c.status))]
    assert statuses == ["cancelled"]
    assert ledger.wallet("alice") == 0
    assert authority.money.demo_used_today("alice") == 0
    monkeypatch.setattr(Ledger, "deposit", real)
    assert authority.money.deposit("alice", 3_000, "k1")["wallet"] == 3_000
    assert authority.money.deposit("alice", 3_000, "k1")["wallet"] == 3_000  # once
    with ledger.engine.connect() as conn:
        statuses = [r.status for r in conn.execute(select(money_requests.c.status))]
    assert statuses == ["approved"]


@pytest.mark.parametrize("ledger", BOTH, indirect=True)
def test_a_demo_deposit_whose_answer_was_lost_keeps_its_transaction(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ledger commits the deposit and only then fails: the request stays approved and
    records the transaction (the wallet holds the money)."""
    authority = Authority(ledger.engine, AuthoritySettings(), ledger=ledger)
    ledger.create_user("alice")
    real = Ledger.deposit

    def commits_then_fails(self: Ledger, user_id: str, amount: int, key: str) -> object:
        real(self, user_id, amount, key)
        raise ConnectionError("the answer was lost")

    monkeypatch.setattr(Ledger, "deposit", commits_then_fails)
    with pytest.raises(ConnectionError):
        authority.money.deposit("alice", 700)
    with ledger.engine.connect() as conn:
        rows = conn.execute(select(money_requests.c.status, money_requests.c.tx_id)).all()
    assert [r.status for r in rows] == ["approved"] and rows[0].tx_id is not None
    assert ledger.wallet("alice") == 700


@pytest.mark.parametrize("ledger", BOTH, indirect=True)
def test_a_demo_deposit_cut_off_by_a_crash_is_settled_at_start(
    ledger: Ledger, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process dies between the request row and the ledger write (the write never
    happens), and once after the write (its answer lost): at the next start the first is
    cancelled, the second records its transaction; neither stays approved without one."""
    authority = Authority(ledger.engine, AuthoritySettings(), ledger=ledger, clock=clock)
    ledger.create_user("alice")
    real = Ledger.deposit

    def dies(self: Ledger, user_id: str, amount: int, key: str) -> object:
        raise SystemExit  # as if killed: no handler of the desk's runs after the row

    monkeypatch.setattr(Ledger, "deposit", dies)
    monkeypatch.setattr(type(authority.money), "_undo_demo", lambda *a: None)
    with pytest.raises(SystemExit):
        authority.money.deposit("alice", 100)

    def dies_after(self: Ledger, user_id: str, amount: int, key: str) -> object:
        real(self, user_id, amount, key)
        raise SystemExit

    monkeypatch.setattr(Ledger, "deposit", dies_after)
    with pytest.raises(SystemExit):
        authority.money.deposit("alice", 200)
    monkeypatch.undo()
    clock.advance(600)
    Authority(ledger.engine, AuthoritySettings(), ledger=ledger, clock=clock).start()
    with ledger.engine.connect() as conn:
        rows = conn.execute(
            select(
                money_requests.c.amount, money_requests.c.status, money_requests.c.tx_id
            ).order_by(money_requests.c.id)
        ).all()
    assert [(r.amount, r.status, r.tx_id is not None) for r in rows] == [
        (100, "cancelled", False),
        (200, "approved", True),
    ]
    assert ledger.wallet("alice") == 200
