"""GameSpec and the registry: discovery, typed actions and settings, canonical forms, check."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from qipai.core.errors import GameError, IllegalAction, InvalidInput
from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.core.spec import GameSpec
from qipai.games import game_package, registry, settle_document
from qipai.tables import games as table_games

GAMES = tuple(registry.names())
FOLDERS = Path(registry.__file__).parent


def test_the_registry_finds_every_game_folder_in_lobby_order() -> None:
    # one game per folder of qipai/games with a spec.py, whatever the folders are
    folders = {p.parent.name for p in FOLDERS.glob("*/spec.py")}
    assert {registry.get(name).package_name.rpartition(".")[2] for name in GAMES} == folders
    assert len(GAMES) == len(folders) >= 5
    order = [(registry.get(name).order, name) for name in GAMES]
    assert order == sorted(order)
    for name in GAMES:
        spec = registry.get(name)
        assert spec.name == name and spec.round_type.game == name
        assert set(spec.title) == {"zh", "en"}
        assert 1 <= spec.min_players <= spec.max_players <= len(spec.seat_ids)
        assert spec.bots and spec.default_bot() in spec.bot_levels
    with pytest.raises(InvalidInput, match="unknown game") as caught:
        registry.get("poker")
    assert caught.value.field == "game"


def test_the_tables_layer_and_the_packages_answer_from_the_registry() -> None:
    for name in GAMES:
        spec = registry.get(name)
        assert table_games.get(name) is spec
        package = game_package(name)
        assert package.ROUND is spec.round_type and package.CONFIG is spec.config_model


def test_a_spec_answers_the_old_game_info_names() -> None:
    spec = registry.get("holdem-bonus")
    assert spec.config_type is spec.config_model
    assert spec.bot_levels == ("random", "sensible", "optimal") and spec.default_bot() == "optimal"
    assert spec.make_bot("random").name == "random"
    assert spec.config({"ante_min": 200}).ante_min == 200
    assert spec.context_keys == ("pool",) and spec.hint is not None
    assert spec.min_stack == 1 and spec.default_buy_in == 10_000
    assert registry.get("tiengow").reveal_seed is False
    assert registry.get("tiengow").default_bot() == "rule-of-thumb"  # search bots by choice


# ----- typed actions: the stray-field cases ------------------------------------------
def test_a_misspelt_field_is_refused_naming_it() -> None:
    """Regression: `spt` cleared every Pok Deng bet and `bx` every Hold'em box."""
    for game, action, field in (
        ("pokdeng", {"type": "clear", "spt": "P1"}, "spt"),
        ("holdem-bonus", {"type": "clear", "bx": "1"}, "bx"),
        ("pokdeng", {"type": "bets", "bets": [{"spot": "P1", "amount": 100, "x": 1}]}, "bets.0.x"),
        ("pokdeng", {"type": "bet", "spot": "P1", "amount": True}, "amount"),
        ("pokdeng", {"type": "bet", "spot": "P1", "amount": 1.0}, "amount"),
        ("pokdeng", {"type": "bet", "spot": "P1", "amount": "50"}, "amount"),
        ("paigow", {"type": "bid", "multiple": False}, "multiple"),
        ("tiengow", {"type": "play", "tiles": [0], "tile": [1]}, "tile"),
        ("niuniu", {"type": "swap", "card": []}, "card"),
        ("pokdeng", {"type": "raise"}, "type"),
        ("pokdeng", {"spot": "P1"}, "type"),
    ):
        with pytest.raises(InvalidInput) as caught:
            registry.get(game).parse_action(action)
        assert caught.value.field == field, (game, action, caught.value.message)
        assert field.split(".")[-1] in caught.value.message


def test_the_misspelt_clear_changes_nothing_at_the_table() -> None:
    spec = registry.get("pokdeng")
    round_ = spec.round_type.start(spec.parse_config(None), [Seat("a", 10_000)], Rng(bytes(32)))
    round_.act("a", {"type": "bet", "spot": "P1", "amount": 100})
    before = round_.view("a")
    with pytest.raises(InvalidInput, match="spt"):
        round_.act("a", {"type": "clear", "spt": "P1"})
    assert round_.view("a") == before and round_.view("a")["me"]["bets"] == {"P1": 100}


def test_action_json_is_canonical_and_parses_back() -> None:
    spec = registry.get("pokdeng")
    sent = {"type": "bets", "bets": [{"amount": 100, "spot": "P1"}], "done": False}
    canonical = spec.action_json(sent)
    assert canonical == {"type": "bets", "bets": [{"spot": "P1", "amount": 100}]}
    assert spec.action_json(canonical) == canonical
    assert spec.parse_action(canonical) == spec.parse_action(sent)
    niuniu = registry.get("niuniu")
    assert niuniu.action_json({"type": "swap", "cards": ["10♠", "kd"]}) == {
        "type": "swap",
        "cards": ["Ts", "Kd"],
    }


