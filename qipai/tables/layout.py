"""What of a table survives a restart: its layout (terms, seats and who sits in them, the round
counter, the running deal unit and the next one, reveals, recent results, status).

The layout is saved when it changes (compared as canonical text, so an unchanged layout costs no
database write) and, where the ledger keeps the layouts in its own database, in the same
transaction as each round's settlement (never one without the other).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from qipai.core.protocol import JSON
from qipai.tables.ports import TableRepo

if TYPE_CHECKING:
    from qipai.tables.table import Table

# A layout saved before layouts named the round they count last: they were saved when each
# round started, so an open round is the one they count.
LEGACY = "-legacy-"


def canonical(data: JSON) -> str:
    return json.dumps(data, sort_keys=True)


def build(table: Table) -> JSON:
    return {
        "table_id": table.id,
        "game": table.game.name,
        "name": table.name,
        "config": dict(table.terms.config_json),
        "terms": table.terms.to_json(),
        "owner": table.owner,
        "seats": table.seating.to_json(),
        "number": table.number,
        # the round that `number` counts last (recovery numbers an open round by it)
        "numbered": table.numbered,
        **table.units.to_json(),
        "results": _stored_results(table.results[-30:]),
        "client_seeds": dict(table.client_seed_of),
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
    table.seating.restore(list(data.get("seats", [])))
    table.number = int(data.get("number", 0))
    table.numbered = data.get("numbered", LEGACY)
    table.units.restore(data)
    table.results = list(data.get("results", []))
    table.last_result = table.results[-1] if table.results else None
    table.owner = data.get("owner", table.owner)
    table.client_seed_of = {str(k): str(v) for k, v in (data.get("client_seeds") or {}).items()}
    alone = data.get("alone_since", table.alone_since)
    table.alone_since = None if alone is None else float(alone)
    reason = data.get("suspended")
    table.suspension = str(reason) if reason else None
    table.closed = bool(data.get("closed", False))
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


__all__ = ["LEGACY", "LayoutSaver", "build", "canonical", "restore"]
