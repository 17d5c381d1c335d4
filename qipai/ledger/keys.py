"""The ledger's secrets, kept outside the database: the MAC key of the tamper-evident chains and
the AES-GCM key that seals the seeds of deal units still in play.

One 32-byte master secret is loaded, and two keys are derived from it (HMAC-SHA256 of the master
over a fixed label each), plus a public *key id* that the database records on first use so that a
wrong or missing key is refused at start-up instead of silently starting a new chain.

Where the master secret comes from, first match wins:

1. `Ledger.open(db, keys=Keys(...))` — the caller's (the server passes its settings).
2. `QIPAI_KEY` — 64 hex digits (or 43/44 characters of URL-safe base64) in the environment.
3. `QIPAI_KEY_FILE` — a file holding the key in the same form (one line).
4. The default key file of the database:
   * a SQLite file `…/name.sqlite3` → `…/name.sqlite3.key` beside it (the embedded default is
     therefore `<user data dir>/qipai/qipai.sqlite3.key`);
   * PostgreSQL → `<user data dir>/qipai/keys/<host>_<port>_<database>_<schema>.key`;
   * an in-memory SQLite database → a fresh key that lives as long as the process.

A default key file is created (mode 0600, its directory 0700) only when the database has never
recorded a key id; once it has, a missing file is an error (`KeyMissing`), never a new key, and a
different key is `KeyMismatch`. Production should set `QIPAI_KEY_FILE` (or `QIPAI_KEY`) to a secret
that is backed up apart from the database: a copy of the database alone can neither read the seeds
of open deal units nor forge a record whose MAC checks out. Several processes or machines on one
database must load the same key.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import hmac
import os
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy.engine import make_url

from qipai.ledger.errors import KeyMismatch, KeyMissing

ENV_KEY = "QIPAI_KEY"
ENV_KEY_FILE = "QIPAI_KEY_FILE"
KEY_BYTES = 32
_FILE_PREFIX = "qipai-key-v1:"


@dataclass(frozen=True)
class Keys:
    """The master secret and the keys derived from it. `source` says where it was loaded from."""

    master: bytes = field(repr=False)
    source: str = "given"

    def __post_init__(self) -> None:
        if not isinstance(self.master, bytes) or len(self.master) != KEY_BYTES:
            raise KeyMissing(f"a ledger key is {KEY_BYTES} bytes")

    @classmethod
    def generate(cls, source: str = "generated") -> Keys:
        return cls(secrets.token_bytes(KEY_BYTES), source)

    @classmethod
    def parse(cls, text: str, source: str) -> Keys:
        """A key from its text form: 64 hex digits or URL-safe base64 of 32 bytes (an optional
        `qipai-key-v1:` prefix and surrounding whitespace are allowed)."""
        value = text.strip()
        if value.startswith(_FILE_PREFIX):
            value = value[len(_FILE_PREFIX) :]
        raw: bytes | None = None
        if re.fullmatch(r"[0-9a-fA-F]{64}", value):
            raw = bytes.fromhex(value)
        else:
            try:
                raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
            except (binascii.Error, ValueError):
                raw = None
        if raw is None or len(raw) != KEY_BYTES:
            raise KeyMissing(
                f"the ledger key from {source} is not 32 bytes as 64 hex digits or base64"
            )
        return cls(raw, source)

    def _derive(self, label: str) -> bytes:
        return hmac.new(self.master, f"qipai/{label}".encode(), hashlib.sha256).digest()

    @functools.cached_property
    def mac_key(self) -> bytes:
        """The HMAC-SHA256 key of the record chains."""
        return self._derive("mac/v1")

    @functools.cached_property
    def seed_key(self) -> bytes:
        """The AES-256-GCM key that seals seeds at rest."""
        return self._derive("seed/v1")

    @functools.cached_property
    def oplog_key(self) -> bytes:
        """The HMAC-SHA256 key of the operator log's chain and head (`qipai.authority.oplog`)."""
        return self._derive("oplog/v1")

    @functools.cached_property
    def template_key(self) -> bytes:
        """The HMAC-SHA256 key of the template versions' seals (`qipai.authority.seals`)."""
        return self._derive("templates/v1")

    @property
    def key_id(self) -> str:
        """A public fingerprint of the key (16 hex digits), recorded in the database."""
        return self._derive("key-id/v1").hex()[:16]

    def text(self) -> str:
        """The key's file form."""
        return f"{_FILE_PREFIX}{self.master.hex()}\n"