def test_check_validates_like_act_and_changes_nothing() -> None:
    spec = registry.get("pokdeng")
    round_ = spec.round_type.start(spec.parse_config(None), [Seat("a", 300)], Rng(bytes(32)))
    for action in (
        {"type": "clear"},  # nothing to clear
        {"type": "bet", "spot": "P1", "amount": 100},
        {"type": "bet", "spot": "B1", "amount": 100},  # not a classic spot
        {"type": "bet", "spot": "P1", "amount": 200},  # stake + hold over the stack
        {"type": "clear", "spt": "P1"},
    ):
        before = (round_.view("a"), list(round_.log))
        try:
            round_.check("a", action)
            checked: str | None = None
        except GameError as exc:
            checked = exc.code
        assert (round_.view("a"), list(round_.log)) == before
        try:
            round_.act("a", action)
            acted: str | None = None
        except GameError as exc:
            acted = exc.code
        assert checked == acted
    assert round_.view("a")["me"]["bets"] == {"P1": 100}
    with pytest.raises(IllegalAction) as caught:
        round_.check("a", {"type": "bet", "spot": "P2", "amount": 200})
    assert caught.value.code == "insufficient_funds"


# ----- settings ---------------------------------------------------------------------------------
def test_settings_parse_with_defaults_and_refuse_naming_the_field() -> None:
    for name in GAMES:
        spec = registry.get(name)
        default = spec.parse_config(None)
        assert spec.parse_config({}) == default == spec.parse_config(default.to_json())
        with pytest.raises(InvalidInput) as caught:
            spec.parse_config({"no_such_setting": 1})
        assert caught.value.field == "no_such_setting"
        with pytest.raises(InvalidInput):
            spec.parse_config([1, 2])
    with pytest.raises(InvalidInput) as caught:
        registry.get("pokdeng").parse_config({"limits": {"pair": {"min": 5, "max": 1}}})
    assert caught.value.field == "limits.pair"


def test_config_hash_is_sha256_of_the_canonical_settings() -> None:
    import hashlib

    spec = registry.get("paigow")
    default = spec.parse_config(None)
    text = json.dumps(default.to_json(), sort_keys=True, separators=(",", ":"))
    assert spec.config_hash(default) == hashlib.sha256(text.encode()).hexdigest()
    assert spec.config_hash({}) == spec.config_hash(None) == spec.config_hash(default)
    assert spec.config_hash({"base": 200}) != spec.config_hash(default)
    hashes = {registry.get(name).config_hash(None) for name in GAMES}
    assert len(hashes) == len(GAMES)


def test_min_buy_in_follows_the_rules_decision() -> None:
    """docs/rules/common.md#buy-in, Common to every game, buy-in."""
    assert (
        registry.get("pokdeng").min_buy_in({"limits": {"player": {"min": 50, "max": 500}}}) == 100
    )
    assert registry.get("paigow").min_buy_in({"base": 100}) == 300  # 3 players x A x 1 x 1
    assert registry.get("niuniu").min_buy_in({}) == 4 * 100 * 1 * 1 * 5
    assert registry.get("holdem-bonus").min_buy_in({"ante_min": 25, "ante_max": 100}) == 150
    assert (
        registry.get("tiengow").min_buy_in({"base": 50}) == 600
    )  # docs/rules/tiengow.md#minimum-buy-in: 12 x base


def test_pay_tables_show_the_settings_in_both_languages() -> None:
    def labels(data: Any) -> list[dict[str, str]]:
        if isinstance(data, dict):
            found = [data] if set(data) == {"zh", "en"} else []
            return found + [x for v in data.values() for x in labels(v)]
        if isinstance(data, list):
            return [x for v in data for x in labels(v)]
        return []

    for name in GAMES:
        spec = registry.get(name)
        table = spec.pay_table(None)
        json.dumps(table)
        assert table["game"] == name and table["min_buy_in"] == spec.min_buy_in(None)
        assert table["countdowns"] and labels(table)
        assert all(text["zh"] and text["en"] for text in labels(table))
    pok = registry.get("pokdeng").pay_table({"pair_odds": 9, "mode": "banker-player"})
    pair = next(b for b in pok["bets"] if b["bet"] == "pair")
    assert pair["pays"][0]["odds"] == "9:1" and "B pair" in pair["spots"]


def test_settle_documents_go_through_the_spec() -> None:
    doc = json.loads(registry.get("pokdeng").examples()[0].read_text(encoding="utf-8"))
    assert settle_document(doc) == registry.get("pokdeng").settle(doc)
    with pytest.raises(InvalidInput, match="unknown game"):
        settle_document({"game": "chess"})


def test_register_and_unregister_a_game() -> None:
    spec = dataclasses.replace(registry.get("pokdeng"), name="pokdeng-copy", order=99)
    assert isinstance(spec, GameSpec)
    registry.register(spec)
    try:
        assert list(registry.available())[-1] == "pokdeng-copy"
        assert table_games.get("pokdeng-copy") is spec
    finally:
        registry.unregister("pokdeng-copy")
    assert "pokdeng-copy" not in registry.available()
