"""WebSocket compression is the operator's choice (`Settings.ws_compression`,
QIPAI_WS_COMPRESSION): off by default, which spares the server compressing every message for
every socket (14-20 % of its CPU per round, docs/scaling.md), on for smaller frames. Both
of the card room's servers (one process, and the table hosts) take it from
`serving.uvicorn_options`."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket
from websockets.sync.client import connect

from qipai.server.serving import uvicorn_options
from qipai.server.settings import Settings


async def echo(ws: WebSocket) -> None:
    await ws.accept()
    await ws.send_text(await ws.receive_text())
    await ws.close()


def test_compression_is_off_unless_the_operator_turns_it_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("QIPAI_WS_COMPRESSION", raising=False)
    settings = Settings()
    assert settings.ws_compression is False
    assert uvicorn_options(settings)["ws_per_message_deflate"] is False


@pytest.fixture(params=[True, False], ids=["compression-on", "compression-off"])
def served(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[int, bool]]:
    monkeypatch.setenv("QIPAI_WS_COMPRESSION", "true" if request.param else "false")
    settings = Settings()
    assert settings.ws_compression is request.param
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = Starlette(routes=[WebSocketRoute("/ws", echo)])
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", **uvicorn_options(settings)
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()))
    thread.start()
    for _ in range(500):
        if server.started:
            break
        time.sleep(0.01)
    try:
        yield port, request.param
    finally:
        server.should_exit = True
        thread.join(10)


def test_the_handshake_offers_compression_only_when_the_operator_wants_it(
    served: tuple[int, bool],
) -> None:
    port, on = served
    with connect(f"ws://127.0.0.1:{port}/ws") as ws:  # offers permessage-deflate, as browsers do
        agreed = ws.response.headers.get("Sec-WebSocket-Extensions") or ""
        ws.send("x" * 1000)
        assert ws.recv() == "x" * 1000
    assert ("permessage-deflate" in agreed) is on, agreed
