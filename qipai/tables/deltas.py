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


def _put(node: Any, tokens: list[str], op: Op) -> Any:
    """A copy of `node` with `op` applied at `tokens` below it: only the containers on the path
    are copied, the rest is shared with `node`."""
    path = op.get("path")
    key, rest = tokens[0], tokens[1:]
    at: Any
    copied: Any
    if isinstance(node, dict):
        has, at, copied = key in node, key, dict(node)
    elif isinstance(node, list):
        has = key.isdigit() and int(key) < len(node)
        at, copied = (int(key) if has else -1), list(node)
    else:
        raise PatchError(f"path {path!r} goes through a value that holds nothing")
    if rest:
        if not has:
            raise PatchError(f"path {path!r}: no {key!r}")
        copied[at] = _put(node[at], rest, op)
        return copied
    kind = op.get("op")
    if kind in ("remove", "replace") and not has:
        raise PatchError(f"path {path!r}: no {key!r}")
    if kind not in ("remove", "replace") and (kind != "add" or isinstance(node, list)):
        raise PatchError(f"path {path!r}: {kind!r} is not used")
    if kind == "remove":
        del copied[at]
    else:
        copied[at] = op.get("value")
    return copied


def apply(doc: JSON, ops: list[Op]) -> JSON:
    """`doc` with the patch applied: a new document, `doc` left as it was (copy-on-write: what
    the patch does not touch is shared with `doc`, so treat both as read-only)."""
    out: Any = doc
    for op in ops:
        path = op.get("path")
        if not isinstance(path, str):
            raise PatchError("an operation without a path")
        if path == "":
            if op.get("op") != "replace" or not isinstance(op.get("value"), dict):
                raise PatchError("the whole document can only be replaced by an object")
            out = op["value"]
            continue
        if not path.startswith("/"):
            raise PatchError(f"path {path!r} does not start with '/'")
        out = _put(out, [_unescape(t) for t in path[1:].split("/")], op)
    result: JSON = out
    return result


__all__ = ["Op", "PatchError", "apply", "diff"]