def default_key_path(url: str, schema: str | None = None) -> Path | None:
    """Where the key of this database lives when no key is configured (None: in memory)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if not database or database == ":memory:" or database.startswith("file::memory:"):
            return None
        return Path(database).with_name(Path(database).name + ".key")
    from platformdirs import user_data_path

    if schema is None:  # a schema given in the URL (`?options=-csearch_path=…`) counts too
        options = parsed.query.get("options", "")
        found = re.search(
            r"search_path=([A-Za-z0-9_]+)",
            " ".join(options) if isinstance(options, tuple) else options,
        )
        schema = found.group(1) if found else None
    parts = [parsed.host or "local", str(parsed.port or 5432), parsed.database or "", schema or ""]
    name = "_".join(re.sub(r"[^A-Za-z0-9.\-]", "-", p) for p in parts)
    return user_data_path("qipai", appauthor=False) / "keys" / f"{name}.key"


def _read(path: Path, source: str) -> Keys:
    try:
        return Keys.parse(path.read_text(encoding="ascii"), source)
    except (OSError, UnicodeDecodeError) as exc:
        raise KeyMissing(f"cannot read the ledger key file {path}: {exc}") from exc


def _create(path: Path) -> Keys:
    """Write a fresh key with owner-only permissions; if another process won the race, use
    the key it wrote."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    keys = Keys.generate(f"key file {path}")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read(path, f"key file {path}")
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(keys.text())
        handle.flush()
        os.fsync(handle.fileno())
    return keys


def load(
    url: str,
    schema: str | None,
    *,
    given: Keys | None,
    recorded_id: Callable[[], str | None],
) -> Keys:
    """The key for this database by the rules above. `recorded_id()` reads the key id the
    database recorded (None if it never did); a key is created only when it returns None."""
    if given is not None:
        keys = given
    elif os.environ.get(ENV_KEY):
        keys = Keys.parse(os.environ[ENV_KEY], f"${ENV_KEY}")
    elif os.environ.get(ENV_KEY_FILE):
        path = Path(os.environ[ENV_KEY_FILE]).expanduser()
        keys = _load_file(path, f"${ENV_KEY_FILE} ({path})", recorded_id)
    else:
        default = default_key_path(url, schema)
        if default is None:
            keys = Keys.generate("in-memory database")
        else:
            keys = _load_file(default, f"key file {default}", recorded_id)
    recorded = recorded_id()
    if recorded is not None and recorded != keys.key_id:
        raise KeyMismatch(
            f"the ledger key from {keys.source} (id {keys.key_id}) is not the key this database "
            f"was written with (id {recorded}); give the right key ({ENV_KEY_FILE} or {ENV_KEY})"
        )
    return keys


def _load_file(path: Path, source: str, recorded_id: Callable[[], str | None]) -> Keys:
    if path.exists():
        return _read(path, source)
    recorded = recorded_id()
    if recorded is not None:
        raise KeyMissing(
            f"the ledger key is missing: {source} does not exist, but this database was written "
            f"with key id {recorded}; restore the key file (or set {ENV_KEY_FILE}/{ENV_KEY}) — "
            "a new key would start a new chain over the old one, so the ledger will not start"
        )
    keys = _create(path)
    return Keys(keys.master, source)


__all__ = ["ENV_KEY", "ENV_KEY_FILE", "Keys", "default_key_path", "load"]
