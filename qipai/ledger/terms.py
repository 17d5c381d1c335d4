"""The terms a round was dealt under, as the ledger records them (docs/ledger.md, "Terms").

When a round opens, the ledger takes the hash of the settings it is dealt under — the very
`config` its header records — and writes it into the round's `meta` as `terms_hash`, beside
the template id and version the table gives; the header's MAC covers them all. The hash is the
SHA-256 of the settings' canonical JSON (keys sorted, no spaces, UTF-8: `core.model
.canonical_json`), the same as a game's `GameSpec.config_hash` and so as a template version's
sealed `config_hash`: a template altered in the database (its pay table changed, its recorded
hash left) deals rounds whose `terms_hash` differs from the hash the template claims
(`meta.config_hash`) and from the template version's seal.

A round written before rounds recorded `terms_hash` has a header MACed without it: it verifies
as it was written, and its terms are checked by recomputing the hash from its recorded settings
against the hash it claimed (`meta.config_hash`) and against its template version's seal.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from qipai.core.model import canonical_json
from qipai.ledger.errors import RoundStateError

TERMS_HASH = "terms_hash"


def terms_hash(config: Mapping[str, Any]) -> str:
    """SHA-256 hex of the settings' canonical JSON (what `GameSpec.config_hash` gives)."""
    return hashlib.sha256(canonical_json(dict(config))).hexdigest()


def with_terms(config: Mapping[str, Any], meta: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The round's (checked) meta with the hash of the settings it is about to be dealt under
    (a round without meta, written by a caller that records no terms, stays without)."""
    if meta is None:
        return None
    try:
        digest = terms_hash(config)
    except (TypeError, ValueError) as exc:
        raise RoundStateError(f"round config is not JSON: {exc}") from None
    return {**dict(meta), TERMS_HASH: digest}


def problem(config: Any, meta: Any) -> str | None:
    """What is wrong with a stored round's terms (None: its settings hash to what it says)."""
    if not isinstance(meta, Mapping):
        return None  # a round without meta names no terms
    try:
        actual = terms_hash(config if isinstance(config, Mapping) else {})
    except (TypeError, ValueError) as exc:
        return f"its settings cannot be hashed: {exc}"
    recorded = meta.get(TERMS_HASH)
    if recorded is not None and recorded != actual:
        return (
            f"its settings hash to {actual[:12]}, not the terms hash it recorded "
            f"{str(recorded)[:12]}"
        )
    claimed = meta.get("config_hash")
    if claimed is not None and claimed != actual:
        return (
            f"it was dealt under settings hashing to {actual[:12]}, but its terms claim "
            f"{str(claimed)[:12]} (the template's settings differ from its recorded hash)"
        )
    return None


__all__ = ["TERMS_HASH", "problem", "terms_hash", "with_terms"]
