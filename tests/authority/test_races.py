"""Races closed on both databases, with real concurrency (threads released together):
approve and reject of one money request at once leave exactly one decision (and the wallet
agrees with it); one TOTP code sent ten times at once opens one session."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pyotp
from sqlalchemy import Engine, func, select

from qipai.authority import Authority, AuthoritySettings
from qipai.authority import errors as E
from qipai.authority.oplog import Actor
from qipai.authority.schema import op_sessions
from qipai.ledger import Ledger
from qipai.server.passwords import hash_password
from tests.authority.conftest import Clock, both_backends

pytestmark = both_backends

OLGA, OSKAR = Actor("olga", "operator"), Actor("oskar", "operator")


def together(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released at the same moment; each result or its exception."""
    gate = threading.Barrier(len(calls))

    def run(call: Callable[[], Any]) -> Any:
        gate.wait()
        try:
            return call()
        except Exception as exc:
            return exc

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def decision(authority: Authority, rid: int, approve: bool) -> Callable[[], Any]:
    who = OLGA if approve else OSKAR
    return lambda: authority.money.decide(rid, approve, who, "checked")


def test_approve_and_reject_at_once_make_one_decision(ledger: Ledger, engine: Engine) -> None:
    authority = Authority(
        engine, AuthoritySettings(demo=False, withdrawal_kyc=False), ledger=ledger
    )
    ledger.create_user("bob")
    credited = 0
    for trial in range(6):
        rid = authority.money.deposit("bob", 100 + trial)["request"]["id"]
        calls = [decision(authority, rid, i % 2 == 0) for i in range(8)]
        results = together(calls)
        won = [r for r in results if isinstance(r, dict)]
        lost = [r for r in results if isinstance(r, Exception)]
        assert len(won) == 1, results
        assert all(isinstance(e, E.Conflict) for e in lost), lost
        final = authority.money.get(rid)
        assert final["status"] == won[0]["status"]
        credited += final["amount"] if final["status"] == "approved" else 0
        assert ledger.wallet("bob") == credited  # never "rejected" but credited
    decisions = [r for r in authority.log.entries(limit=100) if r["action"].startswith("money.")]
    assert len(decisions) == 6


def test_one_totp_code_sent_ten_times_at_once_opens_one_session(
    engine: Engine, clock: Clock
) -> None:
    authority = Authority(engine, clock=clock)
    once = authority.operators.add("olga")
    setup = authority.operators.login("olga", once)
    op = authority.operator_for_token(setup["token"])
    assert op is not None
    authority.operators.change_password(op, once, "correct horse battery")
    secret = str(authority.operators.totp_enrol(op)["secret"])
    authority.operators.totp_confirm(op, pyotp.TOTP(secret).at(clock()))
    clock.advance(30)
    code = pyotp.TOTP(secret).at(clock())
    with engine.connect() as conn:
        before = conn.execute(select(func.count()).select_from(op_sessions)).scalar_one()
    # hashed once beforehand (as the server's pool does): the ten reach the database together
    hashed = hash_password("correct horse battery", authority.operators.salt_of("olga"))
    login = authority.operators.login
    results = together([lambda: login("olga", "", code, hashed=hashed) for _ in range(10)])
    sessions = [r for r in results if isinstance(r, dict)]
    assert len(sessions) == 1, results
    assert all(isinstance(r, E.AuthFailed) for r in results if not isinstance(r, dict))
    with engine.connect() as conn:
        after = conn.execute(select(func.count()).select_from(op_sessions)).scalar_one()
    assert after - before == 1
