"""Moving a table to a newer version of its template at its next deal-unit boundary
(docs/operators.md "Tables on older versions").

A table keeps the terms it was opened on (ARCHITECTURE.md "Authority"); an operator may ask for
it to move to its template's newest version. The move never touches a deal unit in play — its
commitment was made under the old terms, and a shoe's later rounds must be dealt and paid as its
first were — so it waits (`pending_terms`, kept in the layout across a restart) until no unit
runs, and is applied as the next round is dealt (`rounds.start`): that round and every later one
are played, journaled (`meta`) and shown on the new terms, the round's players are told by a
`terms_changed` event and the state's `terms` shows the new version. A short stack under a
higher minimum buy-in is stood up before that deal, as at any deal. "Leave" withdraws the ask.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from qipai.core.errors import InvalidInput
from qipai.core.protocol import Event
from qipai.tables.terms import TableTerms

if TYPE_CHECKING:
    from qipai.tables.table import Table


def ask(table: Table, terms: TableTerms) -> None:
    """Move the table to `terms` at its next deal-unit boundary: the same game and template, a
    newer version (InvalidInput otherwise, nothing changed). Call under the table's lock."""
    now = table.terms
    if terms.game != now.game or terms.template_id != now.template_id or terms.template_id is None:
        raise InvalidInput("a table moves only to a version of its own template", field="version")
    if (terms.template_version or 0) <= (now.template_version or 0):
        raise InvalidInput(
            f"the table is on version {now.template_version}; "
            f"version {terms.template_version} is not newer",
            field="version",
        )
    table.pending_terms = terms
    table.save()


def leave(table: Table) -> bool:
    """Withdraw a pending move (True if there was one). Call under the table's lock."""
    had = table.pending_terms is not None
    table.pending_terms = None
    if had:
        table.save()
    return had


def apply_at_boundary(table: Table) -> Event | None:
    """Apply the pending move if no deal unit runs (called before a deal): the new terms and
    the event that tells the players; None when there is nothing to apply yet."""
    terms = table.pending_terms
    if (
        terms is None
        or table.units.running
        or (table.round is not None and not table.round.finished)
    ):
        return None
    before = table.terms.template_version
    table.terms = terms
    table.config = terms.config
    table.pending_terms = None
    return Event(
        "terms_changed",
        {
            "template_id": terms.template_id,
            "from_version": before,
            "to_version": terms.template_version,
        },
    )


__all__ = ["apply_at_boundary", "ask", "leave"]
