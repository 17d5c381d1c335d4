"""A game added in one folder needs no edit anywhere else (ARCHITECTURE.md, "The game contract").

`tests/conformance/plugin/highcard/` is a complete game (actions, settings, round, view, bot,
spec) that nothing in `qipai/` names. Mounted as a folder of `qipai/games/`, it is found by the
registry's discovery and every layer serves it: the registry and the tables layer, the server's
`/api/games` with a shipped template, a table of the room playing a round to a settled, balanced
result in the real ledger and rebuilt from the journal, that round's public export verified by
`qipai verify`'s checker and counted in the operator's reports, `env()`, and the CLI (`qipai
settle`, `qipai schema`, `qipai rtp` saying the game has no exact analysis and why). The
conformance suite (test_playouts, test_actions, test_configs) runs over it too. A copy of the
folder that leaves out a capability is refused at discovery, naming it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from qipai.core.rng import Rng
from qipai.games import registry

from .harness import mounted

GAME = "highcard"


@pytest.fixture
def game_folder() -> Iterator[None]:
    assert GAME not in registry.available()
    with mounted():
        yield
    assert GAME not in registry.available()


def test_nothing_outside_the_folder_names_the_game() -> None:
    root = Path(__file__).resolve().parents[2]
    for path in (root / "qipai").rglob("*"):
        if path.suffix in {".py", ".js", ".json", ".html", ".toml"}:
            assert GAME not in path.read_text(encoding="utf-8"), path


def test_the_registry_and_the_tables_layer_find_it(game_folder: None) -> None:
    from qipai.games import game_package
    from qipai.tables import games as table_games

    spec = registry.get(GAME)
    assert registry.names()[-1] == GAME  # its `order` puts it last in the lobby
    assert table_games.get(GAME) is spec
    assert game_package(GAME).ROUND is spec.round_type
    assert spec.make_bot(spec.default_bot()).name == "simple"
    assert spec.to_json()["title"] == {"en": "High card", "zh": "比大小"}


def test_api_games_lists_it_with_a_shipped_template(game_folder: None, tmp_path: Path) -> None:
    from qipai.server.app import create_app
    from qipai.tables.table import Timing

    app = create_app(str(tmp_path / "room.db"), timing=Timing(0.05, 0.2, 0.05))
    with TestClient(app) as client:
        games = client.get("/api/games").json()["games"]
        # its rules pages come from its folder (rules/zh.md, rules/en.md)
        zh = client.get(f"/api/rules/{GAME}", params={"lang": "zh"}).json()
        en = client.get(f"/api/rules/{GAME}", params={"lang": "en"}).json()
        # its renderer and strings too (web/renderer.js, web/i18n.json), at the URLs it lists
        entry = next(g for g in games if g["game"] == GAME)
        script = client.get(entry["renderer"])
        strings = client.get(entry["strings"])
        missing = client.get(f"/games/{GAME}/spec.py")
        elsewhere = client.get("/games/nosuchgame/renderer.js")
    assert entry["renderer"] == f"/games/{GAME}/renderer.js"
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert "export const renderer" in script.text
    assert strings.json()["en"]["tag_highcard"].startswith("One card")
    assert missing.status_code == 404 and elsewhere.status_code == 404
    assert zh["served_lang"] == "zh" and zh["markdown"].startswith("# 比大小")
    assert en["served_lang"] == "en" and en["markdown"].startswith("# High card")
    found = {g["game"]: g for g in games}
    assert GAME in found
    entry = found[GAME]
    assert entry["seats"] == ["A", "B", "C"] and entry["min_players"] == 2
    assert entry["bot_levels"] == ["simple"]
    assert [t["game"] for t in entry["templates"]] == [GAME]


def test_a_table_plays_it_to_a_settled_round_and_rebuilds_it(
    game_folder: None, tmp_path: Path
) -> None:
    from qipai.ledger import Ledger
    from qipai.server.room import Room
    from qipai.tables.ledger_adapter import LedgerAdapter
    from qipai.tables.ports import ManualClock, MemoryTableRepo
    from qipai.tables.table import Timing

    ledger = LedgerAdapter(Ledger.open(str(tmp_path / "ledger.db")))
    repo = MemoryTableRepo()
    room = Room(ledger, repo, ManualClock(), Timing(0.5, 1.0))
    for player in ("alice", "bob"):
        ledger.deposit(player, 1000, f"d-{player}")
    table = room.create_table(GAME)
    table.sit("alice", "alice", 100)
    table.sit("bob", "bob", 100)
    table.tick()
    assert table.round is not None and table.round.phase == "ante"
    refused = table.act("alice", {"type": "ante", "amout": 2}, "c0")
    assert refused["type"] == "error" and "amout" in json.dumps(refused)
    assert table.act("alice", {"type": "ante", "amount": 2}, "c1")["type"] == "ack"
    assert table.act("bob", {"type": "ante", "amount": 3}, "c2")["type"] == "ack"
    assert table.round.phase == "draw"
    # A table that restarts now rebuilds the open round from the journal and plays on.
    again = Room(ledger, repo, ManualClock(), Timing(0.5, 1.0))
    assert list(again.recover().values()) == ["resumed"]
    restored = again.tables[table.id]
    assert restored.round is not None and restored.round.view(None)["antes"] == {"A": 2, "B": 3}
    restored.act("alice", {"type": "keep"}, "c3")
    restored.act("bob", {"type": "switch"}, "c4")
    assert restored.round is None and restored.last_result is not None
    nets = restored.last_result["nets"]
    assert sorted(nets.values()) in ([-3, 3], [-2, 2])
    assert ledger.stack("alice", table.id) + ledger.stack("bob", table.id) == 200

    # its deal is exported and checked by the specification in its folder (fairness.py)
    from qipai.authority.reports import bets_of, turnover_of
    from qipai.fairness.check import check_export
    from qipai.fairness.export import export_round

    (item,) = ledger.ledger.recall("alice", 1)
    record = ledger.ledger.round(str(item["round_id"]), include_seed=True)
    exported = export_round(record, operator=True)
    assert exported["inputs"] == {"seats": ["A", "B"], "switched": ["B"]}
    checked = check_export(exported)
    assert checked.ok and len(checked.checks) >= 3, checked.lines
    # and its stakes are the reports' (reports.py in its folder)
    bets = bets_of(GAME, record["config"], record["result"])
    assert sorted((b.seat, b.staked) for b in bets) == [("A", 2), ("B", 3)]
    assert sum(b.net for b in bets) == 0
    assert sorted(turnover_of(GAME, record["config"], record["result"])) == [("A", 2), ("B", 3)]


def test_a_tampered_export_of_its_round_is_caught(game_folder: None) -> None:
    from qipai.core.protocol import Seat
    from qipai.fairness.check import check_export

    spec = registry.get(GAME)
    description = spec.deal_description()
    key = bytes(range(32))
    seats = [Seat("A", 5), Seat("B", 5)]
    round_ = spec.round_type.start(spec.parse_config(None), seats, Rng(key))
    round_.act("A", {"type": "ante", "amount": 1})
    round_.act("B", {"type": "ante", "amount": 1})
    round_.act("A", {"type": "switch"})
    round_.act("B", {"type": "keep"})
    inputs = description.inputs(round_, round_.config, seats, {})
    deal = description.deal(key, inputs)
    shown = description.dealt(round_, key, {}, True)
    assert {s: [c] for s, c in deal["cards"].items()} == shown["cards"]
    export = {
        "format": "qipai-round/1",
        "deal_spec": "deal-spec/1",
        "game": GAME,
        "seed": key.hex(),
        "commitment": hashlib.sha256(key).hexdigest(),
        "client_seeds": {},
        "inputs": inputs,
        "dealt": shown,
    }
    assert check_export(export).ok
    other = "As" if shown["cards"]["A"] != ["As"] else "Ks"
    tampered = {**export, "dealt": {"cards": {**shown["cards"], "A": [other]}}}
    assert not check_export(tampered).ok


def test_env_and_rtp_come_from_its_folder(game_folder: None) -> None:
    from qipai.cli import app
    from qipai.envs import env

    e = env(GAME, players=2)
    e.reset(seed=3)
    steps = 0
    for _agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0]))
        steps += 1
    assert steps >= 4
    out = CliRunner().invoke(app, ["rtp", GAME])
    assert out.exit_code != 0
    assert "highcard has no exact analysis: the players play each other" in out.output


def test_a_folder_missing_a_capability_is_refused_naming_it(tmp_path: Path) -> None:
    import shutil

    from qipai.core.spec import MissingCapability

    source = Path(__file__).resolve().parent / "plugin" / "highcard"
    folder = tmp_path / "lowcard"
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns("__pycache__"))
    spec_py = folder / "spec.py"
    text = spec_py.read_text(encoding="utf-8")
    text = text.replace('    name="highcard",', '    name="lowcard",')
    text = text.replace('    fairness=ref(f"{__package__}.fairness:DESCRIPTION"),\n', "")
    text = text.replace('    stakes=lazy(f"{__package__}.reports:stakes"),\n', "")
    spec_py.write_text(text, encoding="utf-8")
    with mounted(tmp_path), pytest.raises(MissingCapability) as caught:
        registry.available()
    assert caught.value.missing == ("fairness", "stakes")
    assert "'lowcard' does not declare fairness, stakes" in caught.value.message


def test_the_cli_settles_and_writes_its_schemas(game_folder: None, tmp_path: Path) -> None:
    from qipai.cli import app

    runner = CliRunner()
    doc = {"game": GAME, "antes": {"A": 2, "B": 3}, "cards": {"A": "Kd", "B": "Ks"}}
    settled = runner.invoke(app, ["settle", "-"], input=json.dumps(doc))
    assert settled.exit_code == 0, settled.output
    assert json.loads(settled.output)["nets"] == {"A": -2, "B": 2}
    listed = runner.invoke(app, ["schema"])
    names = {f"{GAME}.actions.json", f"{GAME}.config.json", f"{GAME}.view.json"}
    assert names <= set(listed.output.split())
    written = runner.invoke(app, ["schema", "--write", "--dir", str(tmp_path)])
    assert written.exit_code == 0, written.output
    actions: dict[str, Any] = json.loads((tmp_path / f"{GAME}.actions.json").read_text())
    assert {"Ante", "Keep", "Switch"} <= set(actions["$defs"])


def test_its_rounds_replay_from_the_log(game_folder: None) -> None:
    from qipai.core.protocol import Seat

    spec = registry.get(GAME)
    seats = [Seat("A", 5), Seat("B", 5)]
    round_ = spec.round_type.start(spec.parse_config(None), seats, Rng(bytes(32)))
    round_.act("A", {"type": "ante", "amount": 1})
    round_.expire()
    round_.act("A", {"type": "switch"})
    round_.expire()
    again = spec.round_type.replay(spec.parse_config(None), seats, bytes(32), round_.log)
    assert again.result() == round_.result() and again.view("A") == round_.view("A")
