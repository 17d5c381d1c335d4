"""Golden views for the browser client's unit tests: real state messages from the real engine.

One player ("me") sits at a table of each game with bots in the other seats and plays with the
game's default bot policy through `Table.act`, on a virtual clock. Every distinct moment the
player's client would draw — each phase in which "me" may act, each phase in which "me" waits,
the finished round, the pause between rounds, and a spectator's view — is kept as the exact
`state` message the server sends (`qipai.tables.messages.state_for` over the table's snapshot).
`write(dir)` writes them as `<game>.json` (a list of {"moment", "message"}), which the vitest
renderer tests read.

Run `uv run python tests/web/golden.py DIR` to write them by hand; the pytest fixture in
tests/web/conftest.py writes them for `tests/web/test_client.py`.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from qipai.core.errors import GameError
from qipai.core.rng import Rng
from qipai.ledger import Ledger
from qipai.tables import games
from qipai.tables.ledger_adapter import LedgerAdapter
from qipai.tables.ports import ManualClock
from qipai.tables.table import Table, Timing

GAMES = ("pokdeng", "paigow", "holdem-bonus", "niuniu", "tiengow")

# A moment each game's tests need and a random deal may not bring in the first rounds: more rounds
# are played (at most MAX_ROUNDS) until a state of it has been sent.
WANTED = {"tiengow": "-lead", "paigow": "bet-act"}
MAX_ROUNDS = 12


def moments(
    game: str, rounds: int = 2, seed: bytes = b"golden-views-for-the-web-client"
) -> list[dict[str, Any]]:
    """The distinct state messages "me" (and a spectator) received over `rounds` rounds."""
    info = games.get(game)
    # the real ledger on a throw-away SQLite file (the tables layer has no in-memory ledger)
    ledger = LedgerAdapter(Ledger.open(str(Path(tempfile.mkdtemp()) / "golden.db")))
    clock = ManualClock()
    got: list[tuple[str, dict[str, Any]]] = []
    table = Table("golden", info, ledger, clock, timing=Timing(0.5, 1.0))
    table.send = lambda player, message: got.append((player, message))
    ledger.deposit("me", 10**6, "d-me")
    table.sit("me", "me", info.default_buy_in)
    table.connect("me")
    ledger.deposit("watcher", 10**6, "d-watcher")
    table.connect("watcher")
    table.fill_with_bots()
    bot = info.make_bot(info.default_bot())
    rng = Rng(seed)
    n = 0
    want = WANTED.get(game)
    for _ in range(100000):
        done = len(table.results)
        if done >= MAX_ROUNDS or (done >= rounds and (want is None or _seen(got, want))):
            break
        clock.advance(0.25)
        table.tick()
        round_ = table.round
        seat = table.seating.seat_of("me")
        if round_ is None or seat not in round_.awaiting():
            continue
        legal = round_.legal_actions(seat)
        if not legal:
            continue
        try:
            action = bot.choose(round_.view(seat), legal, rng)
        except GameError:
            continue
        table.act("me", action, f"golden-{n}")
        n += 1
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for player, m in got:
        if m.get("type") != "state":
            continue
        r = m.get("round")
        if player == "watcher":
            key = f"spectator-{r['phase'] if r else 'none'}"
        elif r is None:
            key = "between"
        elif r["finished"]:
            key = "finished" if m.get("result") else "finished-pending"
        else:
            types = "+".join(sorted({a["type"] for a in m["legal"]}))
            lead = any(a.get("lead") for a in m["legal"])
            key = (
                f"{r['phase']}-act-{types}{'-lead' if lead else ''}"
                if m["legal"]
                else f"{r['phase']}-wait"
            )
        if key in seen:
            continue
        seen.add(key)
        out.append({"moment": key, "message": m})
    return out


def _seen(got: list[tuple[str, dict[str, Any]]], want: str) -> bool:
    """Whether "me" was sent a state of the wanted kind (a lead in Tien Gow, a bet in Pai Gow)."""
    for player, m in got:
        if player != "me" or m.get("type") != "state" or not m.get("legal"):
            continue
        if want == "-lead" and any(a.get("lead") for a in m["legal"]):
            return True
        if want == "bet-act" and any(a["type"] == "bet" for a in m["legal"]):
            return True
    return False


def write(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for game in GAMES:
        if game not in games.available():
            continue
        path = directory / f"{game}.json"
        path.write_text(json.dumps(moments(game), indent=1, ensure_ascii=False) + "\n")
        paths.append(path)
    # the shipped templates' pay tables as the lobby and the help panel get them (not `.json`:
    # the renderer tests read every `.json` here as one game's moments)
    path = directory / "offers.data"
    path.write_text(json.dumps(offers(), indent=1, ensure_ascii=False) + "\n")
    paths.append(path)
    return paths


def offers() -> list[dict[str, Any]]:
    """Each shipped template as `/api/templates` offers it (its pay table from the real game)."""
    from qipai.authority import games as authority_games
    from qipai.authority.templates import shipped_templates
    from qipai.games import registry

    # Only the registry's games: a tables-layer test game (tests/tables/helpers.py registers
    # `toy` for the rest of the pytest process) is no shipped game and has no Chinese strings,
    # and the golden views must not depend on which tests ran before them.
    real = set(registry.names())
    out = []
    for body in shipped_templates():
        if body["game"] not in real:
            continue
        config = authority_games.parse_config(body["game"], body["settings"])
        out.append(
            {
                "template": {"id": body["id"], "name": body["name"], "version": 1},
                "game": body["game"],
                "pay_table": authority_games.pay_table(body["game"], config),
                "rtp": None,
                "rtp_status": "unavailable",
            }
        )
    return out


if __name__ == "__main__":
    for p in write(Path(sys.argv[1] if len(sys.argv) > 1 else "test-output/golden")):
        print(p)
