"""Containment, the server part, over the real app: sign-in throttling and back-off, sign-up limits,
the password policy, case-insensitive usernames, session lifetimes, logout closing sockets,
WebSocket authentication without the token in the URL, bounded frames (depth, digits, NaN,
unstorable text) as typed errors, frame floods closed, and blocking work off the event loop."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import helpers  # registers the toy game
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from qipai.server import store as store_mod
from qipai.server.app import create_app
from qipai.server.settings import Settings
from qipai.tables.table import Timing
from tests.authority.helpers import offer

assert helpers.TOY


def make_client(tmp_path: Path, **settings: Any) -> TestClient:
    app = create_app(
        str(tmp_path / "room.db"),
        settings=Settings(ws_auth_timeout_s=2.0, **settings),
        timing=Timing(0.05, 0.2, 0.05),
    )
    return TestClient(app)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        yield c


def signup(client: TestClient, name: str, password: str = "secret-pw") -> str:
    r = client.post("/api/signup", json={"username": name, "password": password})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def login(client: TestClient, name: str, password: str) -> Any:
    return client.post("/api/login", json={"username": name, "password": password})


# ----- sign-in, sign-up, passwords, usernames ------------------------------------------------
def freeze_backoff(client: TestClient) -> None:
    """The back-off's clock stands still (a loaded machine must not let it pass mid-test)."""
    svc = client.app.state.services  # type: ignore[attr-defined]
    svc.player_guard.pair.clock = svc.player_guard.address.clock = lambda: 1000.0


def test_forty_wrong_passwords_then_the_right_one_does_not_sign_in(client: TestClient) -> None:
    freeze_backoff(client)
    signup(client, "alice")
    codes = [login(client, "alice", f"wrong-{i:03d}").status_code for i in range(40)]
    assert codes[:5] == [401] * 5 and set(codes[5:]) == {429}
    r = login(client, "alice", "secret-pw")
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_attempts"
    assert int(r.headers["retry-after"]) >= 1
    assert login(client, "ALICE", "secret-pw").status_code == 429  # the same account
    # alice from another address is not locked out by her attacker (tests/server/
    # test_signin_floods.py)


def test_the_backoff_passes_and_a_right_password_resets_it(client: TestClient) -> None:
    now = [1000.0]
    svc = client.app.state.services  # type: ignore[attr-defined]
    svc.player_guard.pair.clock = svc.player_guard.address.clock = lambda: now[0]
    signup(client, "alice")
    for i in range(5):
        assert login(client, "alice", f"wrong-{i:03d}").status_code == 401
    assert login(client, "alice", "secret-pw").status_code == 429
    now[0] += 1.9  # the first back-off is 2 s
    assert login(client, "alice", "secret-pw").status_code == 429
    now[0] += 0.2
    assert login(client, "alice", "wrong-005").status_code == 401  # looked at, and wrong:
    now[0] += 3.9  # the back-off doubled to 4 s
    assert login(client, "alice", "secret-pw").status_code == 429
    now[0] += 0.2
    assert login(client, "alice", "secret-pw").status_code == 200
    assert login(client, "alice", "wrong-006").status_code == 401  # counting anew
    assert login(client, "alice", "secret-pw").status_code == 200


def test_one_address_guessing_many_accounts_is_backed_off(client: TestClient) -> None:
    freeze_backoff(client)
    for name in ("anna", "bert"):
        signup(client, name)
    codes = [login(client, f"user{i}", "wrong-pass").status_code for i in range(20)]
    assert set(codes) == {401}
    r = login(client, "anna", "secret-pw")
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_attempts"


