"""State deltas: the difference between two states a client receives, as an RFC 6902 JSON Patch
(docs/protocol.md, "Deltas").

Only three operations are used: `add` (a key that was not there), `remove` (a key that is no
longer there) and `replace` (a changed value), with RFC 6901 paths (`~` written `~0`, `/`
written `~1`). Objects are compared key by key, lists of the same length item by item; a list
whose length changed is replaced whole (a table's seats and its last results keep their
length, so what changes in them is one item). JSON merge patch (RFC 7386) was not chosen: it
cannot set a value to `null`, which a state holds everywhere (`round`, `hint`, `result`).

`diff` and `apply` are pure: `apply(old, diff(old, new)) == new` for any two JSON documents
(`tests/tables/test_deltas.py` checks it for every game's states, step by step). The browser
applies patches with the same rules (`qipai/web/api/patch.js`).
"""

from __future__ import annotations

import copy
from typing import Any

from qipai.core.protocol import JSON

Op = dict[str, Any]
"""One RFC 6902 operation: `{"op": "add" | "remove" | "replace", "path", "value"?}`."""


class PatchError(ValueError):
    """A patch that does not fit the document it is applied to."""


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def _same(a: Any, b: Any) -> bool:
    """JSON equality: `True` is not `1`, and `1` is `1.0` only as JSON numbers are."""
    if a is b:
        return True
    if type(a) is not type(b) and (isinstance(a, bool) or isinstance(b, bool)):
        return False
    return bool(a == b)


def _diff(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    if old is new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key, value in old.items():
            if key not in new:
                ops.append({"op": "remove", "path": f"{path}/{_escape(str(key))}"})
            else:
                _diff(value, new[key], f"{path}/{_escape(str(key))}", ops)
        for key, value in new.items():
            if key not in old:
                ops.append({"op": "add", "path": f"{path}/{_escape(str(key))}", "value": value})
        return
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            _diff(a, b, f"{path}/{i}", ops)
        return
    if type(old) is not type(new) or not _same(old, new):
        ops.append({"op": "replace", "path": path, "value": new})


def diff(old: JSON, new: JSON) -> list[Op]:
    """The patch that turns `old` into `new`; values in it are `new`'s own (read-only)."""
    ops: list[Op] = []
    _diff(old, new, "", ops)
    return ops


def _parent(doc: Any, path: str) -> tuple[Any, str]:
    if not path.startswith("/"):
        raise PatchError(f"path {path!r} does not start with '/'")
    tokens = [_unescape(t) for t in path[1:].split("/")]
    node = doc
    for token in tokens[:-1]:
        node = _child(node, token, path)
    return node, tokens[-1]


def _child(node: Any, token: str, path: str) -> Any:
    if isinstance(node, dict):
        if token not in node:
            raise PatchError(f"path {path!r}: no key {token!r}")
        return node[token]
    if isinstance(node, list):
        if not token.isdigit() or int(token) >= len(node):
            raise PatchError(f"path {path!r}: no item {token!r}")
        return node[int(token)]
    raise PatchError(f"path {path!r} goes through a value that holds nothing")


def apply(doc: JSON, ops: list[Op]) -> JSON:
    """`doc` with the patch applied (a new document; `doc` is left as it was)."""
    out = copy.deepcopy(doc)
    for op in ops:
        kind, path = op.get("op"), op.get("path")
        if not isinstance(path, str):
            raise PatchError("an operation without a path")
        if path == "":
            if kind != "replace" or not isinstance(op.get("value"), dict):
                raise PatchError("the whole document can only be replaced by an object")
            out = copy.deepcopy(op["value"])
            continue
        parent, key = _parent(out, path)
        if kind == "remove":
            _child(parent, key, path)
            del parent[int(key) if isinstance(parent, list) else key]
        elif kind in ("add", "replace"):
            if kind == "replace":
                _child(parent, key, path)
            value = copy.deepcopy(op.get("value"))
            if isinstance(parent, dict):
                parent[key] = value
            elif isinstance(parent, list) and kind == "replace":
                parent[int(key)] = value
            else:
                raise PatchError(f"path {path!r}: {kind} into a list is not used")
        else:
            raise PatchError(f"unknown operation {kind!r}")
    return out


__all__ = ["Op", "PatchError", "apply", "diff"]
