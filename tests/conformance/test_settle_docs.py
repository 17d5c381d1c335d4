"""Every game's `qipai settle` document is parsed by a typed model (ARCHITECTURE.md, "The game contract"): a misspelt key
and a value of the wrong type are refused with `InvalidInput` naming the field, before anything
is settled. Parametrized over the registry: each game with settle documents must ship an
example in its folder (`qipai/games/<game>/examples/`), and the example itself must settle.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from qipai.core.errors import InvalidInput
from qipai.core.model import Model
from qipai.core.schema import settle_document_model
from qipai.games import registry

GAMES = sorted(name for name, spec in registry.available().items() if callable(spec.settle_doc))


def _example(game: str) -> dict[str, Any]:
    folder = registry.get(game).folder / "examples"
    for path in registry.get(game).examples():
        if path.name.startswith("bad-"):
            continue
        doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return doc
    raise AssertionError(f"{game} settles documents but has no example in {folder}")


def _wrong_type(value: object) -> object:
    """A JSON value of another type than `value`."""
    if isinstance(value, bool):
        return "true"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return 1
    if isinstance(value, list):
        return "x"
    return ["x"]


def test_every_shipped_game_settles_documents() -> None:
    assert len(GAMES) >= 5 and set(GAMES) <= set(registry.names())


@pytest.mark.parametrize("game", GAMES)
def test_the_document_has_a_typed_model(game: str) -> None:
    document = settle_document_model(registry.get(game))
    assert document is not None and issubclass(document, Model)
    assert document.model_config.get("extra") == "forbid"
    assert document.model_config.get("frozen") is True


@pytest.mark.parametrize("game", GAMES)
def test_the_example_settles(game: str) -> None:
    assert registry.get(game).settle(_example(game))["game"] == game


@pytest.mark.parametrize("game", GAMES)
def test_a_misspelt_key_is_refused_naming_it(game: str) -> None:
    doc = _example(game)
    key = next(k for k in doc if k != "game")
    doc[key + "s"] = doc.pop(key)
    with pytest.raises(InvalidInput) as info:
        registry.get(game).settle(doc)
    assert f"unexpected field '{key}s'" in info.value.message
    # the misspelt key's own field is missing too (when required): both are named
    assert info.value.field in (key, key + "s")


@pytest.mark.parametrize("game", GAMES)
def test_a_wrong_type_is_refused_naming_the_field(game: str) -> None:
    doc = _example(game)
    for key in [k for k in doc if k not in ("game", "note")]:
        broken = {**doc, key: _wrong_type(doc[key])}
        with pytest.raises(InvalidInput) as info:
            registry.get(game).settle(broken)
        assert info.value.field == key, (key, info.value.message)
        assert info.value.message.count(key) >= 1


@pytest.mark.parametrize("game", GAMES)
def test_a_nested_misspelt_key_is_refused_naming_its_path(game: str) -> None:
    doc = _example(game)
    # the first nested object of the document (a seat, a bet, the pool …)
    for key, value in doc.items():
        if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            inner = next(iter(value))
            broken = {**doc, key: {**value, inner: {**value[inner], "colour": "red"}}}
            path = f"{key}.{inner}.colour"
            break
        if isinstance(value, list) and value and isinstance(value[0], dict):
            broken = {**doc, key: [{**value[0], "colour": "red"}, *value[1:]]}
            path = f"{key}.0.colour"
            break
    else:
        pytest.skip(f"{game}'s example has no nested objects")
    with pytest.raises(InvalidInput) as info:
        registry.get(game).settle(broken)
    assert info.value.field == path
    assert f"unexpected field '{path}'" in info.value.message


SCHEMAS = Path(__file__).resolve().parents[2] / "docs" / "schema"


def _schema_errors(game: str, doc: dict[str, Any]) -> list[str]:
    import jsonschema

    schema = json.loads((SCHEMAS / f"{game}.settle.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    return [e.message for e in validator.iter_errors(doc)]


@pytest.mark.parametrize("game", GAMES)
def test_every_example_meets_its_schema(game: str) -> None:
    for path in registry.get(game).examples():
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert not _schema_errors(game, doc), path.name


def _seat_map(doc: dict[str, Any]) -> str:
    return "dong" if doc["game"] == "tiengow" else "seats" if "seats" in doc else "hands"


@pytest.mark.parametrize("game", GAMES)
def test_one_seat_too_many_is_refused_by_schema_and_model_alike(game: str) -> None:
    doc = _example(game)
    key = _seat_map(doc)
    schema = json.loads((SCHEMAS / f"{game}.settle.json").read_text(encoding="utf-8"))
    most = schema["properties"][key].get("maxProperties")
    names = list(doc[key])
    value = doc[key][names[-1]]
    grown = dict(doc[key])
    for n in range(len(names), (most or len(names)) + 1):
        grown[f"x{n}"] = value
    broken = {**doc, key: grown}
    assert _schema_errors(game, broken)
    with pytest.raises(InvalidInput) as info:
        settle_document_model(registry.get(game)).parse(broken)  # type: ignore[union-attr]
    assert info.value.field is not None and info.value.field.startswith(key)


# Cross-field rules the JSON Schema cannot state (a value naming a key, one seat without a field):
# the model refuses them, naming the field, and the schema's descriptions say them.
CROSS_FIELD: list[tuple[str, dict[str, Any], str]] = [
    ("paigow", {"banker": "X"}, "banker"),
    ("niuniu", {"banker": "X"}, "banker"),
    ("tiengow", {"banker": "X"}, "banker"),
    ("tiengow", {"winner": "X"}, "winner"),
    ("tiengow", {"zun": ["X"]}, "zun"),
    ("tiengow", {"stacks": {"E": 1}}, "stacks"),
]


@pytest.mark.parametrize(("game", "change", "field"), CROSS_FIELD)
def test_a_value_naming_no_seat_is_refused_by_the_model(
    game: str, change: dict[str, Any], field: str
) -> None:
    broken = {**_example(game), **change}
    with pytest.raises(InvalidInput) as info:
        settle_document_model(registry.get(game)).parse(broken)  # type: ignore[union-attr]
    assert info.value.field == field
    schema = json.loads((SCHEMAS / f"{game}.settle.json").read_text(encoding="utf-8"))
    assert "seat" in schema["properties"][field]["description"]


@pytest.mark.parametrize("game", ["paigow", "niuniu"])
def test_the_banker_alone_has_no_multiple_by_the_model(game: str) -> None:
    doc = _example(game)
    banker = doc["banker"]
    player = next(s for s in doc["seats"] if s != banker)
    model = settle_document_model(registry.get(game))
    assert model is not None
    no_bet = {**doc, "seats": {**doc["seats"], player: dict(doc["seats"][player])}}
    del no_bet["seats"][player]["multiple"]
    with pytest.raises(InvalidInput) as info:
        model.parse(no_bet)
    assert info.value.field == f"seats.{player}.multiple"
    schema = json.loads((SCHEMAS / f"{game}.settle.json").read_text(encoding="utf-8"))
    seat_def = next(d for n, d in schema["$defs"].items() if n.endswith("SettleSeat"))
    assert "banker" in seat_def["properties"]["multiple"]["description"]
