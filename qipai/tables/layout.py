"""What of a table survives a restart: its layout (terms, seats and who sits in them, the round
counter, the running deal unit and the next one, reveals, recent results, status).

The layout is saved when it changes (compared as canonical text, so an unchanged layout costs no
database write) and, where the ledger keeps the layouts in its own database, in the same
transaction as each round's settlement (never one without the other).

The seeds in a layout (the running deal unit's and the next unit's) are secrets until their unit
ends: the layout holds them only sealed with the ledger's seed key (AES-256-GCM, the key never
enters the database: docs/security.md), so whoever reads `room_tables.data` or a backup cannot
compute the rest of a shoe. Sealing is deterministic (`Ledger.seal_stable`), so an unchanged
layout still saves as the same text.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from qipai.core.protocol import JSON
from qipai.tables.ports import TableRepo
from qipai.tables.terms import TableTerms

if TYPE_CHECKING:
    from qipai.tables.table import Table

# A layout saved before layouts named the round they count last: they were saved when each
# round started, so an open round is the one they count.
LEGACY = "-legacy-"


SEALED_SEEDS = ("carry_seed", "next_seed")


class Sealer(Protocol):
    def seal_stable(self, data: bytes, context: str) -> str: ...

    def unseal(self, sealed: str, context: str) -> bytes: ...


def sealer(table: Table) -> Sealer | None:
    """The ledger that seals this table's layout seeds: the key holder behind the table's
    ledger adapter. None for an in-memory ledger (no layout leaves the process)."""
    inner: Any = getattr(table.ledger, "ledger", table.ledger)
    if hasattr(inner, "seal_stable") and hasattr(inner, "unseal"):
        found: Sealer = inner
        return found
    return None


def _context(table_id: str, name: str) -> str:
    return f"layout|{table_id}|{name}"


def seal_seeds(data: dict[str, Any], table_id: str, keys: Sealer | None) -> dict[str, Any]:
    """The layout with its seeds sealed (a layout without a key holder keeps them as they are)."""
    if keys is None:
        return data
    out = dict(data)
    for name in SEALED_SEEDS:
        value = out.get(name)
        if isinstance(value, str) and value and not is_sealed(value):
            out[name] = keys.seal_stable(bytes.fromhex(value), _context(table_id, name))
    return out


def open_seeds(data: Mapping[str, Any], table_id: str, keys: Sealer | None) -> dict[str, Any]:
    """The layout with its seeds opened (hex), for restoring the table; KeyMismatch when the
    ledger's key is not the one they were sealed with. A layout saved before seeds were sealed
    holds them in hex: read as they are (and sealed at the next save)."""
    out = dict(data)
    for name in SEALED_SEEDS:
        value = out.get(name)
        if isinstance(value, str) and is_sealed(value):
            if keys is None:
                raise ValueError(f"the layout of table {table_id} holds a sealed seed: no key")
            out[name] = keys.unseal(value, _context(table_id, name)).hex()
    return out


def is_sealed(value: str) -> bool:
    from qipai.ledger.sealing import is_sealed as sealed

    return sealed(value)


def canonical(data: JSON) -> str:
    return json.dumps(data, sort_keys=True)


def build(table: Table) -> JSON:
    return seal_seeds(_plain(table), table.id, sealer(table))


def _plain(table: Table) -> dict[str, Any]:
    return {
        "table_id": table.id,
        "game": table.game.name,
        "name": table.name,
        "config": dict(table.terms.config_json),
        "terms": table.terms.to_json(),
        "pending_terms": None if table.pending_terms is None else table.pending_terms.to_json(),
        "owner": table.owner,
        "seats": table.seating.to_json(),
        "number": table.number,
        # the round that `number` counts last (recovery numbers an open round by it)
        "numbered": table.numbered,
        **table.units.to_json(),
        "results": _stored_results(table.results[-30:]),
        "client_seeds": dict(table.client_seed_of),
        "client_seeds_after": dict(table.seed_after),
        "alone_since": table.alone_since,
        "suspended": table.suspension,
        "closed": table.closed,
    }


def _stored_results(results: list[Any]) -> list[Any]:
    """The recent results as a layout keeps them: the last one without the chain head its
    settlement made. The layout saved in the settlement's own transaction cannot hold that head
    (its MAC is made there), so a layout that did would differ from it as soon as the table
    learns the head, and cost one more commit per round just to write it down; a restored
    table reads it back from the ledger instead (`Table._restore_chain_head`)."""
    last = results[-1] if results else None
    if not isinstance(last, dict) or "chain_head" not in last:
        return results
    return [*results[:-1], {k: v for k, v in last.items() if k != "chain_head"}]


def restore(table: Table, data: Mapping[str, Any]) -> None:
    data = open_seeds(data, table.id, sealer(table))
    table.seating.restore(list(data.get("seats", [])))
    table.number = int(data.get("number", 0))
    table.numbered = data.get("numbered", LEGACY)
    table.units.restore(data)
    table.results = list(data.get("results", []))
    table.last_result = table.results[-1] if table.results else None
    table.owner = data.get("owner", table.owner)
    table.client_seed_of = {str(k): str(v) for k, v in (data.get("client_seeds") or {}).items()}
    table.seed_after = {str(k): str(v) for k, v in (data.get("client_seeds_after") or {}).items()}
    alone = data.get("alone_since", table.alone_since)
    table.alone_since = None if alone is None else float(alone)
    reason = data.get("suspended")
    table.suspension = str(reason) if reason else None
    table.closed = bool(data.get("closed", False))
    pending = data.get("pending_terms")
    table.pending_terms = (
        TableTerms.from_json(table.game, pending) if isinstance(pending, Mapping) else None
    )
    _restore_chain_head(table)


def _restore_chain_head(table: Table) -> None:
    """The layout saved with a settlement (in its transaction, or just before it) cannot hold
    that settlement's chain head — its MAC is made in the settlement's transaction — so a
    recovered table reads it back from the ledger: the first state message after a restart
    shows it too (docs/ledger.md). Only the last result: the earlier ones were saved with theirs."""
    last = table.last_result
    if not isinstance(last, dict) or last.get("chain_head") or not last.get("round_id"):
        return
    info = table.ledger.round_info(str(last["round_id"]))
    head = None if info is None else info.get("chain_head")
    if head:
        table.last_result = {**last, "chain_head": head}
        if table.results and table.results[-1] is last:
            table.results[-1] = table.last_result


class LayoutSaver:
    """Saves a table's layout when it changed since the last save."""

    def __init__(self, repo: TableRepo | None, table_id: str) -> None:
        self.repo = repo
        self.table_id = table_id
        self.text: str | None = None

    def in_ledger(self, ledger: Any) -> bool:
        """Whether the ledger saves this repo's layouts in its own transactions."""
        return self.repo is not None and getattr(ledger, "layouts", None) is self.repo

    def saved(self, text: str) -> None:
        self.text = text

    def save(self, data: JSON, text: str) -> None:
        if self.repo is not None and text != self.text:
            self.repo.save_table(self.table_id, data)
            self.text = text


__all__ = [
    "LEGACY",
    "SEALED_SEEDS",
    "LayoutSaver",
    "build",
    "canonical",
    "open_seeds",
    "restore",
    "seal_seeds",
    "sealer",
]
