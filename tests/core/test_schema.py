"""docs/schema/ is generated from the models and stays current; other layers can add models."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import jsonschema
import pytest
from pydantic import BaseModel
from typer.testing import CliRunner

from qipai.cli import app
from qipai.core import schema

DOCS = Path(__file__).resolve().parents[2] / "docs" / "schema"


def test_the_checked_in_schemas_are_current() -> None:
    assert schema.check(DOCS) == [], "run `uv run qipai schema --write`"
    for path in DOCS.glob("*.json"):
        jsonschema.Draft202012Validator.check_schema(json.loads(path.read_text(encoding="utf-8")))


def test_write_then_check_and_a_stale_file_is_named(tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(app, ["schema", "--write", "--dir", str(tmp_path)]).exit_code == 0
    assert runner.invoke(app, ["schema", "--check", "--dir", str(tmp_path)]).exit_code == 0
    (tmp_path / "pokdeng.view.json").write_text("{}\n", encoding="utf-8")
    (tmp_path / "gone.json").write_text("{}\n", encoding="utf-8")
    result = runner.invoke(app, ["schema", "--check", "--dir", str(tmp_path)])
    assert result.exit_code == 1
    assert "pokdeng.view.json differs" in result.output and "gone.json" in result.output
    (tmp_path / "pokdeng.config.json").unlink()
    assert (
        "pokdeng.config.json is missing"
        in runner.invoke(app, ["schema", "--check", "--dir", str(tmp_path)]).output
    )


def test_another_layer_adds_its_models(monkeypatch: pytest.MonkeyPatch) -> None:
    class StateMessage(BaseModel):
        type: str
        seq: int

    module = types.ModuleType("fake_layer_schema")
    module.SCHEMAS = {"fake.state": StateMessage}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_layer_schema", module)
    monkeypatch.setattr(schema, "PROVIDERS", [*schema.PROVIDERS, "fake_layer_schema", "no.such"])
    files = schema.expected()
    assert "fake.state.json" in files and "pokdeng.actions.json" in files
    assert json.loads(files["fake.state.json"])["properties"]["seq"]["type"] == "integer"
