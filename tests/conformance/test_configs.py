"""Every setting of every game refuses bad values with an error naming the setting (docs/operators.md).

Generated from each settings model's JSON Schema, so a new setting is covered without an edit:
out-of-bound numbers, wrong types, huge values, NaN and Infinity, bool for an int, malformed
decimal strings, unknown keys. Each is refused with `InvalidInput` whose `field` is the setting
(or a path inside it) and nothing else changes.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.errors import InvalidInput
from qipai.core.spec import GameSpec

from .harness import spec_ids, specs


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if ref:
        return dict(schema["$defs"][ref.rsplit("/", 1)[-1]])
    return node


def bad_values(schema: dict[str, Any], prop: dict[str, Any]) -> list[Any]:
    """Values the setting described by `prop` must refuse."""
    prop = _resolve(schema, prop)
    kind = prop.get("type")
    out: list[Any] = [None, {"nested": 1}, math.nan, math.inf]
    if kind == "integer":
        out += [True, False, 1.0, 1.5, "5", "", 10**30, -(10**30), [1]]
        if "minimum" in prop:
            out.append(prop["minimum"] - 1)
        if "maximum" in prop:
            out.append(prop["maximum"] + 1)
    elif kind == "number":
        out += [True, "5", -math.inf, [1.0], 10**30]
        if "minimum" in prop:
            out += [prop["minimum"] - 1, prop["minimum"] - 0.001]
        if "maximum" in prop:
            out += [prop["maximum"] + 1, prop["maximum"] + 0.001]
    elif kind == "string":
        out += [5, True, 0.05, ["0.1"], "zz-no-such-value" if "enum" in prop else "x" * 100]
        if "pattern" in prop:
            out += ["NaN", "Infinity", "-0.1", "1e-2", " 0.1", "0,1", "9" * 30]
    elif kind == "boolean":
        out += [1, 0, "true", "false", []]
    elif kind == "array":
        out += ["1", 5, True, [True] * 3, [10**30] * 3, [None], list(range(40))]
    elif kind == "object":
        out += [[], "x", 5, True, {"zz_unknown": 1}]
    return out


def every_case() -> list[tuple[GameSpec, str, Any]]:
    cases = []
    for spec in specs():
        schema = spec.config_model.model_json_schema()
        for name, prop in schema["properties"].items():
            cases += [(spec, name, bad) for bad in bad_values(schema, prop)]
    return cases


CASES = every_case()


@pytest.mark.parametrize(
    ("spec", "name", "bad"), CASES, ids=[f"{s.name}-{n}-{i}" for i, (s, n, _) in enumerate(CASES)]
)
def test_a_bad_setting_is_refused_naming_it(spec: GameSpec, name: str, bad: Any) -> None:
    with pytest.raises(InvalidInput) as caught:
        spec.parse_config({name: bad})
    field = caught.value.field or ""
    assert field == name or field.startswith(name + "."), (name, bad, caught.value.message)
    assert name in caught.value.message


@pytest.mark.parametrize("spec", specs(), ids=spec_ids())
def test_every_numeric_setting_is_bounded(spec: GameSpec) -> None:
    """Hard bounds on every setting (decks, countdowns, money, multipliers)."""
    schema = spec.config_model.model_json_schema()

    def numbers(node: dict[str, Any], path: str) -> list[tuple[str, dict[str, Any]]]:
        node = _resolve(schema, node)
        found = []
        if node.get("type") in ("integer", "number"):
            found.append((path, node))
        for key in ("items", "additionalProperties"):
            if isinstance(node.get(key), dict):
                found += numbers(node[key], f"{path}[]")
        for i, item in enumerate(node.get("prefixItems", [])):
            found += numbers(item, f"{path}[{i}]")
        for key, sub in node.get("properties", {}).items():
            found += numbers(sub, f"{path}.{key}")
        return found

    for name, prop in schema["properties"].items():
        for path, node in numbers(prop, name):
            assert "minimum" in node and "maximum" in node, f"{spec.name}: {path} is unbounded"
        node = _resolve(schema, prop)
        if node.get("type") == "string" and "enum" not in node:
            assert "pattern" in node or "maxLength" in node, f"{spec.name}: {name}"


@pytest.mark.parametrize("spec", specs(), ids=spec_ids())
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_random_junk_is_refused_or_valid(spec: GameSpec, data: st.DataObject) -> None:
    """Arbitrary JSON for any subset of the settings: either valid settings (which then parse
    back to themselves) or InvalidInput naming one of the keys given."""
    schema = spec.config_model.model_json_schema()
    names = sorted(schema["properties"])
    json_values = st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats()
        | st.text(max_size=8)
        | st.sampled_from(["0.05", "1", "classic", "source", "banker", "any-seven"]),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
        max_leaves=8,
    )
    doc = data.draw(st.dictionaries(st.sampled_from([*names, "zz"]), json_values, max_size=4))
    try:
        config = spec.parse_config(doc)
    except InvalidInput as exc:
        assert exc.field is not None and exc.field.split(".")[0] in doc
        return
    assert spec.parse_config(config.to_json()) == config