def test_guesses_sent_together_reach_the_hash_no_more_than_the_free_failures(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wrong guess counts before it is hashed: of 12 guesses at one account sent at once,
    the 5 free ones are hashed, the 7 others are refused (429) without any scrypt."""
    from concurrent.futures import ThreadPoolExecutor

    from qipai.server import passwords

    freeze_backoff(client)
    signup(client, "alice")
    svc = client.app.state.services  # type: ignore[attr-defined]
    hashed: list[str] = []
    gate = threading.Event()
    real = passwords.hash_password

    def slow(password: str, salt: bytes) -> str:
        hashed.append(password)
        gate.wait(120)  # every guess is in flight before the first hash ends
        return real(password, salt)

    monkeypatch.setattr(passwords, "hash_password", slow)
    with ThreadPoolExecutor(12) as pool:
        futures = [pool.submit(login, client, "alice", f"wrong-{i:03d}") for i in range(12)]
        while sum(f.done() for f in futures) + svc.hasher._pending < 12:
            threading.Event().wait(0.01)  # until each guess is answered or waits for a hash
        gate.set()
        codes = sorted(f.result().status_code for f in futures)
    assert codes == [401] * 5 + [429] * 7
    assert len(hashed) == 5


def test_sign_ups_are_limited_per_address(tmp_path: Path) -> None:
    with make_client(tmp_path, signup_rate="3/minute") as client:
        for i in range(3):
            signup(client, f"user{i}")
        r = client.post("/api/signup", json={"username": "user9", "password": "secret-pw"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert "retry-after" in r.headers
        assert login(client, "user9", "secret-pw").status_code == 401  # nothing was made


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("123456", "8-200"),
        ("1234567", "8-200"),
        ("password1", "common"),
        ("Qwerty123", "common"),
        ("Sam_Lee_77", "username"),
    ],
)
def test_weak_passwords_are_refused(client: TestClient, password: str, why: str) -> None:
    r = client.post("/api/signup", json={"username": "Sam_Lee_77", "password": password})
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert err["field"] == "password" and why in err["message"]


def test_usernames_are_unique_without_regard_to_case(client: TestClient) -> None:
    signup(client, "Good_Name1")
    r = client.post("/api/signup", json={"username": "good_name1", "password": "secret-pw"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "conflict"
    r = login(client, "GOOD_NAME1", "secret-pw")
    assert r.status_code == 200 and r.json()["player"] == "Good_Name1"
    assert client.get("/api/me", headers=bearer(r.json()["token"])).json()["player"] == "Good_Name1"


# ----- sessions ----------------------------------------------------------------------------
def test_tokens_expire_after_idle_time_and_an_absolute_lifetime(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [1_000_000.0]
    monkeypatch.setattr(store_mod.time, "time", lambda: now[0])
    with make_client(tmp_path, session_idle_s=600, session_max_s=3600) as client:
        token = signup(client, "alice")
        for _ in range(7):  # used every 500 s: never idle for 600 s
            now[0] += 500
            assert client.get("/api/me", headers=bearer(token)).status_code == 200
        now[0] += 300  # 3,800 s after sign-in: past the absolute lifetime
        assert client.get("/api/me", headers=bearer(token)).status_code == 401
        token = login(client, "alice", "secret-pw").json()["token"]
        now[0] += 601  # idle too long
        r = client.get("/api/me", headers=bearer(token))
        assert r.status_code == 401 and r.json()["error"]["code"] == "auth_required"


def ws_open(client: TestClient, token: str) -> Any:
    ws = client.websocket_connect("/ws")
    session = ws.__enter__()
    session.send_json({"type": "auth", "token": token})
    assert session.receive_json()["type"] == "hello"
    return ws, session


def closed_with(session: Any) -> int:
    with pytest.raises(WebSocketDisconnect) as info:
        for _ in range(100):
            session.receive_json()
    return int(info.value.code)


def test_logout_closes_that_sessions_sockets(client: TestClient) -> None:
    token = signup(client, "alice")
    other = login(client, "alice", "secret-pw").json()["token"]
    ws, session = ws_open(client, token)
    ws2, session2 = ws_open(client, other)
    try:
        r = client.post("/api/logout", headers=bearer(token))
        assert r.json() == {"ok": True, "sessions": 1, "sockets": 1}
        assert closed_with(session) == 4401
        session2.send_json({"type": "ping", "client_id": "p"})
        assert session2.receive_json()["type"] == "pong"  # the other session lives on
        assert client.get("/api/me", headers=bearer(token)).status_code == 401
    finally:
        ws.__exit__(None, None, None)
        ws2.__exit__(None, None, None)


def test_logout_everywhere_closes_every_socket_of_the_player(client: TestClient) -> None:
    tokens = [signup(client, "alice")] + [
        login(client, "alice", "secret-pw").json()["token"] for _ in range(2)
    ]
    bob = signup(client, "bob")
    opened = [ws_open(client, t) for t in [*tokens, bob]]
    try:
        r = client.post("/api/logout/all", headers=bearer(tokens[0]))
        assert r.json() == {"ok": True, "sessions": 3, "sockets": 3}
        for _, session in opened[:3]:
            assert closed_with(session) == 4401
        for token in tokens:
            assert client.get("/api/me", headers=bearer(token)).status_code == 401
        opened[3][1].send_json({"type": "ping"})
        assert opened[3][1].receive_json()["type"] == "pong"
    finally:
        for ws, _ in opened:
            ws.__exit__(None, None, None)


def test_the_websocket_takes_no_token_in_the_url(client: TestClient) -> None:
    token = signup(client, "alice")
    with client.websocket_connect(f"/ws?token={token}") as ws:
        ws.send_json({"type": "ping"})  # not an auth message: refused
        assert closed_with(ws) == 4401
    with client.websocket_connect(f"/ws?token={token}") as ws:
        assert closed_with(ws) == 4401  # nothing sent: closed after the auth timeout
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "auth", "token": token + "x"})
        assert closed_with(ws) == 4401


# ----- frames ------------------------------------------------------------------------------
@pytest.fixture
def seated(client: TestClient) -> Iterator[tuple[Any, str]]:
    tokens = [signup(client, n) for n in ("alice", "bob")]
    for t in tokens:
        client.post("/api/wallet/deposit", json={"amount": 5000}, headers=bearer(t))
    tid = client.post(
        "/api/tables",
        json={"template": offer(client, "toy", {"bet_s": 600})},
        headers=bearer(tokens[0]),
    ).json()["id"]
    for t in tokens:
        client.post(f"/api/tables/{tid}/sit", json={"buy_in": 100}, headers=bearer(t))
    ws, session = ws_open(client, tokens[0])
    try:
        session.send_json({"type": "subscribe", "table_id": tid})
        for _ in range(400):  # until the round offers alice a bet
            msg = session.receive_json()
            if msg["type"] == "state" and msg["legal"]:
                VERSIONS[id(session)] = msg["version"]
                break
        yield session, tid
    finally:
        ws.__exit__(None, None, None)


VERSIONS: dict[int, str] = {}
"""The version of the state `seated` stopped at, per socket: its actions are built from it."""


def reply_to(session: Any, text: str) -> dict[str, Any]:
    session.send_text(text)
    for _ in range(200):
        msg: dict[str, Any] = session.receive_json()
        if msg["type"] in ("error", "ack", "pong"):
            return msg
    raise AssertionError("no reply")


def still_alive(session: Any) -> None:
    assert reply_to(session, '{"type": "ping", "client_id": "alive"}')["type"] == "pong"


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("[" * 8000 + "]" * 8000, "invalid_message"),
        ('{"type": "ping", "n": ' + "[" * 8000 + "]" * 8000 + "}", "invalid_message"),
        ('{"type": "ping", "n": ' + "7" * 5000 + "}", "invalid_message"),
        ('{"type": "ping", "n": NaN}', "invalid_message"),
        ('{"type": "ping", "n": -Infinity}', "invalid_message"),
        ('{"type": "ping", "pad": "' + "x" * 20_000 + '"}', "too_large"),
    ],
)
def test_hostile_frames_are_typed_errors(seated: tuple[Any, str], frame: str, code: str) -> None:
    session, _ = seated
    assert reply_to(session, frame)["code"] == code
    still_alive(session)


@pytest.mark.parametrize("bad", ["\\ud800", "a\\u0000b"])
def test_unstorable_text_in_a_frame_is_refused_naming_the_field(
    seated: tuple[Any, str], bad: str
) -> None:
    session, tid = seated
    frame = (
        f'{{"type": "action", "table_id": "{tid}", "client_id": "{bad}", '
        '"action": {"type": "bet", "amount": 5}}'
    )
    err = reply_to(session, frame)
    assert (err["code"], err["field"]) == ("invalid_text", "client_id")
    frame = (
        f'{{"type": "action", "table_id": "{tid}", "client_id": "c1", '
        f'"action": {{"type": "bet", "amount": 5, "note": "{bad}"}}}}'
    )
    err = reply_to(session, frame)
    assert (err["code"], err["field"]) == ("invalid_text", "action.note")
    # nothing was applied: the same client id is taken afresh
    ok = reply_to(
        session,
        json.dumps(
            {
                "type": "action",
                "table_id": tid,
                "client_id": "c1",
                "version": VERSIONS[id(session)],
                "action": {"type": "bet", "amount": 5},
            }
        ),
    )
    assert ok == {"type": "ack", "client_id": "c1", "duplicate": False, "table_id": tid}


def test_a_frame_flood_is_refused_then_closed(client: TestClient) -> None:
    token = signup(client, "alice")
    ws, session = ws_open(client, token)
    try:
        for i in range(300):
            session.send_text(json.dumps({"type": "ping", "client_id": f"f{i}"}))
        seen: list[str] = []
        with pytest.raises(WebSocketDisconnect) as info:
            for _ in range(400):
                msg = session.receive_json()
                seen.append(msg.get("code") or msg["type"])
        assert info.value.code == 1008
        assert "rate_limited" in seen and seen.count("pong") <= 40
    finally:
        ws.__exit__(None, None, None)


def test_a_sockets_frame_window_is_a_moving_window_that_counts_only_what_it_takes() -> None:
    from limits import parse_many

    from qipai.server.throttle import Window

    now = [100.0]
    window = Window(parse_many("3/second;5/minute"), clock=lambda: now[0])
    assert [window.take() for _ in range(5)] == [True, True, True, False, False]
    now[0] += 0.999
    assert window.take() is False  # the first three are still in their second
    now[0] += 0.002
    assert [window.take() for _ in range(3)] == [True, True, False]  # 5 in the minute
    now[0] += 58.0  # (refused events were never counted: the minute holds 5, not 8)
    assert window.take() is False
    now[0] += 1.0  # the first three have left the minute
    assert [window.take() for _ in range(4)] == [True, True, True, False]


def test_a_flooder_that_reconnects_is_refused_before_any_database_work(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The socket closed for flooding: its session's (and player's) new sockets are closed at
    once (1008) for a back-off that doubles, without a session lookup; then it may come back."""
    from qipai.server.throttle import Backoff

    now = [1000.0]
    svc = client.app.state.services  # type: ignore[attr-defined]
    svc.abusers = Backoff(1, 2.0, 300.0, clock=lambda: now[0])
    token = signup(client, "alice")
    ws, session = ws_open(client, token)
    try:
        for i in range(300):
            session.send_text(json.dumps({"type": "ping", "client_id": f"f{i}"}))
        assert closed_with(session) == 1008
    finally:
        ws.__exit__(None, None, None)
    lookups: list[str] = []
    real = svc.store.session
    monkeypatch.setattr(svc.store, "session", lambda t: lookups.append(t) or real(t))
    for _ in range(3):
        with client.websocket_connect("/ws") as again:
            again.send_json({"type": "auth", "token": token})
            with pytest.raises(WebSocketDisconnect) as info:
                again.receive_json()  # no hello: closed at once
            assert info.value.code == 1008
    assert lookups == []  # refused on the token alone
    door = client.app.state.door  # type: ignore[attr-defined]
    assert door.shut("testclient")  # its address's next connections: reset at accept
    now[0] += 2.5  # the back-off (2 s after one closing) has passed
    ws, session = ws_open(client, token)
    still_alive(session)
    ws.__exit__(None, None, None)
    assert lookups == [token]


def test_actions_are_limited_per_player_over_all_sockets(tmp_path: Path) -> None:
    with make_client(tmp_path, action_rate="5/minute") as client:
        token = signup(client, "alice")
        tid = client.post("/api/tables", json={"game": "toy"}, headers=bearer(token)).json()["id"]
        ws1, s1 = ws_open(client, token)
        ws2, s2 = ws_open(client, token)
        try:
            codes = []
            for i in range(8):
                session = (s1, s2)[i % 2]
                frame = {
                    "type": "action",
                    "table_id": tid,
                    "client_id": f"a{i}",
                    "version": "-.0000000000000000",
                    "action": {},
                }
                codes.append(reply_to(session, json.dumps(frame))["code"])
            assert codes.count("rate_limited") == 3 and "not_seated" in codes
        finally:
            ws1.__exit__(None, None, None)
            ws2.__exit__(None, None, None)


# ----- off the event loop --------------------------------------------------------------------
def test_password_hashing_and_database_work_run_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from qipai.server import passwords

    on_loop: dict[str, list[bool]] = {}

    def record(name: str, fn: Any) -> Any:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            try:
                asyncio.get_running_loop()
                running = True
            except RuntimeError:
                running = False
            on_loop.setdefault(name, []).append(running)
            return fn(*args, **kwargs)

        return wrapped

    svc = client.app.state.services  # type: ignore[attr-defined]
    monkeypatch.setattr(passwords, "hash_password", record("hash", passwords.hash_password))
    for name in ("session_by_hash", "credentials", "insert_user", "new_session"):
        monkeypatch.setattr(svc.store, name, record(name, getattr(svc.store, name)))
    monkeypatch.setattr(svc.adapter, "wallet", record("wallet", svc.adapter.wallet))
    monkeypatch.setattr(svc.ledger, "recall", record("recall", svc.ledger.recall))
    token = signup(client, "alice")
    assert login(client, "alice", "secret-pw").status_code == 200
    assert login(client, "alice", "wrong-pass").status_code == 401
    client.get("/api/me", headers=bearer(token))
    client.get("/api/history", headers=bearer(token))
    assert set(on_loop) == {
        "hash",
        "session_by_hash",
        "credentials",
        "insert_user",
        "new_session",
        "wallet",
        "recall",
    }
    assert not any(any(v) for v in on_loop.values()), on_loop
    assert threading.current_thread() is threading.main_thread()


def test_the_event_loop_lag_is_exported(client: TestClient) -> None:
    text = client.get("/metrics").text
    assert "qipai_event_loop_lag_seconds " in text
    assert "qipai_event_loop_lag_bucket" in text
    assert "qipai_websockets 0.0" in text
    # the start-up warm-up's progress: 1 while it runs, 0 once done (benchmarks wait for 0)
    assert re.search(r"^qipai_warming [01]\.0$", text, re.M), text


def test_websocket_connections_are_limited_per_address(tmp_path: Path) -> None:
    with make_client(tmp_path, connect_rate="3/minute") as client:
        token = signup(client, "alice")
        opened = [ws_open(client, token) for _ in range(3)]
        try:
            with pytest.raises(WebSocketDisconnect) as info, client.websocket_connect("/ws"):
                pass
            assert info.value.code == 1008
        finally:
            for ws, _ in opened:
                ws.__exit__(None, None, None)
