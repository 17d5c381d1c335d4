"""Every action of every game refuses stray, misspelt and wrong-typed fields, naming the field
(`{"type": "clear", "spt": "P1"}` cleared every Pok Deng bet, `{"type": "clear",
"bx": "1"}` every Hold'em box). The action models are read from each spec, so a new action or a
new game is covered without an edit.
"""

from __future__ import annotations

import typing
from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter

from qipai.core.errors import InvalidInput
from qipai.core.spec import GameSpec

from .harness import specs


def members(spec: GameSpec) -> list[type[BaseModel]]:
    """The models of a game's action union."""
    union = typing.get_args(spec.actions)[0]
    return [m for m in typing.get_args(union) if isinstance(m, type) and issubclass(m, BaseModel)]


def minimal(schema: dict[str, Any], node: dict[str, Any]) -> Any:
    """The smallest JSON value the schema node accepts (enough to parse, not to be legal)."""
    ref = node.get("$ref")
    if ref:
        node = schema["$defs"][ref.rsplit("/", 1)[-1]]
    if "const" in node:
        return node["const"]
    if "enum" in node:
        return node["enum"][0]
    kind = node.get("type")
    if kind == "integer":
        return node.get("minimum", 0)
    if kind == "boolean":
        return False
    if kind == "string":
        return "x" * node.get("minLength", 1)
    if kind == "array":
        items = node.get("items") or {"type": "integer"}
        return [minimal(schema, items) for _ in range(node.get("minItems", 0))]
    if kind == "object" or "properties" in node:
        return {key: minimal(schema, node["properties"][key]) for key in node.get("required", [])}
    if "anyOf" in node:
        return minimal(schema, next(n for n in node["anyOf"] if n.get("type") != "null"))
    raise AssertionError(f"no minimal value for {node}")


def base_action(model: type[BaseModel]) -> dict[str, Any]:
    schema = TypeAdapter(model).json_schema()
    action = minimal(schema, schema)
    action["type"] = model.model_fields["type"].default
    return dict(action)


CASES = [(spec, model) for spec in specs() for model in members(spec)]
IDS = [f"{spec.name}-{model.model_fields['type'].default}" for spec, model in CASES]


def refused(spec: GameSpec, action: dict[str, Any]) -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        spec.parse_action(action)
    return caught.value


def test_every_game_declares_typed_actions() -> None:
    for spec in specs():
        assert members(spec), spec.name
        for model in members(spec):
            config = model.model_config
            assert config.get("frozen") and config.get("extra") == "forbid", model


@pytest.mark.parametrize(("spec", "model"), CASES, ids=IDS)
def test_stray_misspelt_and_wrong_typed_fields(spec: GameSpec, model: type[BaseModel]) -> None:
    action = base_action(model)
    assert spec.action_json(action) == spec.action_json(spec.parse_action(action))
    error = refused(spec, {**action, "zz_stray": 1})
    assert error.field == "zz_stray" and "zz_stray" in error.message
    for name in model.model_fields:
        if name == "type":
            continue
        value = action.get(name, model.model_fields[name].default)
        misspelt = name[:-1] if len(name) > 1 else name + "x"
        sent = {k: v for k, v in action.items() if k != name}
        error = refused(spec, {**sent, misspelt: value})
        assert misspelt in error.message, (misspelt, error.message)
        annotation = str(model.model_fields[name].annotation)
        if "int" in annotation and "tuple" not in annotation:
            for bad in (True, 1.0, "1", 10**30, []):
                error = refused(spec, {**action, name: bad})
                assert error.field == name, (name, bad, error.message)
        if "bool" in annotation:
            for bad in (1, "true", None):
                error = refused(spec, {**action, name: bad})
                assert error.field == name, (name, bad, error.message)


@pytest.mark.parametrize("spec", specs(), ids=[s.name for s in specs()])
def test_not_an_action(spec: GameSpec) -> None:
    for junk in (None, 5, "bet", [], {}, {"type": 5}, {"type": "zz_unknown"}, {"spot": "P1"}):
        error = refused(spec, junk)  # type: ignore[arg-type]
        assert error.field == "type", (junk, error.message)
