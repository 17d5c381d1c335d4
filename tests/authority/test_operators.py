"""Operators: one-time password, first sign-in (password change + TOTP enrolment), TOTP sign-in
with replay refusal, idle timeout, no lock-out, and that every step lands in the operator log."""

from __future__ import annotations

import pyotp
import pytest

from qipai.authority import Authority
from qipai.authority import errors as E
from qipai.authority.oplog import CLI
from tests.authority.conftest import Clock

NEW_PW = "correct horse battery"


def enrolled(
    authority: Authority, clock: Clock, name: str = "olga", role: str = "supervisor"
) -> str:
    """An operator through first sign-in; returns its TOTP secret."""
    once = authority.operators.add(name, role)
    setup = authority.operators.login(name, once)
    op = authority.operator_for_token(setup["token"])
    assert op is not None
    authority.operators.change_password(op, once, NEW_PW)
    secret = str(authority.operators.totp_enrol(op)["secret"])
    authority.operators.totp_confirm(op, pyotp.TOTP(secret).at(clock()))
    clock.advance(30)  # the next sign-in uses a fresh time step
    return secret


def test_first_sign_in_needs_a_new_password_and_totp(authority: Authority, clock: Clock) -> None:
    once = authority.operators.add("olga")
    assert len(once) >= 16
    setup = authority.operators.login("olga", once)
    assert setup["stage"] == "setup"
    assert setup["next"] == ["change_password", "enrol_totp"]
    op = authority.operator_for_token(setup["token"])
    assert op is not None and op.stage == "setup" and op.role == "supervisor"
    with pytest.raises(E.BadRequest) as short:
        authority.operators.change_password(op, once, "short")
    assert short.value.field == "new_password"
    with pytest.raises(E.AuthFailed):
        authority.operators.change_password(op, "not the password", NEW_PW)
    assert authority.operators.change_password(op, once, NEW_PW)["next"] == ["enrol_totp"]
    enrol = authority.operators.totp_enrol(op)
    assert enrol["otpauth_uri"].startswith("otpauth://totp/qipai:olga?secret=")
    assert enrol["qr_svg"].startswith("<svg") and enrol["qr_png"].startswith("data:image/png")
    code = pyotp.TOTP(enrol["secret"]).at(clock())
    with pytest.raises(E.AuthFailed):
        authority.operators.totp_confirm(op, f"{(int(code) + 1) % 1_000_000:06d}")
    done = authority.operators.totp_confirm(op, code)
    assert done == {"operator": "olga", "role": "supervisor", "stage": "full", "next": []}
    op = authority.operator_for_token(setup["token"])
    assert op is not None and op.stage == "full"
    # the one-time password is gone
    with pytest.raises(E.AuthFailed):
        authority.operators.login("olga", once)
    actions = [r["action"] for r in reversed(authority.log.entries(actor="olga"))]
    assert actions == [
        "login",
        "password.change",
        "password.change",
        "totp.enrol",
        "totp.confirm",
        "totp.confirm",
    ]
    refused = authority.log.entries(action="login.refused")  # refused sign-ins: counted
    assert [r["detail"]["names"] for r in refused] == [{"olga": 1}]
    assert authority.log.verify() == []


def test_sign_in_needs_a_fresh_totp_code(authority: Authority, clock: Clock) -> None:
    secret = enrolled(authority, clock)
    with pytest.raises(E.TotpRequired):
        authority.operators.login("olga", NEW_PW)
    code = pyotp.TOTP(secret).at(clock())
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    with pytest.raises(E.AuthFailed):
        authority.operators.login("olga", NEW_PW, wrong)
    session = authority.operators.login("olga", NEW_PW, code)
    assert session["stage"] == "full" and session["next"] == []
    with pytest.raises(E.AuthFailed):  # the same code again: a replay
        authority.operators.login("olga", NEW_PW, code)
    clock.advance(30)
    assert authority.operators.login("olga", NEW_PW, pyotp.TOTP(secret).at(clock()))["token"]


def test_sessions_end_when_idle_and_at_the_absolute_limit(
    authority: Authority, clock: Clock
) -> None:
    secret = enrolled(authority, clock)
    token = authority.operators.login("olga", NEW_PW, pyotp.TOTP(secret).at(clock()))["token"]
    for _ in range(3):
        clock.advance(authority.settings.ops_idle_s - 1)
        assert authority.operator_for_token(token) is not None  # each request refreshes it
    clock.advance(authority.settings.ops_idle_s)
    assert authority.operator_for_token(token) is None
    clock.advance(30)
    token = authority.operators.login("olga", NEW_PW, pyotp.TOTP(secret).at(clock()))["token"]
    steps = int(authority.settings.ops_max_s // (authority.settings.ops_idle_s / 2)) + 1
    for _ in range(steps):
        clock.advance(authority.settings.ops_idle_s / 2)
        if authority.operator_for_token(token) is None:
            break
    else:
        raise AssertionError("the session outlived its absolute limit")
    assert authority.operator_for_token("not a token") is None


def test_wrong_passwords_lock_no_one_out_and_are_logged_together(
    authority: Authority, clock: Clock
) -> None:
    """No number of wrong sign-ins locks an account (a stranger could lock any operator out:
    the server backs off the guessing address instead); an unknown name and a wrong password
    get one answer; the refusals of a spell are one operator-log row, not one each."""
    once = authority.operators.add("olga")
    answers = set()
    for name in ["olga"] * 20 + [f"nobody{i}" for i in range(20)]:
        with pytest.raises(E.AuthFailed) as refused:
            authority.operators.login(name, "guess-guess-guess")
        answers.add((refused.value.code, str(refused.value)))
    assert len(answers) == 1
    assert authority.operators.login("olga", once)["stage"] == "setup"
    rows = authority.log.entries(action="login.refused")
    assert len(rows) == 1 and rows[0]["detail"]["attempts"] == 1  # the first, at once
    clock.advance(61)
    with pytest.raises(E.AuthFailed):
        authority.operators.login("nobody", "x")
    rows = authority.log.entries(action="login.refused")
    assert len(rows) == 2 and rows[0]["detail"]["attempts"] == 40  # the rest of the spell, in one
    assert rows[0]["detail"]["names"]["olga"] == 19


def test_reset_and_disable(authority: Authority, clock: Clock) -> None:
    secret = enrolled(authority, clock)
    token = authority.operators.login("olga", NEW_PW, pyotp.TOTP(secret).at(clock()))["token"]
    assert authority.operators.add("boss")
    once = authority.operators.reset("olga", CLI, "lost phone")
    assert authority.operator_for_token(token) is None
    assert authority.operators.login("olga", once)["next"] == ["change_password", "enrol_totp"]
    authority.operators.set_disabled("olga", True, CLI, "left the company")
    with pytest.raises(E.AccountLocked):
        authority.operators.login("olga", once)
    with pytest.raises(E.Conflict):
        authority.operators.add("olga")
    with pytest.raises(E.BadRequest):
        authority.operators.add("Bad Name")
    with pytest.raises(E.BadRequest):
        authority.operators.add("ann", "player")
    listed = {o["name"]: o for o in authority.operators.all()}
    assert listed["olga"]["disabled"] and not listed["boss"]["totp_enabled"]
