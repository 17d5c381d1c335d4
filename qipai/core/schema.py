"""JSON Schemas of the typed contract, generated into `docs/schema/` (`qipai schema --write`).

What is generated: for every game of the registry, its actions (`<game>.actions.json`, the
tagged union), settings (`<game>.config.json`), view (`<game>.view.json`) and, for a game with
`qipai settle` documents, the document (`<game>.settle.json`: the model its package's `settle`
module names `DOCUMENT`); plus every model
another layer declares, among them the WebSocket messages (`qipai.core.messages`:
`messages.client.json`, `messages.server.json`). CI runs `qipai schema --check`, which fails when a checked-in schema
differs from the code, so the browser client and outside clients can rely on the files.

**Adding models of your own** (state messages, HTTP bodies …): put a module-level
`SCHEMAS: dict[str, type[pydantic.BaseModel] | pydantic.TypeAdapter]` (file name without
`.json` → model) in a module of yours and add the module's dotted path to `PROVIDERS` below; a
provider that is not importable (not built yet) is skipped. Names are `layer.thing`, e.g.
`tables.state`.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, TypeAdapter

from qipai.core.spec import GameSpec

# Modules with a `SCHEMAS` mapping (other layers' models); missing modules are skipped.
PROVIDERS: list[str] = [
    "qipai.core.messages",
    "qipai.tables.schema",
    "qipai.server.schema",
]

SchemaSource = type[BaseModel] | TypeAdapter[Any]


def _schema_of(source: SchemaSource) -> dict[str, Any]:
    if isinstance(source, TypeAdapter):
        return source.json_schema(mode="validation")
    return source.model_json_schema(mode="validation")


def settle_document_model(spec: GameSpec) -> type[BaseModel] | None:
    """The model of a game's `qipai settle` document: `DOCUMENT` in the `settle` module of the
    game's package (None when the game settles no documents or its module names no model)."""
    if not callable(spec.settle_doc):
        return None
    package = spec.round_type.__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.settle")
    except ModuleNotFoundError as exc:
        if exc.name == f"{package}.settle":
            return None
        raise
    document = getattr(module, "DOCUMENT", None)
    return document if isinstance(document, type) and issubclass(document, BaseModel) else None


def sources() -> dict[str, SchemaSource]:
    """Every schema by file name (without `.json`), games first, in a stable order."""
    from qipai.games import registry

    out: dict[str, SchemaSource] = {}
    for name, spec in registry.available().items():
        if spec.actions is not None:
            out[f"{name}.actions"] = TypeAdapter(spec.actions)
        out[f"{name}.config"] = spec.config_model
        if spec.view_model is not None:
            out[f"{name}.view"] = spec.view_model
        document = settle_document_model(spec)
        if document is not None:
            out[f"{name}.settle"] = document
    for module_name in PROVIDERS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and module_name.startswith(exc.name):
                continue
            raise
        provided: Mapping[str, SchemaSource] = getattr(module, "SCHEMAS", {})
        out.update(provided)
    return out


def render(source: SchemaSource, name: str) -> str:
    """One schema file's text: `$id` and a title, keys in a stable order, a final newline."""
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": f"{name}.json"}
    schema.update(_schema_of(source))
    return json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def expected() -> dict[str, str]:
    """File name → the text it must have."""
    return {f"{name}.json": render(source, name) for name, source in sources().items()}


def write(directory: Path) -> list[str]:
    """Write every schema (and remove generated files no longer produced); the names written."""
    directory.mkdir(parents=True, exist_ok=True)
    files = expected()
    for old in directory.glob("*.json"):
        if old.name not in files:
            old.unlink()
    for name, text in files.items():
        path = directory / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
    return sorted(files)


def check(directory: Path) -> list[str]:
    """The problems: files missing, stale or left over (empty when docs/schema is current)."""
    files = expected()
    problems = []
    for name, text in files.items():
        path = directory / name
        if not path.exists():
            problems.append(f"{name} is missing")
        elif path.read_text(encoding="utf-8") != text:
            problems.append(f"{name} differs from the code")
    for old in sorted(directory.glob("*.json")):
        if old.name not in files:
            problems.append(f"{old.name} is not generated any more")
    return problems
