"""Sign-in floods cost the others nothing (docs/security.md, "Sign-in limits"): operator and
player sign-ins are refused per address and per name before any password is hashed; no number
of a stranger's wrong attempts locks the account's owner out; an unknown name and a wrong
password get one answer; refused operator sign-ins are counted into one operator-log row, not
one each. On SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from qipai.authority import Authority
from tests.authority.helpers import PASSWORD, enrol, signup
from tests.server import rooms

room = rooms.room  # the fixture


@pytest.fixture
def room_settings() -> dict[str, object]:
    return {"login_rate": "1000/minute", "ops_login_rate": "1000/minute"}


def _hashes(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every password hash the server computes from now on (the salt's first bytes)."""
    hasher: Any = client.app.state.services.hasher  # type: ignore[attr-defined]
    seen: list[str] = []
    real = hasher.hash

    async def counted(password: str, salt: bytes) -> str:
        seen.append(salt.hex()[:8])
        result: str = await real(password, salt)
        return result

    monkeypatch.setattr(hasher, "hash", counted)
    return seen


def _freeze(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sign-in guards' time stands still: a slow machine's seconds do not end a back-off
    in the middle of a test."""
    svc: Any = client.app.state.services  # type: ignore[attr-defined]
    for guard in (svc.player_guard, svc.ops_guard):
        for backoff in (guard.pair, guard.address):
            monkeypatch.setattr(backoff, "clock", lambda: 1000.0)
        monkeypatch.setattr(guard.rates, "_clock", lambda: 1000.0)


def _from(client: TestClient, address: str) -> TestClient:
    """A client of the same running app from another address."""
    return TestClient(client.app, client=(address, 40000))


def test_operator_guesses_are_refused_before_hashing_and_lock_no_one_out(
    room: tuple[TestClient, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, _ = room
    authority: Authority = client.app.state.authority  # type: ignore[attr-defined]
    enrol(client, authority, "olga")
    hashes = _hashes(client, monkeypatch)
    _freeze(client, monkeypatch)
    stranger = _from(client, "203.0.113.9")
    answers = []
    for i in range(60):  # wrong passwords for olga and names that do not exist
        name = "olga" if i % 2 else f"nobody{i}"
        r = stranger.post("/api/ops/login", json={"name": name, "password": "guess-guess-1"})
        answers.append((r.status_code, r.json()["error"]["code"], r.json()["error"]["message"]))
    wrong = [a for a in answers if a[0] == 401]
    assert len(set(wrong)) == 1  # one answer for an unknown name and a wrong password
    assert all(a[:2] == (429, "too_many_attempts") for a in answers[len(wrong) :])
    assert len(hashes) == len(wrong) <= 5  # the back-off refused the rest before any hash
    # olga, from her own address, signs in at once: the stranger's guesses backed off only him
    r = client.post("/api/ops/login", json={"name": "olga", "password": PASSWORD})
    assert r.status_code == 401 and r.json()["error"]["code"] == "totp_required"
    rows = authority.log.entries(action="login.refused")
    assert len(rows) == 1  # the spell's first refusal; the rest are counted, not one row each
    assert [r for r in authority.log.entries(action="login") if r["outcome"] == "refused"] == []


def test_guesses_at_one_name_from_many_addresses_are_capped(
    room: tuple[TestClient, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the name's wrong attempts from everywhere, only addresses that signed in to it
    before are looked at: a guesser with many addresses gets a bounded number of guesses,
    the owner at home still signs in."""
    client, _ = room
    signup(client, "bob")
    assert client.post("/api/login", json={"username": "bob", "password": "secret-pw"})
    cap = 50  # QIPAI_LOGIN_NAME_FAILURES "50/hour"
    hashes = _hashes(client, monkeypatch)
    _freeze(client, monkeypatch)
    refused = 0
    for i in range(80):
        r = _from(client, f"198.51.100.{i}").post(
            "/api/login", json={"username": "bob", "password": f"guess-{i}-guess"}
        )
        assert r.status_code in (401, 429), r.text
        refused += r.status_code == 429
    assert len(hashes) == cap and refused == 80 - cap
    r = _from(client, "198.51.100.200").post(
        "/api/login", json={"username": "bob", "password": "secret-pw"}
    )
    assert r.status_code == 429  # a new address, even with the right password, waits
    r = client.post("/api/login", json={"username": "bob", "password": "secret-pw"})
    assert r.status_code == 200, r.text  # bob at his own address


def test_a_player_flood_from_one_address_backs_off_that_address(
    room: tuple[TestClient, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, _ = room
    signup(client, "carol")
    hashes = _hashes(client, monkeypatch)
    _freeze(client, monkeypatch)
    stranger = _from(client, "192.0.2.7")
    codes = []
    for i in range(40):
        r = stranger.post("/api/login", json={"username": "carol", "password": f"nope-{i}-nope"})
        codes.append(r.status_code)
    assert codes.count(401) == len(hashes) == 5 and codes.count(429) == 35
    # another name from that address is still looked at (its own back-off is per name), and an
    # unknown name gets the very answer a wrong password gets
    unknown = stranger.post("/api/login", json={"username": "zed", "password": "nope-nope-1"})
    wrong = client.post("/api/login", json={"username": "carol", "password": "nope-nope-1"})
    assert unknown.status_code == wrong.status_code == 401
    assert unknown.json() == wrong.json()
    r = client.post("/api/login", json={"username": "carol", "password": "secret-pw"})
    assert r.status_code == 200, r.text
