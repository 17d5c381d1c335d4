"""Template versions sealed with the ledger's key (docs/security.md, "Terms").

A version's seal is an HMAC-SHA256, under the template key derived from the ledger's key (never
in the database), over its exact terms as the database gives them back (every column: settings,
options, limits, pool, status, who and why). It is written in the version's own transaction to
`template_seals` (append-only). A version whose terms differ from its seal — a pay table edited
in the database with the triggers disabled — or whose settings no longer hash to its recorded
`config_hash`, or that has no seal once the room's templates are sealed, is a finding: the
server refuses to open tables on that template (suspended; the others play on), and start-up
and `qipai audit` report it.

Versions written before templates were sealed are sealed once, at the first start with a key
(the room's terms as they are then: trust on first use); after that an unsealed version is a
finding, so deleting a seal row does not make a tampered version look new.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, insert, select

from qipai.authority.schema import table_templates, template_seals


def seal_of(key: bytes, row: Mapping[str, Any]) -> str:
    body = {c.name: row[c.name] for c in table_templates.columns}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    return hmac.new(key, f"qipai-template|{text}".encode(), hashlib.sha256).hexdigest()


def write_seal(conn: Connection, key: bytes, template_id: str, version: int, at: float) -> None:
    """Seal a version as the database holds it (read back in the caller's transaction)."""
    row = (
        conn.execute(
            select(table_templates).where(
                table_templates.c.template_id == template_id, table_templates.c.version == version
            )
        )
        .mappings()
        .one()
    )
    conn.execute(
        insert(template_seals).values(
            template_id=template_id, version=version, seal=seal_of(key, dict(row)), sealed_at=at
        )
    )


def _hash_finding(row: Mapping[str, Any]) -> str | None:
    from qipai.authority import games

    try:
        games.spec(row["game"])
    except Exception:  # a game this process does not load (an extra game): the seal still holds
        return None
    try:
        digest = games.config_hash(row["game"], games.parse_config(row["game"], row["config"]))
    except Exception as exc:  # settings the game refuses
        return f"its settings do not parse: {exc}"
    if digest != row["config_hash"]:
        return f"its settings hash to {digest[:12]}, not the recorded {row['config_hash'][:12]}"
    return None


def findings(
    conn: Connection, key: bytes, template_ids: Sequence[str] | None = None
) -> dict[tuple[str, int], str]:
    """Every template version whose terms differ from their seal (or from their hash), or that
    has no seal while others have: (template id, version) -> what is wrong (`template_ids`:
    of these templates only)."""
    any_seal = conn.execute(select(template_seals.c.template_id).limit(1)).first() is not None
    seal_query = select(
        template_seals.c.template_id, template_seals.c.version, template_seals.c.seal
    )
    row_query = select(table_templates)
    if template_ids is not None:
        seal_query = seal_query.where(template_seals.c.template_id.in_(list(template_ids)))
        row_query = row_query.where(table_templates.c.template_id.in_(list(template_ids)))
    seals = {(str(r[0]), int(r[1])): str(r[2]) for r in conn.execute(seal_query)}
    out: dict[tuple[str, int], str] = {}
    for found_row in conn.execute(row_query).mappings():
        row = dict(found_row)
        at = (str(row["template_id"]), int(row["version"]))
        seal = seals.get(at)
        if seal is None:
            if any_seal:
                out[at] = "it has no seal (written or altered without the ledger's key)"
            continue
        if not hmac.compare_digest(seal_of(key, row), seal):
            out[at] = "its terms differ from its seal (altered in the database)"
            continue
        found = _hash_finding(row)
        if found is not None:
            out[at] = found
    return out


def round_findings(
    conn: Connection, key: bytes, round_ids: Sequence[str] | None = None
) -> dict[str, list[str]]:
    """Round id -> what is wrong with the template terms it was dealt under (`round_ids`: of
    these rounds; None: of every round). A round whose meta names a template version is checked
    against that version: the version exists, its terms match its seal, and its sealed settings
    hash to the hash of the settings the round recorded in its header (recomputed from them
    here, never taken from the round's own record). Rounds dealt from a game's defaults name no
    template and are not checked here (`qipai.ledger.terms` checks their hash)."""
    from qipai.ledger.schema import rounds
    from qipai.ledger.terms import terms_hash

    query = select(rounds.c.id, rounds.c.config, rounds.c.meta)
    if round_ids is not None:
        query = query.where(rounds.c.id.in_(sorted(set(round_ids))))
    wanted: dict[str, tuple[tuple[str, int], Any]] = {}
    for rid, config, meta in conn.execute(query):
        if not isinstance(meta, Mapping) or meta.get("template_id") is None:
            continue
        try:
            at = (str(meta["template_id"]), int(meta["template_version"]))
        except (KeyError, TypeError, ValueError):
            wanted[str(rid)] = (("", 0), config)
            continue
        wanted[str(rid)] = (at, config)
    if not wanted:
        return {}
    versions = sorted({at for at, _ in wanted.values()})
    ids = sorted({t for t, _ in versions})
    rows = {
        (str(r["template_id"]), int(r["version"])): dict(r)
        for r in conn.execute(
            select(table_templates).where(table_templates.c.template_id.in_(ids))
        ).mappings()
    }
    wrong = findings(conn, key, ids)
    out: dict[str, list[str]] = {}
    for rid, (at, config) in sorted(wanted.items()):
        row = rows.get(at)
        if row is None:
            out[rid] = [f"it names template {at[0]!r} version {at[1]}, which does not exist"]
            continue
        problems = []
        if at in wrong:
            problems.append(f"template {at[0]} version {at[1]}: {wrong[at]}")
        actual = terms_hash(config if isinstance(config, Mapping) else {})
        if actual != row["config_hash"]:
            problems.append(
                f"it was dealt under settings hashing to {actual[:12]}, not those of template "
                f"{at[0]} version {at[1]} ({str(row['config_hash'])[:12]})"
            )
        if problems:
            out[rid] = problems
    return out


def seal_unsealed(conn: Connection, key: bytes, at: float) -> int:
    """The first start with a key: seal every version written before (none sealed yet)."""
    if conn.execute(select(template_seals.c.template_id).limit(1)).first() is not None:
        return 0
    rows = list(conn.execute(select(table_templates.c.template_id, table_templates.c.version)))
    for template_id, version in rows:
        write_seal(conn, key, str(template_id), int(version), at)
    return len(rows)


__all__ = ["findings", "round_findings", "seal_of", "seal_unsealed", "write_seal"]
